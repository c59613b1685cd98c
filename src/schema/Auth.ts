// Sign-in: POST /auth/login and GET /auth/config.
import { Schema } from "effect"
import { Role } from "../auth/Roles.ts"

export const LoginRequest = Schema.Struct({
  username: Schema.String.check(Schema.isMinLength(1)),
  password: Schema.String.check(Schema.isMinLength(1))
}).annotate({ identifier: "LoginRequest" })

export const LoginResult = Schema.Struct({
  token: Schema.String,
  tokenType: Schema.Literal("Bearer"),
  expiresAt: Schema.String,
  expiresIn: Schema.Int.annotate({ description: "seconds until the token expires" }),
  username: Schema.String,
  tenantId: Schema.String,
  roles: Schema.Array(Role)
}).annotate({ identifier: "LoginResult" })

export const AuthConfig = Schema.Struct({
  password: Schema.Struct({ enabled: Schema.Boolean }),
  oidc: Schema.Struct({
    enabled: Schema.Boolean,
    issuer: Schema.NullOr(Schema.String),
    audience: Schema.NullOr(Schema.String),
    clientId: Schema.NullOr(Schema.String).annotate({
      description: "a public client of the provider for browser sign-in (authorization code + PKCE); null: none"
    }),
    scope: Schema.NullOr(Schema.String).annotate({ description: "the scopes to ask the provider for" })
  }),
  tokenHeader: Schema.String,
  roles: Schema.Array(Role)
}).annotate({ identifier: "AuthConfig" })
