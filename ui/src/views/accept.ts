// Accepting an invitation (the link an admin sends: #/accept?token=…): choose a username and password; the API
// creates the user in the inviting tenant with the invited roles (POST /invitations/accept, no bearer token needed).
import { api } from "../api.ts"
import { h, replace } from "../dom.ts"

export const acceptView = (query: URLSearchParams) => {
  const token = query.get("token") ?? ""
  const error = h("div", { class: "login-error", role: "alert" })
  const username = h("input", { name: "username", autocomplete: "username", required: true, autofocus: true })
  const password = h("input", {
    name: "password",
    type: "password",
    autocomplete: "new-password",
    required: true,
    minlength: "8"
  })
  const submit = h("button", { class: "btn btn-primary btn-block", type: "submit" }, "Create my account")
  const form = h(
    "form",
    {
      class: "login-card",
      onSubmit: async (event: SubmitEvent) => {
        event.preventDefault()
        submit.disabled = true
        replace(error)
        try {
          await api.anonymousPost("/invitations/accept", {
            token,
            username: username.value.trim(),
            password: password.value
          })
          replace(
            form,
            h("div", { class: "login-brand" }, h("span", { class: "brand-mark" }), "flowcore"),
            h("h1", null, "Welcome"),
            h("p", null, "Your account is ready."),
            h("a", { class: "btn btn-primary btn-block", href: "#/login" }, "Sign in")
          )
        } catch (failure) {
          replace(error, failure instanceof Error ? failure.message : String(failure))
        } finally {
          submit.disabled = false
        }
      }
    },
    h("div", { class: "login-brand" }, h("span", { class: "brand-mark" }), "flowcore"),
    h("h1", null, "Accept your invitation"),
    h("p", { class: "muted" }, "Choose the username and password you will sign in with."),
    token === "" ? h("div", { class: "alert alert-danger" }, "This link carries no invitation token.") : null,
    h("label", null, "Username", username),
    h("label", null, "Password (8 characters or more)", password),
    error,
    submit
  )
  return h("div", { class: "login-page" }, form)
}
