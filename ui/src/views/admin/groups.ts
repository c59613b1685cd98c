// The groups tab: the tenant's groups, creating one, and a group's members added and removed.
import { api, type Group, type GroupMember } from "../../api.ts"
import { act, confirmDialog, field, formDialog, h, link, pager, replace, table, toast, when } from "../../dom.ts"
import { go } from "../../view.ts"
import { allGroups, allUsers, input } from "./parts.ts"

export const groupsTab = async (page: number, host: HTMLElement, reload: () => void) => {
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

export const groupTab = async (groupId: string, host: HTMLElement, reload: () => void) => {
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
