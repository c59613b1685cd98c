import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { ROLES } from "../../auth/Roles.ts"
import { AppConfig } from "../../config.ts"
import { SignIn } from "../../services/identity/SignIn.ts"
import { Api } from "../Api.ts"

export const AuthHandlers = HttpApiBuilder.group(
  Api,
  "auth",
  Effect.fnUntraced(function*(handlers) {
    const config = yield* AppConfig
    const signIn = yield* SignIn
    return handlers
      .handle("config", () =>
        Effect.succeed({
          password: { enabled: true },
          oidc: {
            enabled: config.oidc !== undefined,
            issuer: config.oidc?.issuer ?? null,
            audience: config.oidc?.audience ?? null,
            clientId: config.oidc?.clientId ?? null,
            scope: config.oidc?.scope ?? null
          },
          tokenHeader: "Authorization: Bearer <token>",
          roles: ROLES
        }))
      .handle("login", ({ payload }) => signIn.login(payload.username, payload.password))
  })
)
