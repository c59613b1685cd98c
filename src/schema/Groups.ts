// Groups and their members (/auth/groups, /auth/groups/{id}/members).
import { Schema } from "effect"
import { IsoDateTime } from "./Common.ts"

export const Group = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  description: Schema.NullOr(Schema.String),
  memberCount: Schema.Int,
  createdAt: IsoDateTime
}).annotate({ identifier: "Group" })
export type Group = typeof Group.Type

export const CreateGroup = Schema.Struct({
  name: Schema.String.check(Schema.isBetweenLength(1, 200)),
  description: Schema.optional(Schema.String.check(Schema.isMaxLength(2000)))
}).annotate({ identifier: "CreateGroup" })

export const GroupMember = Schema.Struct({
  groupId: Schema.String,
  userId: Schema.String,
  username: Schema.String,
  addedAt: IsoDateTime
}).annotate({ identifier: "GroupMember" })
export type GroupMember = typeof GroupMember.Type

export const AddGroupMember = Schema.Struct({
  userId: Schema.String.check(Schema.isMinLength(1))
}).annotate({ identifier: "AddGroupMember" })
