// Signing in with the tokens of the OIDC identity provider the service trusts (OIDC_ISSUER / OIDC_JWKS_URL). The
// service checks such a token like its own (signature by the provider's JWKS, issuer, expiry, audience) and reads the
// claims sub, tenantId and roles from it. Two ways in:
// - a bearer token pasted on the sign-in page (always, when GET /auth/config says OIDC is enabled);
// - authorization code + PKCE (S256) in the browser, when /auth/config also names a public `clientId`: the provider's
//   endpoints come from its discovery document (`<issuer>/.well-known/openid-configuration`), the redirect comes back to
//   this page (/ui/) with ?code&state, and the code is traded for a token at the provider's token endpoint (which must
//   allow this origin by CORS). The service answers the client id set by OIDC_CLIENT_ID.
import { api, type AuthConfig } from "./api.ts"
import { clearSession, saveSession, type Session } from "./session.ts"

const PENDING = "flowcore.oidc.pending"
const ERROR = "flowcore.oidc.error"

interface Pending {
  readonly state: string
  readonly verifier: string
  readonly tokenEndpoint: string
  readonly clientId: string
  readonly redirectUri: string
}

const base64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "")
const randomText = (length: number) => base64url(crypto.getRandomValues(new Uint8Array(length)))

/** The provider's name for a button: its issuer's host. */
export const providerName = (config: AuthConfig) => {
  try {
    return new URL(config.oidc.issuer ?? "").host
  } catch {
    return "your identity provider"
  }
}

/** The claims of a JWT (not verified here: the API verifies every call). */
const claimsOf = (token: string): Record<string, unknown> => {
  const part = token.split(".")[1]
  if (part === undefined) throw new Error("This is not a JWT (header.payload.signature)")
  try {
    const text = atob(part.replaceAll("-", "+").replaceAll("_", "/").padEnd(Math.ceil(part.length / 4) * 4, "="))
    return JSON.parse(new TextDecoder().decode(Uint8Array.from(text, (c) => c.charCodeAt(0))))
  } catch {
    throw new Error("The token's payload is not readable JSON")
  }
}

/**
 * Signs in with a provider's token: reads its claims for the header (name, tenant, roles) and proves it with one API
 * call (the service answers 401 to a token it does not accept).
 */
export const signInWithToken = async (raw: string): Promise<Session> => {
  const token = raw.trim().replace(/^Bearer\s+/i, "")
  const claims = claimsOf(token)
  const exp = typeof claims["exp"] === "number" ? claims["exp"] * 1000 : Date.now() + 3600_000
  if (exp <= Date.now()) throw new Error("This token has expired")
  const roles = Array.isArray(claims["roles"]) ? claims["roles"].filter((r): r is string => typeof r === "string") : []
  const groups = Array.isArray(claims["groups"])
    ? claims["groups"].filter((g): g is string => typeof g === "string")
    : undefined
  const name = [claims["preferred_username"], claims["email"], claims["sub"]].find((v) => typeof v === "string")
  const session: Session = {
    token,
    username: typeof name === "string" ? name : "unknown",
    tenantId: typeof claims["tenantId"] === "string" ? claims["tenantId"] : "",
    roles,
    expiresAt: new Date(exp).toISOString(),
    source: "oidc",
    ...(groups === undefined ? {} : { groups })
  }
  saveSession(session)
  try {
    await api.get("/tasks", { size: 1 })
  } catch (error) {
    clearSession()
    throw new Error(`The service does not accept this token: ${error instanceof Error ? error.message : String(error)}`)
  }
  return session
}

/** Starts authorization code + PKCE: to the provider's sign-in page, which redirects back here. */
export const startOidcSignIn = async (config: AuthConfig): Promise<void> => {
  const issuer = (config.oidc.issuer ?? "").replace(/\/$/, "")
  const clientId = config.oidc.clientId
  if (issuer === "" || clientId == null) throw new Error("The service names no OIDC client id to sign in with")
  const response = await fetch(`${issuer}/.well-known/openid-configuration`)
  if (!response.ok) throw new Error(`The provider's discovery document answered ${response.status}`)
  const discovery = await response.json() as { authorization_endpoint?: string; token_endpoint?: string }
  if (discovery.authorization_endpoint === undefined || discovery.token_endpoint === undefined) {
    throw new Error("The provider's discovery document names no authorization or token endpoint")
  }
  const verifier = randomText(48)
  const challenge = base64url(
    new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)))
  )
  const pending: Pending = {
    state: randomText(16),
    verifier,
    tokenEndpoint: discovery.token_endpoint,
    clientId,
    redirectUri: `${location.origin}${location.pathname}`
  }
  sessionStorage.setItem(PENDING, JSON.stringify(pending))
  const url = new URL(discovery.authorization_endpoint)
  const params: Record<string, string> = {
    response_type: "code",
    client_id: clientId,
    redirect_uri: pending.redirectUri,
    scope: config.oidc.scope ?? "openid profile email",
    state: pending.state,
    code_challenge: challenge,
    code_challenge_method: "S256",
    ...(config.oidc.audience === null ? {} : { audience: config.oidc.audience })
  }
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value)
  location.assign(url.toString())
}

/** Back from the provider (?code&state, or ?error): trades the code for a token and signs in with it. */
export const finishOidcSignIn = async (): Promise<void> => {
  const query = new URLSearchParams(location.search)
  const stored = sessionStorage.getItem(PENDING)
  if (stored === null || (!query.has("code") && !query.has("error"))) return
  sessionStorage.removeItem(PENDING)
  history.replaceState(null, "", `${location.pathname}#/`)
  try {
    const pending = JSON.parse(stored) as Pending
    if (query.get("state") !== pending.state) throw new Error("The provider's answer does not match this sign-in")
    if (query.has("error")) {
      throw new Error(`The provider refused: ${query.get("error_description") ?? query.get("error")}`)
    }
    const response = await fetch(pending.tokenEndpoint, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code: query.get("code") ?? "",
        redirect_uri: pending.redirectUri,
        client_id: pending.clientId,
        code_verifier: pending.verifier
      })
    })
    const answer = await response.json() as { access_token?: string; error?: string; error_description?: string }
    if (!response.ok || answer.access_token === undefined) {
      throw new Error(
        `The provider's token endpoint refused: ${answer.error_description ?? answer.error ?? response.status}`
      )
    }
    await signInWithToken(answer.access_token)
  } catch (error) {
    sessionStorage.setItem(ERROR, error instanceof Error ? error.message : String(error))
    location.hash = "#/login"
  }
}

/** A failed provider sign-in's message, once, for the sign-in page. */
export const takeOidcError = (): string | undefined => {
  const message = sessionStorage.getItem(ERROR)
  sessionStorage.removeItem(ERROR)
  return message ?? undefined
}

export const authConfig = (): Promise<AuthConfig> => api.anonymous<AuthConfig>("/auth/config")
