// Users of a tenant (GET/POST /auth/users).
import { Schema } from "effect"
import { Role } from "../auth/Roles.ts"
import { Timestamps } from "./Common.ts"

export const Username = Schema.String.check(
  Schema.isBetweenLength(1, 100),
  Schema.isPattern(/^[A-Za-z0-9._@+-]+$/, { message: "a username may contain letters, digits and . _ @ + - only" })
)
export const Email = Schema.String.check(
  Schema.isMaxLength(254),
  Schema.isPattern(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, { message: "expected an email address" })
)
export const Password = Schema.String.check(
  Schema.isBetweenLength(8, 200, { message: "a password has 8 to 200 characters" })
)
export const Roles = Schema.Array(Role).check(Schema.isMinLength(1, { message: "at least one role is required" }))

export const User = Schema.Struct({
  id: Schema.String,
  username: Schema.String,
  email: Schema.NullOr(Schema.String),
  roles: Schema.Array(Role),
  ...Timestamps
}).annotate({ identifier: "User" })
export type User = typeof User.Type

export const CreateUser = Schema.Struct({
  username: Username,
  password: Password,
  email: Schema.optional(Email),
  roles: Roles
}).annotate({ identifier: "CreateUser" })
