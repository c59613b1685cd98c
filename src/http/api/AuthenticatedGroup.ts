// The closing steps every group behind a bearer token takes: the Authentication middleware on all its endpoints, its
// path prefix, and its title in the OpenAPI document. Piped last, after the group's endpoints are added (the
// middleware applies only to the endpoints already in the group).
import type { HttpRouter } from "effect/http"
import type { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { OpenApi } from "effect/http-api"
import { Authentication } from "../Middleware.ts"

export const authenticatedGroup =
  <const Prefix extends HttpRouter.PathInput>(prefix: Prefix, title: string) =>
  <Id extends string, Endpoints extends HttpApiEndpoint.Constraint, TopLevel extends boolean>(
    group: HttpApiGroup.HttpApiGroup<Id, Endpoints, TopLevel>
  ) => group.middleware(Authentication).prefix(prefix).annotateMerge(OpenApi.annotations({ title }))
