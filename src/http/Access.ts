// Which role an endpoint needs, declared on the endpoint itself (`.annotateMerge(Requires.admin)`), so the rule cannot
// drift from the API: the authentication middleware reads it from the endpoint it guards, and the OpenAPI document
// shows it (`x-required-roles` and the operation's description). An endpoint without it is refused by a test
// (test/structure/endpoint-access.test.ts) and, were one served, a defect (500) rather than an open door.
//
// SERVICE.md, Authentication rule 5: reads are open to any authenticated caller of the tenant; design-time and
// operational writes need ADMIN or PROCESS_OWNER; user, group, authorization and audit-log endpoints are ADMIN only;
// Play mode is for ADMIN and PROCESS_OWNER.
import { Context, Option } from "effect"
import { OpenApi } from "effect/http-api"
import type { Role } from "../auth/Roles.ts"

export type Access =
  | { readonly kind: "public" }
  | { readonly kind: "authenticated" }
  | { readonly kind: "roles"; readonly roles: ReadonlyArray<Role> }

/** The endpoint annotation. */
export class RequiredAccess extends Context.Service<RequiredAccess, Access>()("flowcore/RequiredAccess") {}

export const describeAccess = (access: Access): string =>
  access.kind === "public"
    ? "Public: no token needed."
    : access.kind === "authenticated"
    ? "Any authenticated caller of the tenant."
    : `Requires role ${access.roles.join(" or ")}.`

/** The roles as the OpenAPI document lists them: none for a public operation, ANY_AUTHENTICATED for any caller. */
export const requiredRoles = (access: Access): ReadonlyArray<string> =>
  access.kind === "public" ? [] : access.kind === "authenticated" ? ["ANY_AUTHENTICATED"] : access.roles

/** The access an endpoint declares, if it declares one. */
export const accessOf = (endpoint: { readonly annotations: Context.Context<never> }): Access | undefined =>
  Option.getOrUndefined(Context.getOption(endpoint.annotations, RequiredAccess))

const requires = (access: Access): Context.Context<never> =>
  Context.make(RequiredAccess, access).pipe(
    Context.merge(OpenApi.annotations({
      transform: (operation) => ({
        ...operation,
        "x-required-roles": requiredRoles(access),
        description: [describeAccess(access), operation["description"]].filter(Boolean).join("\n\n")
      })
    }))
  )

/** The access annotations, one per rule of SERVICE.md. */
export const Requires = {
  /** No token: signing in, the health check, accepting an invitation (its token is the credential). */
  noToken: requires({ kind: "public" }),
  /** Any authenticated caller of the tenant: reads, and what changes nothing (evaluating, analysing). */
  anyRole: requires({ kind: "authenticated" }),
  /** Users, groups, authorizations, invitations, the audit log, administration. */
  admin: requires({ kind: "roles", roles: ["ADMIN"] }),
  /** Design-time and operational writes (job workers and the systems around the processes use PROCESS_OWNER). */
  adminOrProcessOwner: requires({ kind: "roles", roles: ["ADMIN", "PROCESS_OWNER"] })
} as const
