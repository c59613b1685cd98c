import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { UnauthorizedHttp } from "../../schema/ApiErrors.ts"
import { AuthConfig, LoginRequest, LoginResult } from "../../schema/Auth.ts"
import { Ok } from "../../schema/Envelope.ts"
import { Requires } from "../Access.ts"

export class AuthApi extends HttpApiGroup.make("auth")
  .add(
    HttpApiEndpoint.get("config", "/config", { success: Ok(AuthConfig) }).annotateMerge(Requires.noToken)
      .annotateMerge(OpenApi.annotations({ summary: "Which sign-in methods are enabled" })),
    HttpApiEndpoint.post("login", "/login", {
      payload: LoginRequest,
      success: Ok(LoginResult, "Signed in"),
      error: UnauthorizedHttp
    }).annotateMerge(Requires.noToken).annotateMerge(
      OpenApi.annotations({ summary: "Sign in with username and password; returns a bearer token in data.token" })
    )
  )
  .prefix("/api/v1/auth")
  .annotateMerge(OpenApi.annotations({ title: "Authentication" }))
{}
