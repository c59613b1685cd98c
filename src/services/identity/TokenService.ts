// Issues the service's own tokens (HS256, jose) and verifies both those and, when configured, tokens of an external
// OIDC identity provider (signature via its JWKS, issuer, expiry, optional audience). Either way the result is a
// Principal with the SERVICE.md claims: sub, tenantId (UUID), roles.
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { createRemoteJWKSet, decodeJwt, type JWTPayload, jwtVerify, SignJWT } from "jose"
import { randomBytes } from "node:crypto"
import type { Principal } from "../../auth/Principal.ts"
import { isRole, type Role } from "../../auth/Roles.ts"
import { AppConfig } from "../../config.ts"
import { isUuid } from "../Ids.ts"
import { nowIso, nowMillis } from "../Time.ts"

export class InvalidToken extends Error {
  override readonly name = "InvalidToken"
}

export interface IssuedToken {
  readonly token: string
  readonly expiresAt: string
  readonly expiresIn: number
}

export interface TokenServiceShape {
  readonly issue: (
    subject: { readonly sub: string; readonly tenantId: string; readonly roles: ReadonlyArray<Role> }
  ) => Effect.Effect<IssuedToken>
  readonly verify: (token: string) => Effect.Effect<Principal, InvalidToken>
  readonly oidcIssuer: string | undefined
}

const VERIFIED_CACHE_SIZE = 10_000

export class TokenService extends Context.Service<TokenService, TokenServiceShape>()("flowcore/TokenService") {
  static readonly layer = Layer.effect(
    TokenService,
    Effect.gen(function*() {
      const config = yield* AppConfig
      const secret = new TextEncoder().encode(config.jwtSecret ?? (yield* loadOrCreateSecret))
      const jwks = config.oidc === undefined ? undefined : createRemoteJWKSet(new URL(config.oidc.jwksUrl))

      const claimsToPrincipal = (payload: JWTPayload, source: Principal["source"]): Principal => {
        const tenantId = payload["tenantId"]
        const roles = payload["roles"]
        if (typeof payload.sub !== "string" || payload.sub === "") throw new InvalidToken("token has no sub claim")
        if (typeof tenantId !== "string" || !isUuid(tenantId)) {
          throw new InvalidToken("token's tenantId claim is not a UUID")
        }
        if (roles !== undefined && !Array.isArray(roles)) throw new InvalidToken("token's roles claim is not a list")
        return { sub: payload.sub, tenantId: tenantId.toLowerCase(), roles: (roles ?? []).filter(isRole), source }
      }

      // A token verified once is good until it expires: its signature is not checked again on every request (HMAC and
      // JWKS verification are a measurable share of a request's CPU). Keyed by the whole token, so by its signature.
      const verified = new Map<string, { readonly principal: Principal; readonly expiresAt: number }>()
      const remember = (token: string, principal: Principal, exp: number | undefined) => {
        if (exp === undefined) return
        if (verified.size >= VERIFIED_CACHE_SIZE) verified.delete(verified.keys().next().value as string)
        verified.set(token, { principal, expiresAt: exp * 1000 })
      }

      const verify = Effect.fnUntraced(function*(token: string) {
        const nowMs = yield* nowMillis
        const cached = verified.get(token)
        if (cached !== undefined && nowMs < cached.expiresAt) return cached.principal
        const now = new Date(nowMs)
        return yield* Effect.tryPromise({
          try: async () => {
            let issuer: unknown
            try {
              issuer = decodeJwt(token).iss
            } catch {
              throw new InvalidToken("token is not a JWT")
            }
            if (config.oidc !== undefined && jwks !== undefined && issuer === config.oidc.issuer) {
              const { payload } = await jwtVerify(token, jwks, {
                issuer: config.oidc.issuer,
                currentDate: now,
                ...(config.oidc.audience === undefined ? {} : { audience: config.oidc.audience })
              })
              const principal = claimsToPrincipal(payload, "oidc")
              remember(token, principal, payload.exp)
              return principal
            }
            const { payload } = await jwtVerify(token, secret, {
              issuer: config.jwtIssuer,
              algorithms: ["HS256"],
              currentDate: now
            })
            const principal = claimsToPrincipal(payload, "local")
            remember(token, principal, payload.exp)
            return principal
          },
          catch: (error) =>
            error instanceof InvalidToken
              ? error
              : new InvalidToken(error instanceof Error ? error.message : String(error))
        })
      })

      const issue: TokenServiceShape["issue"] = Effect.fnUntraced(function*({ sub, tenantId, roles }) {
        const nowSeconds = Math.floor((yield* nowMillis) / 1000)
        const exp = nowSeconds + config.tokenTtlSeconds
        const token = yield* Effect.promise(() =>
          new SignJWT({ tenantId, roles: [...roles] })
            .setProtectedHeader({ alg: "HS256", typ: "JWT" })
            .setSubject(sub)
            .setIssuer(config.jwtIssuer)
            .setIssuedAt(nowSeconds)
            .setExpirationTime(exp)
            .sign(secret)
        )
        return { token, expiresAt: new Date(exp * 1000).toISOString(), expiresIn: config.tokenTtlSeconds }
      })

      return { issue, verify, oidcIssuer: config.oidc?.issuer }
    })
  )
}

/** Without JWT_SECRET, a random secret is generated once and kept in the database, so tokens survive restarts. */
const loadOrCreateSecret = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const createdAt = yield* nowIso
  yield* sql`INSERT INTO installation_settings (key, value, created_at)
    VALUES ('jwt_secret', ${randomBytes(48).toString("base64url")}, ${createdAt}) ON CONFLICT (key) DO NOTHING`
  const rows = yield* sql<{ value: string }>`SELECT value FROM installation_settings WHERE key = 'jwt_secret'`
  return rows[0]!.value
}).pipe(Effect.orDie)
