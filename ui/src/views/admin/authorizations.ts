// The authorizations tab: resource authorizations granted to users and groups, and revoked.
import { api, type ResourceAuthorization } from "../../api.ts"
import {
  act,
  badge,
  type Child,
  confirmDialog,
  field,
  formDialog,
  h,
  pager,
  replace,
  table,
  toast,
  when
} from "../../dom.ts"
import { go } from "../../view.ts"
import { allGroups, allUsers, checkboxes, input, PERMISSIONS, RESOURCE_TYPES } from "./parts.ts"

export const authorizationsTab = async (page: number, host: HTMLElement, reload: () => void) => {
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
