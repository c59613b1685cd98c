// Which role each endpoint needs: the ONE declarative place, read by the authentication middleware, written into
// the OpenAPI document (`x-required-roles` and each operation's description) and listed in the README.
//
// SERVICE.md, Authentication rule 5: reads are open to any authenticated caller of the tenant; design-time and
// operational writes need ADMIN or PROCESS_OWNER; user, group, authorization and audit-log endpoints are ADMIN only;
// Play mode is for ADMIN and PROCESS_OWNER. Keys are OpenAPI operation ids: `<group>.<endpoint>`.
import type { Role } from "../auth/Roles.ts"

export type Access =
  | { readonly kind: "public" }
  | { readonly kind: "authenticated" }
  | { readonly kind: "roles"; readonly roles: ReadonlyArray<Role> }

const PUBLIC: Access = { kind: "public" }
const ANY: Access = { kind: "authenticated" }
const ADMIN: Access = { kind: "roles", roles: ["ADMIN"] }
// Design-time and operational writes.
const OPERATOR: Access = { kind: "roles", roles: ["ADMIN", "PROCESS_OWNER"] }

export const ACCESS_POLICY: Readonly<Record<string, Access>> = {
  "system.health": PUBLIC,
  "auth.config": PUBLIC,
  "auth.login": PUBLIC,
  "users.list": ADMIN,
  "users.create": ADMIN,
  "groups.list": ADMIN,
  "groups.create": ADMIN,
  "groups.listMembers": ADMIN,
  "groups.addMember": ADMIN,
  "groups.removeMember": ADMIN,
  "authorizations.list": ADMIN,
  "authorizations.grant": ADMIN,
  "authorizations.revoke": ADMIN,
  "invitations.list": ADMIN,
  "invitations.create": ADMIN,
  "invitations.revoke": ADMIN,
  // Public: the invitation token is the credential of someone who has no account yet.
  "invitationAcceptance.accept": PUBLIC,
  "audit.list": ADMIN,
  "deployments.deploy": OPERATOR,
  "deployments.list": ANY,
  "deployments.get": ANY,
  "deployments.remove": OPERATOR,
  "deployments.suspend": OPERATOR,
  "deployments.resume": OPERATOR,
  "deployments.nodes": ANY,
  "deployments.simulate": OPERATOR,
  "processInstances.start": OPERATOR,
  "processInstances.list": ANY,
  "processInstances.get": ANY,
  "processInstances.remove": OPERATOR,
  "processInstances.cancel": OPERATOR,
  "processInstances.suspend": OPERATOR,
  "processInstances.resume": OPERATOR,
  "processInstances.moveToken": OPERATOR,
  "processInstances.migrate": OPERATOR,
  "processInstances.history": ANY,
  "processInstances.snapshot": ANY,
  "processInstances.tokens": ANY,
  "processInstances.eventSubscriptions": ANY,
  "processInstances.getVariables": ANY,
  "processInstances.updateVariables": OPERATOR,
  "processInstances.nodeVariables": ANY,
  "processInstances.setNodeVariables": OPERATOR,
  "scopes.list": ANY,
  "scopes.get": ANY,
  "scopes.set": OPERATOR,
  "scopes.remove": OPERATOR,
  // Messages come from the systems around the processes: their service accounts carry PROCESS_OWNER.
  "messages.publish": OPERATOR,
  "signals.broadcast": OPERATOR,
  "conditionalStarts.evaluate": OPERATOR,
  "decisions.list": ANY,
  "decisions.deploy": OPERATOR,
  "decisions.import": OPERATOR,
  "decisions.get": ANY,
  "decisions.xml": ANY,
  // Evaluating changes nothing: any authenticated caller may.
  "decisions.evaluate": ANY,
  "decisions.evaluateWithTrace": ANY,
  "decisionModels.list": ANY,
  "decisionModels.get": ANY,
  "decisionModels.xml": ANY,
  "decisionModels.evaluateDecision": ANY,
  "decisionModels.evaluateService": ANY,
  "feel.evaluate": ANY,
  "feel.functions": ANY,
  // Job workers act for the process owner: their service accounts carry PROCESS_OWNER.
  "jobs.activate": OPERATOR,
  "jobs.complete": OPERATOR,
  "jobs.throwError": OPERATOR,
  "jobs.fail": OPERATOR,
  "jobs.retries": OPERATOR,
  "jobs.heartbeat": OPERATOR,
  "jobs.list": ANY,
  "jobs.stream": OPERATOR,
  "jobs.retryState": ANY,
  "jobs.setRetryPolicy": OPERATOR,
  "jobs.retryNow": OPERATOR,
  "jobs.cancelRetry": OPERATOR,
  "jobs.retryHistory": ANY,
  "tasks.list": ANY,
  // People complete their own tasks: any authenticated caller, subject to the task's assignee.
  "tasks.complete": ANY,
  // Claiming, releasing, delegating and commenting are what task users do; assigning to others is an operator's call.
  "tasks.claim": ANY,
  "tasks.unclaim": ANY,
  "tasks.delegate": ANY,
  "tasks.assign": OPERATOR,
  "tasks.comments": ANY,
  "tasks.addComment": ANY,
  "taskFilters.list": ANY,
  "taskFilters.create": ANY,
  "taskFilters.remove": ANY,
  "incidents.list": ANY,
  "batchOperations.create": OPERATOR,
  "batchOperations.get": ANY,
  "insights.metrics": ANY,
  "insights.report": ANY,
  "admin.rebuildInstanceSummary": ADMIN,
  // SERVICE.md: Play mode is for ADMIN and PROCESS_OWNER (reading a session too).
  "play.start": OPERATOR,
  "play.step": OPERATOR,
  "play.get": OPERATOR,
  // Analysing a model changes nothing (as evaluating a decision).
  "analysis.variables": ANY,
  // Modeling: reads any authenticated; writes ADMIN or PROCESS_OWNER, and within a project its OWNER / EDITOR roles.
  // Drafts are design-time work of modelers only (each sees their own).
  "projects.list": ANY,
  "projects.get": ANY,
  "projects.members": ANY,
  "projects.folders": ANY,
  "projects.create": OPERATOR,
  "projects.update": OPERATOR,
  "projects.remove": OPERATOR,
  "projects.addMember": OPERATOR,
  "projects.removeMember": OPERATOR,
  "projects.createFolder": OPERATOR,
  "models.list": ANY,
  "models.get": ANY,
  "models.revisions": ANY,
  "models.lock": ANY,
  "models.create": OPERATOR,
  "models.remove": OPERATOR,
  "models.saveContent": OPERATOR,
  "models.restore": OPERATOR,
  "models.acquireLock": OPERATOR,
  "models.releaseLock": OPERATOR,
  "models.renewLock": OPERATOR,
  "models.takeoverLock": OPERATOR,
  "drafts.list": OPERATOR,
  "drafts.get": OPERATOR,
  "drafts.create": OPERATOR,
  "drafts.save": OPERATOR,
  "drafts.remove": OPERATOR,
  "drafts.promote": OPERATOR,
  "templates.list": ANY,
  "templates.get": ANY,
  "templates.create": OPERATOR,
  "templates.update": OPERATOR,
  "templates.remove": OPERATOR,
  // Forms: reads (and the playground, which changes nothing) any authenticated; design-time writes ADMIN or PROCESS_OWNER.
  "formDefinitions.list": ANY,
  "formDefinitions.get": ANY,
  "formDefinitions.versions": ANY,
  "formDefinitions.diff": ANY,
  "formDefinitions.lineage": ANY,
  "formDefinitions.audit": ANY,
  "formDefinitions.locales": ANY,
  "formDefinitions.resolved": ANY,
  "formDefinitions.playground": ANY,
  "formDefinitions.create": OPERATOR,
  "formDefinitions.update": OPERATOR,
  "formDefinitions.remove": OPERATOR,
  "formDefinitions.validate": OPERATOR,
  "formDefinitions.returnToDraft": OPERATOR,
  "formDefinitions.publish": OPERATOR,
  "formDefinitions.deploy": OPERATOR,
  "formDefinitions.retire": OPERATOR,
  "formDefinitions.restore": OPERATOR,
  "formDefinitions.saveLocale": OPERATOR,
  "formDefinitions.removeLocale": OPERATOR,
  "legacyForms.list": ANY,
  "legacyForms.get": ANY,
  "legacyForms.deploy": OPERATOR,
  "legacyForms.edit": OPERATOR,
  "legacyForms.remove": OPERATOR,
  "legacyForms.migrate": OPERATOR,
  "tasks.form": ANY,
  "tasks.formDefinition": ANY,
  "connectors.list": ANY,
  "connections.list": ANY,
  "connections.get": ANY,
  "connections.test": ANY,
  "connections.create": OPERATOR,
  "connections.update": OPERATOR,
  "connections.remove": OPERATOR,
  "connections.enable": OPERATOR,
  "connections.disable": OPERATOR,
  "incidents.retry": OPERATOR,
  "incidents.skipNode": OPERATOR,
  "incidents.restartFromNode": OPERATOR,
  "incidents.rollback": OPERATOR,
  "incidents.editVariablesAndRetry": OPERATOR
}

export const accessOf = (operationId: string): Access | undefined => ACCESS_POLICY[operationId]

export const describeAccess = (access: Access): string =>
  access.kind === "public"
    ? "Public: no token needed."
    : access.kind === "authenticated"
    ? "Any authenticated caller of the tenant."
    : `Requires role ${access.roles.join(" or ")}.`

export const requiredRoles = (access: Access): ReadonlyArray<string> =>
  access.kind === "public" ? [] : access.kind === "authenticated" ? ["ANY_AUTHENTICATED"] : access.roles
