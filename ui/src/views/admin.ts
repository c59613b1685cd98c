// Administration (ADMIN only, as the API): users, groups and their members, invitations, resource authorizations.
// One screen with a tab per kind (#/admin/users, #/admin/groups, #/admin/groups/<id>, #/admin/invitations,
// #/admin/authorizations). What the API allows is offered: users and groups are created (the API edits and deletes
// neither), members added and removed, invitations created and revoked, authorizations granted and revoked.
import { api, type Group, type GroupMember, type Invitation, type ResourceAuthorization, type User } from "../api.ts"
import {
  act,
  badge,
  type Child,
  confirmDialog,
  field,
  formDialog,
  h,
  link,
  loading,
  pager,
  replace,
  shortId,
  table,
  toast,
  when
} from "../dom.ts"
import { isAdmin } from "../session.ts"
import { go, type View } from "../view.ts"

const ROLES = ["ADMIN", "PROCESS_OWNER", "TASK_USER"] as const
const RESOURCE_TYPES = [
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
const PERMISSIONS = ["READ", "CREATE", "UPDATE", "DELETE", "CREATE_INSTANCE", "EXECUTE", "ALL"] as const
const TABS = [["users", "Users"], ["groups", "Groups"], ["invitations", "Invitations"], [
  "authorizations",
  "Authorizations"
]] as const
type Tab = (typeof TABS)[number][0]

const roleBadges = (roles: ReadonlyArray<string>) =>
  roles.map((role) => badge(role, role === "ADMIN" ? "danger" : role === "PROCESS_OWNER" ? "info" : "neutral"))

/** A row of checkboxes; `read` answers the checked values. */
const checkboxes = (name: string, values: ReadonlyArray<string>, checked: ReadonlyArray<string> = []) => {
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

const input = (attributes: Record<string, string | boolean>) => h("input", { autocomplete: "off", ...attributes })

const allUsers = async () => (await api.page<User>("/auth/users", { size: 500 })).items
const allGroups = async () => (await api.page<Group>("/auth/groups", { size: 500 })).items

const usersTab = async (page: number, host: HTMLElement, reload: () => void) => {
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

const groupsTab = async (page: number, host: HTMLElement, reload: () => void) => {
  const groups = await api.page<Group>("/auth/groups", { page, size: 25 })
  const create = h("button", { class: "btn btn-primary", "data-testid": "new-group" }, "New group")
  create.addEventListener("click", () =>
    act(create, async () => {
      const name = input({ required: true, maxlength: "200" })
      const description = h("textarea", { rows: 3, maxlength: "2000" })
      const done = await formDialog({
        title: "New group",
        body: [
          field("Name", name, "unique in the tenant; tasks name it as a candidate group"),
          field("Description", description, "optional")
        ],
        confirm: "Create group",
        submit: async () => {
          const text = description.value.trim()
          await api.post("/auth/groups", { name: name.value.trim(), ...(text === "" ? {} : { description: text }) })
        }
      })
      if (!done) return
      toast(`Group ${name.value.trim()} created`, "success")
      reload()
    }))
  replace(
    host,
    h("div", { class: "card-head" }, h("h2", null, "Groups"), h("div", { class: "actions" }, create)),
    table<Group>(
      [
        { title: "Name", cell: (group) => h("strong", null, group.name) },
        { title: "Description", cell: (group) => group.description ?? h("span", { class: "muted" }, "—") },
        { title: "Members", class: "num", cell: (group) => String(group.memberCount) },
        { title: "Created", cell: (group) => when(group.createdAt) }
      ],
      groups.items,
      {
        testId: "groups",
        empty: "No groups yet.",
        onRow: (group) => (location.hash = `#/admin/groups/${group.id}`)
      }
    ),
    pager(groups, (next) => go("/admin/groups", { page: next }))
  )
}

const groupTab = async (groupId: string, host: HTMLElement, reload: () => void) => {
  const [groups, members] = await Promise.all([
    allGroups(),
    api.page<GroupMember>(`/auth/groups/${groupId}/members`, { size: 500 })
  ])
  const group = groups.find((candidate) => candidate.id === groupId)
  const add = h("button", { class: "btn btn-primary", "data-testid": "add-member" }, "Add member")
  add.addEventListener("click", () =>
    act(add, async () => {
      const inGroup = new Set(members.items.map((member) => member.userId))
      const candidates = (await allUsers()).filter((user) => !inGroup.has(user.id))
      const select = h(
        "select",
        { required: true, "aria-label": "User" },
        h("option", { value: "" }, candidates.length === 0 ? "Every user is a member already" : "Choose a user…"),
        candidates.map((user) => h("option", { value: user.id }, user.username))
      )
      const done = await formDialog({
        title: `Add a member to ${group?.name ?? "the group"}`,
        body: [field("User", select, "a user of this tenant")],
        confirm: "Add member",
        submit: () => api.post(`/auth/groups/${groupId}/members`, { userId: select.value })
      })
      if (!done) return
      toast(`${select.selectedOptions[0]?.textContent ?? "User"} added`, "success")
      reload()
    }))
  const remove = (member: GroupMember) => {
    const button = h("button", { class: "btn btn-small btn-danger" }, "Remove")
    button.addEventListener("click", () =>
      act(button, async () => {
        const confirmed = await confirmDialog({
          title: `Remove ${member.username}?`,
          body: `${member.username} leaves ${
            group?.name ?? "the group"
          }: tasks for the group are no longer theirs to pick.`,
          confirm: "Remove",
          danger: true
        })
        if (!confirmed) return
        await api.delete(`/auth/groups/${groupId}/members/${member.userId}`)
        toast(`${member.username} removed`, "success")
        reload()
      }))
    return button
  }
  replace(
    host,
    h(
      "div",
      { class: "card-head" },
      h(
        "div",
        null,
        h("div", { class: "muted crumb" }, link("#/admin/groups", "Groups"), " / "),
        h("h2", null, group?.name ?? groupId)
      ),
      h("div", { class: "actions" }, add)
    ),
    group?.description == null ? null : h("div", { class: "card-body muted" }, group.description),
    table<GroupMember>(
      [
        { title: "Member", cell: (member) => h("strong", null, member.username) },
        { title: "Added", cell: (member) => when(member.addedAt) },
        { title: "", class: "row-actions", cell: (member) => remove(member) }
      ],
      members.items,
      { testId: "members", empty: "No members yet." }
    )
  )
}

const invitationsTab = async (page: number, host: HTMLElement, reload: () => void) => {
  const invitations = await api.page<Invitation>("/invitations", { page, size: 25 })
  const invite = h("button", { class: "btn btn-primary", "data-testid": "new-invitation" }, "Invite…")
  invite.addEventListener("click", () =>
    act(invite, async () => {
      const email = input({ type: "email", required: true })
      const roles = checkboxes("roles", ROLES, ["TASK_USER"])
      const hours = input({ type: "number", min: "1", max: String(24 * 365), value: "168" })
      let created: (Invitation & { readonly token: string }) | undefined
      const done = await formDialog({
        title: "Invite someone",
        body: [
          field("Email", email),
          field("Roles", roles.element),
          field("Valid for (hours)", hours, "1 hour to a year; a week by default")
        ],
        confirm: "Create invitation",
        submit: async () => {
          created = await api.post(`/invitations`, {
            email: email.value.trim(),
            roles: roles.read(),
            ...(hours.value === "" ? {} : { expiresInHours: Number(hours.value) })
          })
        }
      })
      if (!done || created === undefined) return
      reload()
      // The token is shown once (the API answers it only now): the person accepts with it.
      const acceptLink = `${location.origin}${location.pathname}#/accept?token=${encodeURIComponent(created.token)}`
      await confirmDialog({
        title: "Invitation created",
        body: [
          h(
            "p",
            null,
            `Send this link to ${created.email}; it is shown only now. They choose a username and password.`
          ),
          h("pre", { class: "preview", "data-testid": "invitation-link" }, acceptLink),
          h("button", {
            class: "btn btn-small copy-link",
            type: "button",
            onClick: (event: MouseEvent) => {
              const button = event.currentTarget as HTMLButtonElement
              void navigator.clipboard?.writeText(acceptLink).then(
                () => (button.textContent = "Copied"),
                () => (button.textContent = "Copy it by hand: the browser refused")
              )
            }
          }, "Copy link")
        ],
        confirm: "Done",
        cancel: false
      })
    }))
  const revoke = (invitation: Invitation) => {
    const button = h("button", { class: "btn btn-small btn-danger" }, "Revoke")
    button.addEventListener("click", () =>
      act(button, async () => {
        const confirmed = await confirmDialog({
          title: "Revoke the invitation?",
          body: `${invitation.email} can no longer accept it.`,
          confirm: "Revoke",
          danger: true
        })
        if (!confirmed) return
        await api.delete(`/invitations/${invitation.id}`)
        toast("Invitation revoked", "success")
        reload()
      }))
    return button
  }
  replace(
    host,
    h("div", { class: "card-head" }, h("h2", null, "Outstanding invitations"), h("div", { class: "actions" }, invite)),
    table<Invitation>(
      [
        { title: "Email", cell: (invitation) => h("strong", null, invitation.email) },
        { title: "Roles", cell: (invitation) => roleBadges(invitation.roles) },
        { title: "State", cell: (invitation) => badge(invitation.state, "warning") },
        { title: "Invited by", cell: (invitation) => invitation.invitedBy },
        { title: "Expires", cell: (invitation) => when(invitation.expiresAt) },
        { title: "", class: "row-actions", cell: (invitation) => revoke(invitation) }
      ],
      invitations.items,
      { testId: "invitations", empty: "No outstanding invitations." }
    ),
    pager(invitations, (next) => go("/admin/invitations", { page: next }))
  )
}

const authorizationsTab = async (page: number, host: HTMLElement, reload: () => void) => {
  const [grants, users, groups] = await Promise.all([
    api.page<ResourceAuthorization>("/auth/authorizations", { page, size: 25 }),
    allUsers(),
    allGroups()
  ])
  const userName = new Map(users.map((user) => [user.id, user.username]))
  const groupName = new Map(groups.map((group) => [group.id, group.name]))
  const grant = h("button", { class: "btn btn-primary", "data-testid": "new-authorization" }, "Grant…")
  grant.addEventListener("click", () =>
    act(grant, async () => {
      const resourceType = h(
        "select",
        { "aria-label": "Resource type" },
        RESOURCE_TYPES.map((type) => h("option", { value: type }, type.replaceAll("_", " ").toLowerCase()))
      )
      const resourceId = input({ placeholder: "* (every resource of the type)" })
      const permissions = checkboxes("permissions", PERMISSIONS, ["READ"])
      const grantee = h(
        "select",
        { required: true, "aria-label": "Grantee" },
        h("option", { value: "" }, "Choose a user or group…"),
        h(
          "optgroup",
          { label: "Users" },
          users.map((user) => h("option", { value: `user:${user.id}` }, user.username))
        ),
        h(
          "optgroup",
          { label: "Groups" },
          groups.map((group) => h("option", { value: `group:${group.id}` }, group.name))
        )
      )
      const done = await formDialog({
        title: "Grant permissions",
        wide: true,
        body: [
          h("p", { class: "muted" }, "Once a resource has any grant, only ADMINs and its grantees may act on it."),
          h("div", { class: "field-row" }, field("Resource type", resourceType), field("Resource id", resourceId)),
          field("Permissions", permissions.element),
          field("Granted to", grantee)
        ],
        confirm: "Grant",
        submit: async () => {
          const [kind, id] = grantee.value.split(":")
          const resource = resourceId.value.trim()
          await api.post("/auth/authorizations", {
            resourceType: resourceType.value,
            permissions: permissions.read(),
            ...(resource === "" ? {} : { resourceId: resource }),
            ...(kind === "user" ? { userId: id } : kind === "group" ? { groupId: id } : {})
          })
        }
      })
      if (!done) return
      toast("Permissions granted", "success")
      reload()
    }))
  const revoke = (authorization: ResourceAuthorization) => {
    const button = h("button", { class: "btn btn-small btn-danger" }, "Revoke")
    button.addEventListener("click", () =>
      act(button, async () => {
        const confirmed = await confirmDialog({
          title: "Revoke these permissions?",
          body: `${authorization.permissions.join(", ")} on ${authorization.resourceType} ${authorization.resourceId}.`,
          confirm: "Revoke",
          danger: true
        })
        if (!confirmed) return
        await api.delete(`/auth/authorizations/${authorization.id}`)
        toast("Permissions revoked", "success")
        reload()
      }))
    return button
  }
  const granteeOf = (authorization: ResourceAuthorization): Child =>
    authorization.userId !== null
      ? [
        h("span", { class: "muted" }, "user "),
        h("strong", null, userName.get(authorization.userId) ?? authorization.userId)
      ]
      : authorization.groupId !== null
      ? [
        h("span", { class: "muted" }, "group "),
        h("strong", null, groupName.get(authorization.groupId) ?? authorization.groupId)
      ]
      : "—"
  replace(
    host,
    h("div", { class: "card-head" }, h("h2", null, "Resource authorizations"), h("div", { class: "actions" }, grant)),
    table<ResourceAuthorization>(
      [
        {
          title: "Resource",
          cell: (authorization) => [
            badge(authorization.resourceType, "neutral"),
            " ",
            authorization.resourceId === "*"
              ? h("span", { class: "muted" }, "every one")
              : h("code", null, authorization.resourceId)
          ]
        },
        { title: "Permissions", cell: (authorization) => authorization.permissions.map((p) => badge(p, "info")) },
        { title: "Granted to", cell: granteeOf },
        { title: "Granted", cell: (authorization) => when(authorization.createdAt) },
        { title: "", class: "row-actions", cell: (authorization) => revoke(authorization) }
      ],
      grants.items,
      {
        testId: "authorizations",
        empty: "No grants: every caller acts by their roles alone."
      }
    ),
    pager(grants, (next) => go("/admin/authorizations", { page: next }))
  )
}

export const adminView: View = async ({ params, query, outlet, session, current }) => {
  if (!isAdmin(session)) {
    replace(outlet, h("div", { class: "card empty-state" }, "Administration is for admins only."))
    return
  }
  const tab = (TABS.find(([name]) => name === params[0])?.[0] ?? "users") as Tab
  const groupId = params[1]
  const page = Number(query.get("page") ?? "0") || 0
  const host = h("div", null, loading())
  replace(
    outlet,
    h(
      "div",
      { class: "page-head" },
      h(
        "div",
        null,
        h("h1", null, "Administration"),
        h("div", { class: "subtitle" }, "Who may sign in to this tenant, and what they may do")
      )
    ),
    h(
      "div",
      { class: "card" },
      h(
        "div",
        { class: "tabs", role: "tablist" },
        TABS.map(([name, label]) =>
          h("a", { class: name === tab ? "tab active" : "tab", href: `#/admin/${name}` }, label)
        )
      ),
      host
    )
  )
  const reload = () => void load()
  const load = async () => {
    const fresh = h("div", null)
    if (tab === "users") await usersTab(page, fresh, reload)
    else if (tab === "groups" && groupId !== undefined) await groupTab(groupId, fresh, reload)
    else if (tab === "groups") await groupsTab(page, fresh, reload)
    else if (tab === "invitations") await invitationsTab(page, fresh, reload)
    else await authorizationsTab(page, fresh, reload)
    if (current()) replace(host, fresh)
  }
  await load()
}
