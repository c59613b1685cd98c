// The signed-in person: the token from POST /auth/login, kept in sessionStorage (gone when the tab closes).

export interface Session {
  readonly token: string
  readonly username: string
  readonly tenantId: string
  readonly roles: ReadonlyArray<string>
  readonly expiresAt: string
  /** How the token was obtained: the service's own sign-in, or an OIDC provider (signed in or pasted). */
  readonly source?: "password" | "oidc"
  /** The token's `groups` claim, when its issuer sends one (OIDC providers often do; this service's tokens do not). */
  readonly groups?: ReadonlyArray<string>
}

const KEY = "flowcore.session"

export const currentSession = (): Session | undefined => {
  const stored = sessionStorage.getItem(KEY)
  if (stored === null) return undefined
  try {
    const session = JSON.parse(stored) as Session
    if (Date.parse(session.expiresAt) <= Date.now()) {
      sessionStorage.removeItem(KEY)
      return undefined
    }
    return session
  } catch {
    sessionStorage.removeItem(KEY)
    return undefined
  }
}

export const saveSession = (session: Session): void => sessionStorage.setItem(KEY, JSON.stringify(session))

export const clearSession = (): void => sessionStorage.removeItem(KEY)

/** Operators deploy, start, cancel and recover; task users only see and work on tasks. */
export const isOperator = (session: Session | undefined): boolean =>
  session !== undefined && session.roles.some((role) => role === "ADMIN" || role === "PROCESS_OWNER")

/** Users, groups, invitations and authorizations are ADMIN only (the API refuses them to anyone else). */
export const isAdmin = (session: Session | undefined): boolean =>
  session !== undefined && session.roles.includes("ADMIN")
