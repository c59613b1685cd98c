// The authenticated caller of the request being served, as its token says.
import { Context } from "effect"
import type { Role } from "./Roles.ts"

export interface Principal {
  /** The calling user or service (`sub`); recorded on audit and history events. */
  readonly sub: string
  readonly tenantId: string
  readonly roles: ReadonlyArray<Role>
  /** Which issuer vouched for the token. */
  readonly source: "local" | "oidc"
}

export class CurrentPrincipal extends Context.Service<CurrentPrincipal, Principal>()("flowcore/CurrentPrincipal") {}

export const hasAnyRole = (principal: Principal, roles: ReadonlyArray<Role>): boolean =>
  roles.some((role) => principal.roles.includes(role))
