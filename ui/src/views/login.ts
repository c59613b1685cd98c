// Sign-in with the service's own users (POST /auth/login); the token goes to sessionStorage.
import { api } from "../api.ts"
import { h, replace } from "../dom.ts"
import { saveSession } from "../session.ts"

export const loginView = () => {
  const error = h("div", { class: "login-error", role: "alert" })
  const username = h("input", { name: "username", autocomplete: "username", required: true, autofocus: true })
  const password = h("input", { name: "password", type: "password", autocomplete: "current-password", required: true })
  const submit = h("button", { class: "btn btn-primary btn-block", type: "submit" }, "Sign in")
  const form = h(
    "form",
    {
      class: "login-card",
      onSubmit: async (event: SubmitEvent) => {
        event.preventDefault()
        submit.disabled = true
        replace(error)
        try {
          const result = await api.login(username.value.trim(), password.value)
          saveSession({
            token: result.token,
            username: result.username,
            tenantId: result.tenantId,
            roles: result.roles,
            expiresAt: result.expiresAt
          })
          location.hash = "#/"
        } catch (failure) {
          replace(error, failure instanceof Error ? failure.message : String(failure))
          password.select()
        } finally {
          submit.disabled = false
        }
      }
    },
    h("div", { class: "login-brand" }, h("span", { class: "brand-mark" }), "flowcore"),
    h("h1", null, "Sign in"),
    h("p", { class: "muted" }, "Cockpit and tasklist of your workflow engine."),
    h("label", null, "Username", username),
    h("label", null, "Password", password),
    error,
    submit
  )
  return h("div", { class: "login-page" }, form)
}
