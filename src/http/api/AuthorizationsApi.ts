import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { NotFoundHttp } from "../../schema/ApiErrors.ts"
import { AuthorizationQuery, GrantAuthorization, ResourceAuthorization } from "../../schema/Authorizations.ts"
import { PageQueryFields } from "../../schema/Common.ts"
import { Created, Ok } from "../../schema/Envelope.ts"
import { AuthorizationId } from "../../schema/ResourceIds.ts"
import { Requires } from "../Access.ts"
import { authenticatedGroup } from "./AuthenticatedGroup.ts"
import { pagedList } from "./PagedList.ts"

export class AuthorizationsApi extends HttpApiGroup.make("authorizations")
  .add(
    pagedList(
      { ...PageQueryFields, ...AuthorizationQuery },
      ResourceAuthorization,
      Requires.admin,
      "List resource-level permissions, newest first"
    ),
    HttpApiEndpoint.post("grant", "/", {
      payload: GrantAuthorization,
      success: Created(ResourceAuthorization, "Permission granted"),
      error: NotFoundHttp
    }).annotateMerge(Requires.admin).annotateMerge(OpenApi.annotations({
      summary: "Grant permissions on a resource (or * for every resource of the type) to a user or a group",
      description:
        "Once any grant exists for a resource, only ADMINs and grantees holding the permission may act on it."
    })),
    HttpApiEndpoint.delete("revoke", "/:id", {
      params: { id: AuthorizationId },
      success: Ok(ResourceAuthorization, "Permission revoked"),
      error: NotFoundHttp
    }).annotateMerge(Requires.admin).annotateMerge(
      OpenApi.annotations({ summary: "Revoke a permission; the revoked grant is returned" })
    )
  )
  .pipe(authenticatedGroup("/api/v1/auth/authorizations", "Authorizations"))
{}
