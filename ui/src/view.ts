// What a screen gets from the router.
import type { Session } from "./session.ts"

export interface ViewContext {
  /** The route's captured path segments (an id). */
  readonly params: ReadonlyArray<string>
  /** The query after the hash's "?" (filters, page). */
  readonly query: URLSearchParams
  readonly outlet: HTMLElement
  readonly session: Session
  /** False once the person has navigated elsewhere (a late answer must not draw). */
  readonly current: () => boolean
  /** Runs when the person leaves the screen. */
  readonly onLeave: (leave: () => void) => void
}

export type View = (context: ViewContext) => void | Promise<void>

/** Navigates to a route with a query, leaving out empty values. */
export const go = (path: string, query: Record<string, string | number | undefined> = {}) => {
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== "") params.set(key, String(value))
  }
  const text = params.toString()
  location.hash = `#${path}${text === "" ? "" : `?${text}`}`
}
