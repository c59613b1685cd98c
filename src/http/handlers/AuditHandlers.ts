import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { pageRequest } from "../../schema/Common.ts"
import { AuditLog } from "../../services/identity/AuditLog.ts"
import { Api } from "../Api.ts"

export const AuditHandlers = HttpApiBuilder.group(
  Api,
  "audit",
  Effect.fnUntraced(function*(handlers) {
    const audit = yield* AuditLog
    return handlers.handle("list", ({ query }) => audit.list(query, pageRequest(query)))
  })
)
