// What the administration's tabs share: the API's roles, resource types and permissions, and small form parts.
import { api, type Group, type User } from "../../api.ts"
import { badge, h } from "../../dom.ts"

export const ROLES = ["ADMIN", "PROCESS_OWNER", "TASK_USER"] as const
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
export const PERMISSIONS = ["READ", "CREATE", "UPDATE", "DELETE", "CREATE_INSTANCE", "EXECUTE", "ALL"] as const

export const roleBadges = (roles: ReadonlyArray<string>) =>
  roles.map((role) => badge(role, role === "ADMIN" ? "danger" : role === "PROCESS_OWNER" ? "info" : "neutral"))

/** A row of checkboxes; `read` answers the checked values. */
export const checkboxes = (name: string, values: ReadonlyArray<string>, checked: ReadonlyArray<string> = []) => {
  const boxes = values.map((value) =>
    h("input", { type: "checkbox", name, value, checked: checked.includes(value), "aria-label": value })
  )
  return {
    element: h(
      "div",
      { class: "check-row" },
      boxes.map((box) =>
        h(
          "label",
          { class: "check" },
          box,
          box.value.replaceAll("_", " ").toLowerCase().replace(/^./, (c) => c.toUpperCase())
        )
      )
    ),
    read: () => boxes.filter((box) => box.checked).map((box) => box.value)
  }
}

export const input = (attributes: Record<string, string | boolean>) =>
  h("input", { autocomplete: "off", ...attributes })

export const allUsers = async () => (await api.page<User>("/auth/users", { size: 500 })).items
export const allGroups = async () => (await api.page<Group>("/auth/groups", { size: 500 })).items
