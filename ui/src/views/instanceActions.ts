// The operator's actions on one instance, each behind a dialog that says what it does: edit, add or remove a variable
// in a scope; move a token to another element; and the incident recoveries beyond retry and skip (restart from an
// element, roll the variables back to a history event, edit variables and retry).
import {
  api,
  type DeploymentNode,
  type HistoryEvent,
  type Incident,
  type InstanceSnapshot,
  type InstanceToken,
  type InstanceVariables,
  type ScopedVariable
} from "../api.ts"
import {
  act,
  badge,
  type Child,
  confirmDialog,
  field,
  formDialog,
  h,
  json,
  parseJson,
  replace,
  shortId,
  table,
  toast
} from "../dom.ts"

/** A variable scope of the instance: its root (the instance id) or a running embedded subprocess. */
export interface Scope {
  readonly scopeId: string
  readonly nodeId: string | null
  readonly variables: Record<string, unknown>
}

export interface InstanceActions {
  readonly instanceId: string
  readonly nodes: ReadonlyArray<DeploymentNode>
  /** Each element's container (the process or a subprocess): a token moves within its own. */
  readonly containers: ReadonlyMap<string, string>
  /** The root variables' version, sent as expectedVersion so an edit never overwrites someone else's. */
  readonly rootVersion: number
  /** Operator on a running instance: the actions are offered. */
  readonly canAct: boolean
  readonly nodeName: (nodeId: string | null) => Child
  readonly reload: () => Promise<void>
}

/** The running subprocess scopes, from the history's ScopeOpened / ScopeClosed events. */
export const openScopes = (history: ReadonlyArray<HistoryEvent>) => {
  const open = new Map<string, string | null>()
  for (const event of history) {
    const scopeId = event.data["scopeId"]
    if (typeof scopeId !== "string") continue
    if (event.type === "ScopeOpened") open.set(scopeId, event.nodeId)
    else if (event.type === "ScopeClosed") open.delete(scopeId)
  }
  return [...open].map(([scopeId, nodeId]) => ({ scopeId, nodeId }))
}

/** The variables set in each subprocess scope itself (GET /scopes/{id}/variables also lists the inherited ones). */
export const scopeVariables = async (scopeId: string): Promise<Record<string, unknown>> =>
  Object.fromEntries(
    (await api.get<ReadonlyArray<ScopedVariable>>(`/scopes/${scopeId}/variables`))
      .filter((variable) => variable.scopeId === scopeId)
      .map((variable) => [variable.name, variable.value])
  )

const jsonArea = (value: string, rows = 6) => h("textarea", { rows, spellcheck: "false" }, value)

/** The elements a token at `nodeId` can go to: those of the same container (all when the XML does not say). */
const targetOptions = (context: InstanceActions, nodeId: string, except?: string) => {
  const container = context.containers.get(nodeId)
  return context.nodes
    .filter((node) => node.id !== except && (container === undefined || context.containers.get(node.id) === container))
    .map((node) => h("option", { value: node.id }, `${node.name ?? node.id} (${node.type})`))
}

/** Which container (process or subprocess) holds each element of a BPMN document. */
export const containersOf = (xml: string, nodes: ReadonlyArray<DeploymentNode>): ReadonlyMap<string, string> => {
  const document = new DOMParser().parseFromString(xml, "application/xml")
  const ids = new Set(nodes.map((node) => node.id))
  const containers = new Map<string, string>()
  for (const element of document.getElementsByTagNameNS("*", "*")) {
    const id = element.getAttribute("id")
    const parent = element.parentElement?.getAttribute("id")
    if (id !== null && ids.has(id) && parent !== null && parent !== undefined) containers.set(id, parent)
  }
  return containers
}

const button = (label: string, run: (self: HTMLButtonElement) => Promise<void>, tone = "btn btn-small") => {
  const self = h("button", { class: tone }, label)
  self.addEventListener("click", () => act(self, () => run(self)))
  return self
}

// Variables -----------------------------------------------------------------------------------------------------

const editVariable = async (context: InstanceActions, scope: Scope, name: string | undefined) => {
  const adding = name === undefined
  const nameInput = h("input", { type: "text", required: true, autocomplete: "off" })
  const value = jsonArea(adding ? "" : json(scope.variables[name]))
  const root = scope.scopeId === context.instanceId
  const done = await formDialog({
    title: adding ? "Add a variable" : `Edit variable ${name}`,
    body: [
      h(
        "p",
        null,
        root ? "In the instance's root scope" : ["In the scope of ", context.nodeName(scope.nodeId)],
        adding ? "." : "; the next steps see the new value."
      ),
      adding ? field("Name", nameInput) : null,
      field("Value (JSON)", value, "a JSON value: \"text\", 42, true, {\"a\": 1}, [1, 2], null")
    ],
    confirm: adding ? "Add variable" : "Save",
    submit: async () => {
      const target = adding ? nameInput.value.trim() : name
      if (target === "") throw new Error("Give the variable a name")
      const parsed = parseJson("The value", value.value)
      if (root) {
        await api.put<InstanceVariables>(`/process-instances/${context.instanceId}/variables`, {
          variables: { [target]: parsed },
          expectedVersion: context.rootVersion
        })
      } else {
        await api.put(`/scopes/${scope.scopeId}/variables/${encodeURIComponent(target)}`, { value: parsed })
      }
    }
  })
  if (!done) return
  toast(adding ? "Variable added" : `Variable ${name} saved`, "success")
  await context.reload()
}

