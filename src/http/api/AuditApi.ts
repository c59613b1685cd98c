import { HttpApiGroup, OpenApi } from "effect/http-api"
import { AuditEvent, AuditQuery } from "../../schema/Audit.ts"
import { Requires } from "../Access.ts"
import { Authentication } from "../Middleware.ts"
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
  .middleware(Authentication)
  .prefix("/api/v1/audit-events")
  .annotateMerge(OpenApi.annotations({ title: "Audit" }))
{}
