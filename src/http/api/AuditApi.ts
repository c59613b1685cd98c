import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { AuditEvent, AuditQuery } from "../../schema/Audit.ts"
import { Page } from "../../schema/Common.ts"
import { Ok } from "../../schema/Envelope.ts"
import { Requires } from "../Access.ts"
import { Authentication } from "../Middleware.ts"

export class AuditApi extends HttpApiGroup.make("audit")
  .add(
    HttpApiEndpoint.get("list", "/", { query: Schema.Struct(AuditQuery), success: Ok(Page(AuditEvent)) }).annotateMerge(
      Requires.admin
    )
      .annotateMerge(OpenApi.annotations({
        summary: "The audit log of state-changing calls, newest first; filter by actor, resource, method and time range"
      }))
  )
  .middleware(Authentication)
  .prefix("/api/v1/audit-events")
  .annotateMerge(OpenApi.annotations({ title: "Audit" }))
{}
