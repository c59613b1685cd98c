import { HttpApiGroup } from "effect/http-api"
import { AuditEvent, AuditQuery } from "../../schema/Audit.ts"
import { Requires } from "../Access.ts"
import { authenticatedGroup } from "./AuthenticatedGroup.ts"
import { pagedList } from "./PagedList.ts"

export class AuditApi extends HttpApiGroup.make("audit")
  .add(
    pagedList(
      AuditQuery,
      AuditEvent,
      Requires.admin,
      "The audit log of state-changing calls, newest first; filter by actor, resource, method and time range"
    )
  )
  .pipe(authenticatedGroup("/api/v1/audit-events", "Audit"))
{}
