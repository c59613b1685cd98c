// Resource-level permissions (/auth/authorizations): a resource type, a resource id or `*`, permissions, granted to
// a user or a group.
import { Schema } from "effect"
import { IsoDateTime } from "./Common.ts"

export const RESOURCE_TYPES = [
  "PROCESS_DEFINITION",
  "PROCESS_INSTANCE",
  "DECISION",
  "TASK",
  "FORM",
  "CONNECTION",
  "PROJECT",
  "MODEL",
  "TEMPLATE",
  "BATCH"
] as const
export type ResourceType = (typeof RESOURCE_TYPES)[number]
export const ResourceType = Schema.Literals(RESOURCE_TYPES).annotate({ identifier: "ResourceType" })

export const PERMISSIONS = ["READ", "CREATE", "UPDATE", "DELETE", "CREATE_INSTANCE", "EXECUTE", "ALL"] as const
export type Permission = (typeof PERMISSIONS)[number]
export const Permission = Schema.Literals(PERMISSIONS).annotate({ identifier: "Permission" })

export const ResourceAuthorization = Schema.Struct({
  id: Schema.String,
  resourceType: ResourceType,
  resourceId: Schema.String.annotate({ description: "a resource id, or * for every resource of the type" }),
  permissions: Schema.Array(Permission),
  userId: Schema.NullOr(Schema.String),
  groupId: Schema.NullOr(Schema.String),
  createdAt: IsoDateTime
}).annotate({ identifier: "ResourceAuthorization" })
export type ResourceAuthorization = typeof ResourceAuthorization.Type

export const GrantAuthorization = Schema.Struct({
  resourceType: ResourceType,
  resourceId: Schema.optional(Schema.String.check(Schema.isBetweenLength(1, 200))).annotate({
    description: "default *"
  }),
  permissions: Schema.Array(Permission).check(
    Schema.isMinLength(1, { message: "at least one permission is required" })
  ),
  userId: Schema.optional(Schema.String),
  groupId: Schema.optional(Schema.String)
}).annotate({ identifier: "GrantAuthorization", description: "exactly one of userId and groupId" })

export const AuthorizationQuery = {
  resourceType: Schema.optional(ResourceType),
  resourceId: Schema.optional(Schema.String),
  userId: Schema.optional(Schema.String),
  groupId: Schema.optional(Schema.String)
}
