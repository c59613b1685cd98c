// The ids in request paths, defined once: a UUID string (ARCHITECTURE.md, Conventions: ids are UUID v7), branded per
// kind of resource so a service asks for the id it means (a JobId is no TaskId) and gets one that was checked.
//
// SERVICE.md, Errors rule 1: an id that names nothing answers 404 RESOURCE_NOT_FOUND "<kind> <id> not found". A path
// id that is not even a UUID names nothing either: the request decoding refuses it (RequestValidationLive) with
// exactly that answer, before any handler or query runs, reading the kind from the annotation below.
import { Effect, Schema, type SchemaIssue } from "effect"
import { type NotFound, notFound } from "./ApiErrors.ts"

/** Annotation key on the UUID check of a path id: the resource kind a 404 names ("process instance"). */
export const RESOURCE_KIND = "flowcore/resourceKind"

/** The shape of an id (any UUID version; PostgreSQL's uuid type takes any of them). */
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

const uuidOf = (kind: string) =>
  Schema.String.check(
    Schema.isPattern(UUID_PATTERN, {
      expected: `a UUID (${kind} id)`,
      [RESOURCE_KIND]: kind,
      toJsonSchema: () => ({ pattern: UUID_PATTERN.source, format: "uuid" })
    })
  ).annotate({ description: `${kind} id (a UUID)` })

export const AuthorizationId = uuidOf("authorization").pipe(Schema.brand("AuthorizationId"))
export type AuthorizationId = typeof AuthorizationId.Type
export const BatchOperationId = uuidOf("batch operation").pipe(Schema.brand("BatchOperationId"))
export type BatchOperationId = typeof BatchOperationId.Type
export const ConnectionId = uuidOf("connection").pipe(Schema.brand("ConnectionId"))
export type ConnectionId = typeof ConnectionId.Type
export const DecisionModelId = uuidOf("decision model").pipe(Schema.brand("DecisionModelId"))
export type DecisionModelId = typeof DecisionModelId.Type
export const DeploymentId = uuidOf("deployment").pipe(Schema.brand("DeploymentId"))
export type DeploymentId = typeof DeploymentId.Type
export const DraftId = uuidOf("draft").pipe(Schema.brand("DraftId"))
export type DraftId = typeof DraftId.Type
export const FormDefinitionId = uuidOf("form definition").pipe(Schema.brand("FormDefinitionId"))
export type FormDefinitionId = typeof FormDefinitionId.Type
export const GroupId = uuidOf("group").pipe(Schema.brand("GroupId"))
export type GroupId = typeof GroupId.Type
/** A user named as a member of a group: a malformed one is no member ("group member <id> not found"). */
export const GroupMemberId = uuidOf("group member").pipe(Schema.brand("UserId"))
export const IncidentId = uuidOf("incident").pipe(Schema.brand("IncidentId"))
export type IncidentId = typeof IncidentId.Type
export const InvitationId = uuidOf("invitation").pipe(Schema.brand("InvitationId"))
export type InvitationId = typeof InvitationId.Type
export const JobId = uuidOf("job").pipe(Schema.brand("JobId"))
export type JobId = typeof JobId.Type
/** A form of the legacy API (`/forms`), which calls its resources "form". */
export const LegacyFormId = uuidOf("form").pipe(Schema.brand("LegacyFormId"))
export type LegacyFormId = typeof LegacyFormId.Type
export const ModelId = uuidOf("model").pipe(Schema.brand("ModelId"))
export type ModelId = typeof ModelId.Type
export const PlaySessionId = uuidOf("play session").pipe(Schema.brand("PlaySessionId"))
export type PlaySessionId = typeof PlaySessionId.Type
export const ProcessInstanceId = uuidOf("process instance").pipe(Schema.brand("ProcessInstanceId"))
export type ProcessInstanceId = typeof ProcessInstanceId.Type
export const ProjectId = uuidOf("project").pipe(Schema.brand("ProjectId"))
export type ProjectId = typeof ProjectId.Type
export const TaskFilterId = uuidOf("task filter").pipe(Schema.brand("TaskFilterId"))
export type TaskFilterId = typeof TaskFilterId.Type
export const TaskId = uuidOf("task").pipe(Schema.brand("TaskId"))
export type TaskId = typeof TaskId.Type
export const TemplateId = uuidOf("template").pipe(Schema.brand("TemplateId"))
export type TemplateId = typeof TemplateId.Type
export type UserId = typeof GroupMemberId.Type

/** The resource kind an id schema above names in its 404. */
const kindOf = (schema: Schema.Top): string => {
  const kind = schema.ast.checks?.map((check) => check.annotations?.[RESOURCE_KIND]).find((k) => typeof k === "string")
  return typeof kind === "string" ? kind : "resource"
}

/**
 * Reads an id that a caller gave elsewhere than in the path (a batch's target ids): one that is not a UUID names
 * nothing, so it is the 404 of its kind, as in a path.
 */
export const parseId = <S extends Schema.Top & { readonly Type: string }>(schema: S) => {
  const isId = Schema.is(schema)
  const kind = kindOf(schema)
  return (id: string): Effect.Effect<S["Type"], NotFound> =>
    isId(id) ? Effect.succeed(id) : Effect.fail(notFound(kind, id))
}

/**
 * The path ids a decoding issue refused, in the order of the path's parameters: `{ param, kind }` for every path id
 * that is no UUID. Other issues (a non-numeric eventSeq) are not listed.
 */
export const refusedPathIds = (
  issue: SchemaIssue.Issue
): ReadonlyArray<{ readonly param: string; readonly kind: string }> => {
  const found: Array<{ readonly param: string; readonly kind: string }> = []
  const walk = (node: SchemaIssue.Issue, param: string | undefined): void => {
    switch (node._tag) {
      case "Pointer":
        return walk(node.issue, typeof node.path[0] === "string" ? node.path[0] : param)
      case "Composite":
      case "AnyOf":
        return node.issues.forEach((inner) => walk(inner, param))
      case "Encoding":
        return walk(node.issue, param)
      case "Filter": {
        const kind = node.filter.annotations?.[RESOURCE_KIND]
        if (typeof kind === "string" && param !== undefined) found.push({ param, kind })
        return
      }
      default:
        return
    }
  }
  walk(issue, undefined)
  return found
}
