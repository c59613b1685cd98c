// The users tab: the tenant's users, and creating one (the API edits and deletes none).
import { api, type User } from "../../api.ts"
import { act, field, formDialog, h, pager, replace, shortId, table, toast, when } from "../../dom.ts"
import { go } from "../../view.ts"
import { checkboxes, input, roleBadges, ROLES } from "./parts.ts"

export const usersTab = async (page: number, host: HTMLElement, reload: () => void) => {
  const users = await api.page<User>("/auth/users", { page, size: 25 })
  const create = h("button", { class: "btn btn-primary", "data-testid": "new-user" }, "New user")
  create.addEventListener("click", () =>
    act(create, async () => {
      const username = input({ required: true, pattern: "[A-Za-z0-9._@+\\-]+" })
      const email = input({ type: "email" })
      const password = input({ type: "password", required: true, minlength: "8", autocomplete: "new-password" })
      const roles = checkboxes("roles", ROLES, ["TASK_USER"])
      const done = await formDialog({
        title: "New user",
        body: [
          field("Username", username, "letters, digits and . _ @ + - (unique in the installation)"),
          field("Email", email, "optional"),
          field("Password", password, "8 to 200 characters; tell the person, who signs in with it"),
          field("Roles", roles.element)
        ],
        confirm: "Create user",
        submit: async () => {
          const email_ = email.value.trim()
          await api.post("/auth/users", {
            username: username.value.trim(),
            password: password.value,
            roles: roles.read(),
            ...(email_ === "" ? {} : { email: email_ })
          })
        }
      })
      if (!done) return
      toast(`User ${username.value.trim()} created`, "success")
      reload()
    }))
  replace(
    host,
    h(
      "div",
      { class: "card-head" },
      h("h2", null, "Users of this tenant"),
      h("div", { class: "actions" }, create)
    ),
    table<User>(
      [
        { title: "Username", cell: (user) => h("strong", null, user.username) },
        { title: "Email", cell: (user) => user.email ?? h("span", { class: "muted" }, "—") },
        { title: "Roles", cell: (user) => roleBadges(user.roles) },
        { title: "Created", cell: (user) => when(user.createdAt) },
        { title: "Id", cell: (user) => shortId(user.id) }
      ],
      users.items,
      { testId: "users", empty: "No users yet." }
    ),
    pager(users, (next) => go("/admin/users", { page: next })),
    h(
      "div",
      { class: "card-foot muted" },
      "The API creates users with their roles; it does not change a user's roles or remove a user."
    )
  )
}
