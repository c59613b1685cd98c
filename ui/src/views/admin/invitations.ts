// The invitations tab: invitations created (with their one-time link) and revoked.
import { api, type Invitation } from "../../api.ts"
import { act, badge, confirmDialog, field, formDialog, h, pager, replace, table, toast, when } from "../../dom.ts"
import { go } from "../../view.ts"
import { checkboxes, input, roleBadges, ROLES } from "./parts.ts"

export const invitationsTab = async (page: number, host: HTMLElement, reload: () => void) => {
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