const removeVariable = async (context: InstanceActions, scope: Scope, name: string) => {
  const confirmed = await confirmDialog({
    title: `Remove variable ${name}?`,
    body: h("p", null, "The next steps no longer see it (or see an outer scope's variable of that name)."),
    confirm: "Remove",
    danger: true
  })
  if (!confirmed) return
  await api.delete(`/scopes/${scope.scopeId}/variables/${encodeURIComponent(name)}`)
  toast(`Variable ${name} removed`, "success")
  await context.reload()
}

/** The Variables tab: a table per scope, with edit / remove per variable and add per scope. */
export const variablesPanel = (context: InstanceActions, scopes: ReadonlyArray<Scope>) =>
  h(
    "div",
    { "data-testid": "variables" },
    scopes.map((scope) => {
      const root = scope.scopeId === context.instanceId
      return h(
        "section",
        { class: "scope", "data-scope": scope.scopeId },
        h(
          "div",
          { class: "scope-head" },
          h(
            "div",
            null,
            h("strong", null, root ? "Process instance" : context.nodeName(scope.nodeId)),
            h("span", { class: "muted" }, root ? " · root scope" : " · subprocess scope "),
            root ? null : shortId(scope.scopeId)
          ),
          context.canAct ? button("Add variable", () => editVariable(context, scope, undefined)) : null
        ),
        table<[string, unknown]>(
          [
            { title: "Name", cell: ([name]) => h("code", null, name), class: "col-var-name" },
            { title: "Value", cell: ([, value]) => h("pre", null, json(value)) },
            {
              title: "",
              class: "row-actions",
              cell: ([name]) =>
                context.canAct
                  ? h(
                    "div",
                    { class: "actions" },
                    button("Edit", () => editVariable(context, scope, name)),
                    button("Remove", () => removeVariable(context, scope, name), "btn btn-small btn-danger")
                  )
                  : null
            }
          ],
          Object.entries(scope.variables).sort(([a], [b]) => a.localeCompare(b)),
          { empty: "No variables in this scope." }
        )
      )
    })
  )

// Tokens --------------------------------------------------------------------------------------------------------

const moveToken = async (context: InstanceActions, token: InstanceToken) => {
  const target = h("select", { required: true }, targetOptions(context, token.nodeId, token.nodeId))
  const variables = jsonArea("", 3)
  const done = await formDialog({
    title: "Move this token?",
    body: [
      h(
        "p",
        null,
        "What the token waits on at ",
        h("strong", null, context.nodeName(token.nodeId)),
        " (its job, task, subscriptions or incident) is withdrawn, and the target element is activated. It must be in the same scope."
      ),
      field("Move to", target),
      field("Variables (JSON, optional)", variables, "set in the token's scope before the target runs")
    ],
    confirm: "Move token",
    danger: true,
    submit: async () => {
      const extra = variables.value.trim() === "" ? undefined : parseJson("Variables", variables.value)
      await api.post(`/process-instances/${context.instanceId}/move-token`, {
        sourceNodeId: token.nodeId,
        targetNodeId: target.value,
        tokenId: token.tokenId,
        ...(extra === undefined ? {} : { variables: extra })
      })
    }
  })
  if (!done) return
  toast("Token moved", "success")
  await context.reload()
}

/** The Tokens tab: where the instance waits, and a move per token. */
export const tokensPanel = (context: InstanceActions, tokens: ReadonlyArray<InstanceToken>) =>
  table<InstanceToken>(
    [
      { title: "Step", cell: (token) => context.nodeName(token.nodeId) },
      {
        title: "Waiting for",
        cell: (token) => (token.waitingFor === null ? h("span", { class: "muted" }, "—") : badge(token.waitingFor))
      },
      { title: "Token", cell: (token) => shortId(token.tokenId) },
      {
        title: "",
        class: "row-actions",
        cell: (token) => (context.canAct ? button("Move…", () => moveToken(context, token)) : null)
      }
    ],
    tokens,
    { empty: "No active tokens.", testId: "tokens" }
  )

// Incident recovery ----------------------------------------------------------------------------------------------

