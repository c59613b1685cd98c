import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { ConflictHttp } from "../../schema/ApiErrors.ts"
import { PageQueryFields } from "../../schema/Common.ts"
import { Created } from "../../schema/Envelope.ts"
import { CreateUser, User } from "../../schema/Users.ts"
import { Requires } from "../Access.ts"
import { authenticatedGroup } from "./AuthenticatedGroup.ts"
import { pagedList } from "./PagedList.ts"

export class UsersApi extends HttpApiGroup.make("users")
  .add(
    pagedList(PageQueryFields, User, Requires.admin, "List the users of the tenant, newest first"),
    HttpApiEndpoint.post("create", "/", {
      payload: CreateUser,
      success: Created(User, "User created"),
      error: ConflictHttp
    }).annotateMerge(Requires.admin).annotateMerge(
      OpenApi.annotations({ summary: "Create a user with roles (usernames are unique installation-wide)" })
    )
  )
  .pipe(authenticatedGroup("/api/v1/auth/users", "Users"))
{}
