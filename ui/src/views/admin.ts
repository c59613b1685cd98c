// Administration (ADMIN only, as the API): users, groups and their members, invitations, resource authorizations.
// One screen with a tab per kind (#/admin/users, #/admin/groups, #/admin/groups/<id>, #/admin/invitations,
// #/admin/authorizations). What the API allows is offered: users and groups are created (the API edits and deletes
// neither), members added and removed, invitations created and revoked, authorizations granted and revoked.
import { h, loading, replace } from "../dom.ts"
import { isAdmin } from "../session.ts"
import type { View } from "../view.ts"
import { authorizationsTab } from "./admin/authorizations.ts"
import { groupsTab, groupTab } from "./admin/groups.ts"
import { invitationsTab } from "./admin/invitations.ts"
import { usersTab } from "./admin/users.ts"

const TABS = [["users", "Users"], ["groups", "Groups"], ["invitations", "Invitations"], [
  "authorizations",
  "Authorizations"
]] as const
type Tab = (typeof TABS)[number][0]

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
