// Sign-in with the service's own users (POST /auth/login), or with a token of the OIDC provider the service trusts
// (GET /auth/config says whether): "Sign in with <provider>" by authorization code + PKCE when the configuration names
// a client id, else pasting a bearer token the provider issued. The token goes to sessionStorage.
import { api, type AuthConfig } from "../api.ts"
import { h, replace } from "../dom.ts"
import { authConfig, providerName, signInWithToken, startOidcSignIn, takeOidcError } from "../oidc.ts"
import { saveSession } from "../session.ts"

const oidcPart = (config: AuthConfig, error: HTMLElement) => {
  const provider = providerName(config)
  const token = h("textarea", {
    rows: 4,
    "aria-label": `Token from ${provider}`,
    placeholder: "eyJhbGciOi…",
    spellcheck: "false"
  })
  const use = h("button", { class: "btn btn-block", type: "button" }, "Use this token")
  use.addEventListener("click", async () => {
    use.disabled = true
    replace(error)
    try {
      await signInWithToken(token.value)
      location.hash = "#/"
    } catch (failure) {
      replace(error, failure instanceof Error ? failure.message : String(failure))
    } finally {
      use.disabled = false
    }
  })
  const redirect = config.oidc.clientId == null
    ? null
    : h("button", {
      class: "btn btn-primary btn-block",
      type: "button",
      onClick: async () => {
        replace(error)
        try {
          await startOidcSignIn(config)
        } catch (failure) {
          replace(error, failure instanceof Error ? failure.message : String(failure))
        }
      }
    }, `Sign in with ${provider}`)
  return h(
    "div",
    { class: "login-oidc", "data-testid": "oidc-sign-in" },
    config.password.enabled ? h("div", { class: "login-divider" }, h("span", null, "or")) : null,
    redirect,
    h(
      "details",
      { class: "login-token", open: redirect === null && !config.password.enabled },
      h("summary", null, `Use a token from ${provider}`),
      h(
        "p",
        { class: "muted" },
        "A bearer token (JWT) your identity provider issued for this service, with the claims tenantId and roles."
      ),
      token,
      use
    )
  )
}

export const loginView = () => {
  const error = h("div", { class: "login-error", role: "alert" }, takeOidcError() ?? "")
  const username = h("input", { name: "username", autocomplete: "username", required: true, autofocus: true })
  const password = h("input", { name: "password", type: "password", autocomplete: "current-password", required: true })
  const submit = h("button", { class: "btn btn-primary btn-block", type: "submit" }, "Sign in")
  const passwordPart = h(
    "div",
    { class: "login-password" },
    h("label", null, "Username", username),
    h("label", null, "Password", password),
    submit
  )
  const others = h("div", null)
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
            expiresAt: result.expiresAt,
            source: "password"
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
    passwordPart,
    error,
    others
  )
  // What the service offers (public): hide the password form when it is off, offer the provider when it is on.
  void authConfig().then((config) => {
    if (!config.password.enabled) passwordPart.remove()
    if (config.oidc.enabled) replace(others, oidcPart(config, error))
  }).catch(() => undefined)
  return h("div", { class: "login-page" }, form)
}
