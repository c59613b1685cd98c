// The signed-in person: the token from POST /auth/login, kept in sessionStorage (gone when the tab closes).

export interface Session {
  readonly token: string
  readonly username: string
  readonly tenantId: string
  readonly roles: ReadonlyArray<string>
  readonly expiresAt: string
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