const recovered = async (context: InstanceActions, message: string) => {
  toast(message, "success")
  await context.reload()
}

const restartFromNode = async (context: InstanceActions, incident: Incident) => {
  const target = h("select", { required: true }, targetOptions(context, incident.nodeId))
  target.value = incident.nodeId
  const done = await formDialog({
    title: "Restart from another element?",
    body: [
      h(
        "p",
        null,
        "The failed step is abandoned and the instance continues at the chosen element of the same scope, keeping its variables."
      ),
      field("Restart at", target)
    ],
    confirm: "Restart",
    danger: true,
    submit: () => api.post(`/incidents/${incident.id}/restart-from-node`, { nodeId: target.value })
  })
  if (done) await recovered(context, "Instance restarted")
}

const rollback = async (context: InstanceActions, incident: Incident, history: ReadonlyArray<HistoryEvent>) => {
  const events = [...history].reverse()
  const labelOf = (nodeId: string) => context.nodes.find((node) => node.id === nodeId)?.name ?? nodeId
  const select = h(
    "select",
    { required: true },
    events.map((event) =>
      h(
        "option",
        { value: event.eventSeq },
        `#${event.eventSeq} ${event.type}${event.nodeId === null ? "" : ` at ${labelOf(event.nodeId)}`} · ${
          new Date(event.occurredAt).toLocaleString()
        }`
      )
    )
  )
  const preview = h("pre", { class: "preview" }, "…")
  const show = async () => {
    replace(preview, "…")
    try {
      const snapshot = await api.get<InstanceSnapshot>(
        `/process-instances/${incident.processInstanceId}/history/${select.value}/snapshot`
      )
      replace(preview, json(snapshot.variables))
    } catch (error) {
      replace(preview, error instanceof Error ? error.message : String(error))
    }
  }
  select.addEventListener("change", () => void show())
  void show()
  const done = await formDialog({
    title: "Roll back the variables and retry?",
    body: [
      h(
        "p",
        null,
        "The instance's variables are restored to what they were after the chosen event; then the failed step runs again."
      ),
      field("Restore the variables as of", select),
      field("Variables then", preview)
    ],
    confirm: "Roll back and retry",
    danger: true,
    wide: true,
    submit: () => api.post(`/incidents/${incident.id}/rollback`, { eventSeq: Number(select.value) })
  })
  if (done) await recovered(context, "Variables rolled back; the step runs again")
}

const editAndRetry = async (context: InstanceActions, incident: Incident, variables: Record<string, unknown>) => {
  const area = jsonArea(json(variables), 10)
  const done = await formDialog({
    title: "Edit variables and retry?",
    body: [
      h("p", null, "Correct the variables the failed step reads; the changed ones are saved and the step runs again."),
      h("p", { class: "muted" }, incident.message),
      field("Variables (JSON object)", area, "only entries you change or add are sent")
    ],
    confirm: "Save and retry",
    wide: true,
    submit: async () => {
      const edited = parseJson("The variables", area.value)
      if (typeof edited !== "object" || edited === null || Array.isArray(edited)) {
        throw new Error("The variables must be a JSON object")
      }
      const changed = Object.fromEntries(
        Object.entries(edited).filter(([name, value]) => json(variables[name]) !== json(value) || !(name in variables))
      )
      await api.post(`/incidents/${incident.id}/edit-variables-and-retry`, { variables: changed })
    }
  })
  if (done) await recovered(context, "Variables saved; the step runs again")
}

// An open menu closes on a click elsewhere or on Escape.
const closeMenus = (keep?: EventTarget | null) => {
  for (const menu of document.querySelectorAll<HTMLDetailsElement>("details.menu[open]")) {
    if (!(keep instanceof Node && menu.contains(keep))) menu.open = false
  }
}
document.addEventListener("click", (event) => closeMenus(event.target))
document.addEventListener("keydown", (event) => {
  if (event.key === "Escape") closeMenus()
})

/** "More" beside retry and skip: the other recoveries, in a small menu. */
export const moreRecoveries = (
  context: InstanceActions,
  incident: Incident,
  history: ReadonlyArray<HistoryEvent>,
  variables: Record<string, unknown>
) => {
  const menu = h("details", { class: "menu" })
  const item = (label: string, run: () => Promise<void>) =>
    h("button", {
      class: "menu-item",
      type: "button",
      onClick: () => {
        menu.open = false
        void act(null, run)
      }
    }, label)
  menu.append(
    h("summary", { class: "btn btn-small", "aria-label": "More recoveries" }, "More ▾"),
    h(
      "div",
      { class: "menu-items", role: "menu" },
      item("Edit variables and retry…", () => editAndRetry(context, incident, variables)),
      item("Restart from element…", () => restartFromNode(context, incident)),
      item("Roll back variables…", () => rollback(context, incident, history))
    )
  )
  return menu
}
