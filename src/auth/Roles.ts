// The three roles of SERVICE.md ("Token claims").
import { Schema } from "effect"

export const ROLES = ["ADMIN", "PROCESS_OWNER", "TASK_USER"] as const
export type Role = (typeof ROLES)[number]
export const Role = Schema.Literals(ROLES).annotate({ identifier: "Role" })

export const isRole = (value: unknown): value is Role =>
  typeof value === "string" && (ROLES as ReadonlyArray<string>).includes(value)
