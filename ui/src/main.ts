// The web UI: a cockpit (processes, instances, decisions) and a tasklist over the public REST API, routed by the URL's hash.
import "./styles.css"
import { errorBox, h, replace } from "./dom.ts"
import { finishOidcSignIn } from "./oidc.ts"
import { clearSession, currentSession, isAdmin, isOperator } from "./session.ts"
import type { View } from "./view.ts"
import { acceptView } from "./views/accept.ts"
import { adminView } from "./views/admin.ts"
import { decisionView } from "./views/decision.ts"
import { decisionsView } from "./views/decisions.ts"
import { instanceView } from "./views/instance.ts"
import { instancesView } from "./views/instances.ts"
import { loginView } from "./views/login.ts"
import { migrateView } from "./views/migrate.ts"
import { processView } from "./views/process.ts"
import { processesView } from "./views/processes.ts"
import { tasksView } from "./views/tasks.ts"

interface Route {
  readonly pattern: RegExp
  readonly view: View
  readonly nav?: string
}

const routes: ReadonlyArray<Route> = [
  { pattern: /^\/processes$/, view: processesView, nav: "processes" },
  { pattern: /^\/processes\/([\w-]+)$/, view: processView, nav: "processes" },
  { pattern: /^\/instances$/, view: instancesView, nav: "instances" },
  { pattern: /^\/instances\/([\w-]+)$/, view: instanceView, nav: "instances" },
  { pattern: /^\/decisions$/, view: decisionsView, nav: "decisions" },
  { pattern: /^\/decisions\/([^/]+)$/, view: decisionView, nav: "decisions" },
  { pattern: /^\/tasks$/, view: tasksView, nav: "tasks" },
  { pattern: /^\/tasks\/([\w-]+)$/, view: tasksView, nav: "tasks" },
  { pattern: /^\/migrate$/, view: migrateView, nav: "instances" },
  { pattern: /^\/admin(?:\/(users|groups|invitations|authorizations))?(?:\/([\w-]+))?$/, view: adminView, nav: "admin" }
]

const root = document.getElementById("app")!
let leaving: Array<() => void> = []
let generation = 0

const header = (active: string | undefined) => {
  const session = currentSession()!
  const item = (name: string, label: string) =>
    h("a", {
      href: `#/${name}`,
      class: active === name ? "nav-item active" : "nav-item",
      // Clicking the screen one is on reloads it.
      onClick: (event: MouseEvent) => {
        if (location.hash === `#/${name}`) {
          event.preventDefault()
          void render()
        }
      }
    }, label)
  return h(
    "header",
    { class: "topbar" },
    h("a", { class: "brand", href: "#/" }, h("span", { class: "brand-mark" }), "flowcore"),
    h(
      "nav",
      { class: "nav" },
      isOperator(session)
        ? [item("processes", "Processes"), item("instances", "Instances"), item("decisions", "Decisions")]
        : null,
      item("tasks", "Tasks"),
      isAdmin(session) ? item("admin", "Admin") : null
    ),
    h(
      "div",
      { class: "user" },
      h("span", { class: "user-name", title: `tenant ${session.tenantId}` }, session.username),
      h("span", { class: "muted" }, session.roles.join(", ").toLowerCase().replaceAll("_", " ")),
      h("button", {
        class: "btn btn-small btn-ghost",
        "data-testid": "sign-out",
        onClick: () => {
          clearSession()
          document.getElementById("toasts")?.replaceChildren() // the notices were for the person leaving
          location.hash = "#/login"
        }
      }, "Sign out")
    )
  )
}

const render = async () => {
  for (const leave of leaving) leave()
  leaving = []
  const mine = ++generation
  const hash = location.hash.replace(/^#/, "") || "/"
  const [path = "/", search = ""] = hash.split("?")
  const session = currentSession()
  if (path === "/accept") {
    replace(root, acceptView(new URLSearchParams(search)))
    return
  }
  if (path === "/login" || session === undefined) {
    if (path !== "/login") {
      location.hash = "#/login"
      return
    }
    replace(root, loginView())
    return
  }
  if (path === "/" || path === "/login") {
    location.hash = isOperator(session) ? "#/processes" : "#/tasks"
    return
  }
  const route = routes.find((candidate) => candidate.pattern.test(path))
  const outlet = h("main", { class: "content" })
  replace(root, header(route?.nav), outlet)
  if (route === undefined) {
    replace(outlet, h("div", { class: "empty-state" }, h("h1", null, "Not found"), h("a", { href: "#/" }, "Home")))
    return
  }
  try {
    await route.view({
      params: route.pattern.exec(path)!.slice(1),
      query: new URLSearchParams(search),
      outlet,
      session,
      current: () => mine === generation,
      onLeave: (leave) => leaving.push(leave)
    })
  } catch (error) {
    if (mine === generation) replace(outlet, errorBox(error))
  }
}

window.addEventListener("hashchange", () => void render())
// Back from an OIDC provider (authorization code in the query): trade the code for a token, then route as usual.
void finishOidcSignIn().then(() => render())
