import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { CurrentPrincipal } from "../../auth/Principal.ts"
import { pageRequest } from "../../schema/Common.ts"
import { AuditLog } from "../../services/AuditLog.ts"
import { Api } from "../Api.ts"

export const AuditHandlers = HttpApiBuilder.group(Api, "audit", (handlers) =>
  Effect.gen(function*() {
    const audit = yield* AuditLog
    return handlers.handle("list", ({ query }) =>
      Effect.flatMap(CurrentPrincipal, (principal) =>
        audit.list(principal.tenantId, query, pageRequest(query))))
  }))
