// One instance: its diagram with where its tokens wait (blue) and where it failed (red); its incidents, tokens,
// variables per scope, jobs, tasks and history. Operators cancel, suspend / resume, edit variables, move tokens and
// recover incidents (retry, skip, and in instanceActions.ts the others), each after a confirmation.
import {
  api,
  type DeploymentDetail,
  type DeploymentNode,
  type HistoryEvent,
  inBatches,
  type Incident,
  type InstanceToken,
  type InstanceVariables,
  type Job,
  type ProcessInstance,
  type UserTask
} from "../api.ts"
import { type Diagram, drawDiagram, type ElementCounts } from "../diagram.ts"
import {
  act,
  badge,
  type Child,
  confirmDialog,
  h,
  link,
  loading,
  replace,
  shortId,
  table,
  toast,
  when
} from "../dom.ts"
import { isOperator } from "../session.ts"
import type { View, ViewContext } from "../view.ts"
import {
  containersOf,
  type InstanceActions,
  moreRecoveries,
  openScopes,
  type Scope,
  scopeVariables,
  tokensPanel,
  variablesPanel
} from "./instanceActions.ts"

const DONE: Record<string, string> = { cancel: "canceled", suspend: "suspended", resume: "resumed" }

const fact = (label: string, value: Child) => h("div", { class: "fact" }, h("dt", null, label), h("dd", null, value))

/** Tabs that remember the chosen one (`selected.name`) across reloads of the screen. */
const tabs = (
  selected: { name: string },
  entries: ReadonlyArray<
    { readonly name: string; readonly count?: number; readonly alert?: boolean; readonly body: () => Child }
  >
) => {
  const panel = h("div", { class: "tab-panel" })
  const buttons = entries.map((entry, index) =>
    h(
      "button",
      { class: index === 0 ? "tab active" : "tab", role: "tab", onClick: () => select(index) },
      entry.name,
      entry.count === undefined
        ? null
        : h("span", { class: entry.alert === true ? "tab-count alert" : "tab-count" }, String(entry.count))
    )
  )
  const select = (index: number) => {
    buttons.forEach((button, i) => button.classList.toggle("active", i === index))
    selected.name = entries[index]!.name
    replace(panel, entries[index]!.body())
  }
  select(Math.max(0, entries.findIndex((entry) => entry.name === selected.name)))
  return h("div", { class: "card" }, h("div", { class: "tabs", role: "tablist" }, buttons), panel)
}

export const instanceView: View = async (context: ViewContext) => {
  const { params, outlet, session, current, onLeave } = context
  const id = params[0]!
  let diagram: Diagram | undefined
  const selectedTab = { name: "Incidents" }
  onLeave(() => diagram?.destroy())
  replace(outlet, loading())

  const load = async (): Promise<void> => {
    const instance = await api.get<ProcessInstance>(`/process-instances/${id}`)
    const [deployment, nodes, tokens, incidents, jobs, tasks, variables, history] = await Promise.all([
      api.get<DeploymentDetail>(`/deployments/${instance.deploymentId}`),
      api.get<ReadonlyArray<DeploymentNode>>(`/deployments/${instance.deploymentId}/nodes`),
      api.get<ReadonlyArray<InstanceToken>>(`/process-instances/${id}/tokens`),
      api.page<Incident>("/incidents", { processInstanceId: id, size: 100 }),
      api.page<Job>("/jobs", { processInstanceId: id, size: 100 }),
      api.page<UserTask>("/tasks", { processInstanceId: id, size: 100 }),
      api.get<InstanceVariables>(`/process-instances/${id}/variables`),
      api.page<HistoryEvent>(`/process-instances/${id}/history`, { size: 1000 })
    ])
    const scopes: ReadonlyArray<Scope> = [
      { scopeId: id, nodeId: null, variables: variables.variables },
      // A multi-instance subprocess opens a scope per instance: read them a few at a time.
      ...await inBatches(
        openScopes(history.items),
        6,
        async (scope) => ({ ...scope, variables: await scopeVariables(scope.scopeId) })
      )
    ]
    if (!current()) return
    const nodeName = (nodeId: string | null) => {
      if (nodeId === null) return h("span", { class: "muted" }, "—")
      const node = nodes.find((candidate) => candidate.id === nodeId)
      return h("span", { title: `${node?.type ?? "node"} ${nodeId}` }, node?.name ?? nodeId)
    }
    const next = await drawDiagram(deployment.bpmnXml)
    if (!current()) return next.destroy()
    diagram?.destroy()
    diagram = next
    const open = incidents.items.filter((incident) => incident.state === "OPEN")
    const failed = new Set(open.map((incident) => incident.nodeId))
    const counts = new Map<string, { active: number; incidents: number }>()
    for (const token of tokens) {
      if (failed.has(token.nodeId)) continue
      const entry = counts.get(token.nodeId) ?? { active: 0, incidents: 0 }
      counts.set(token.nodeId, { ...entry, active: entry.active + 1 })
    }
    for (const incident of open) {
      const entry = counts.get(incident.nodeId) ?? { active: 0, incidents: 0 }
      counts.set(incident.nodeId, { ...entry, incidents: entry.incidents + 1 })
    }
    diagram.showCounts(counts as ReadonlyMap<string, ElementCounts>)
    diagram.mark(tokens.map((token) => token.nodeId).filter((nodeId) => !failed.has(nodeId)), "marker-active")
    diagram.mark(failed, "marker-incident")
    // The path taken so far: every element the history names that holds no token now.
    const waiting = new Set([...tokens.map((token) => token.nodeId), ...failed])
    diagram.mark(
      new Set(
        history.items.flatMap((event) => (event.nodeId === null || waiting.has(event.nodeId) ? [] : [event.nodeId]))
      ),
      "marker-visited"
    )

    const operator = isOperator(session)
    const running = instance.state === "ACTIVE" || instance.state === "SUSPENDED"
    const actions: InstanceActions = {
      instanceId: id,
      nodes,
      containers: containersOf(deployment.bpmnXml, nodes),
      rootVersion: variables.version,
      canAct: operator && running,
      nodeName,
      reload: load
    }
    const command = (label: string, path: string, question: string, danger = false) => {
      const button = h("button", { class: danger ? "btn btn-danger" : "btn" }, label)
      button.addEventListener("click", () =>
        act(button, async () => {
          if (!(await confirmDialog({ title: `${label} this instance?`, body: question, confirm: label, danger }))) {
            return
          }
          await api.post(`/process-instances/${id}/${path}`)
          toast(`Instance ${DONE[path]}`, "success")
          await load()
        }))
      return button
    }
    const incidentAction = (incident: Incident, action: "retry" | "skip-node", label: string) => {
      const button = h("button", { class: action === "retry" ? "btn btn-small btn-primary" : "btn btn-small" }, label)
      button.addEventListener("click", () =>
        act(button, async () => {
          const confirmed = await confirmDialog({
            title: action === "retry" ? "Retry the failed step?" : "Skip the failed step?",
            body: [
              h(
                "p",
                null,
                action === "retry"
                  ? "The failed step runs again (a failed job gets one more retry) and the incident is resolved."
                  : "The instance continues after the failed step without running it; its job is canceled."
              ),
              h("p", { class: "muted" }, incident.message)
            ],
            confirm: label,
            danger: action !== "retry"
          })
          if (!confirmed) return
          await api.post(`/incidents/${incident.id}/${action}`)
          toast(action === "retry" ? "Incident retried" : "Step skipped", "success")
          await load()
        }))
      return button
    }

    replace(
      outlet,
      h(
        "div",
        { class: "page-head" },
        h(
          "div",
          null,
          h(
            "div",
            { class: "title-row" },
            h("h1", null, deployment.name ?? deployment.key),
            h("span", { class: "muted" }, `v${instance.version}`),
            h("span", { "data-testid": "instance-state" }, badge(instance.state)),
            open.length > 0 ? badge(`${open.length} incident${open.length > 1 ? "s" : ""}`, "danger") : null
          ),
          h("div", { class: "subtitle" }, "Instance ", h("code", null, instance.id))
        ),
        operator && running
          ? h(
            "div",
            { class: "actions" },
            instance.state === "ACTIVE"
              ? command("Suspend", "suspend", "It stops at its current steps until it is resumed.")
              : command("Resume", "resume", "It continues from where it was suspended."),
            h("a", { class: "btn", href: `#/migrate?instance=${id}` }, "Migrate…"),
            command("Cancel", "cancel", "Its jobs, tasks and subscriptions are withdrawn. This cannot be undone.", true)
          )
          : null
      ),
      h(
        "div",
        { class: "card" },
        h(
          "dl",
          { class: "card-body facts" },
          fact("Process version", link(`#/processes/${deployment.id}`, `${deployment.key} v${deployment.version}`)),
          fact("Started by", instance.startedBy),
          fact("Started", when(instance.startedAt)),
          fact("Ended", when(instance.endedAt)),
          instance.parentInstanceId === null
            ? null
            : fact(
              "Parent instance",
              link(`#/instances/${instance.parentInstanceId}`, shortId(instance.parentInstanceId))
            )
        )
      ),
      h("div", { class: "card diagram-card" }, h("div", { class: "card-body" }, diagram.element)),
      tabs(selectedTab, [
        {
          name: "Incidents",
          count: open.length,
          alert: open.length > 0,
          body: () =>
            table<Incident>(
              [
                { title: "Step", cell: (incident) => nodeName(incident.nodeId) },
                { title: "Type", cell: (incident) => h("code", null, incident.type) },
                { title: "Message", cell: (incident) => incident.message },
                { title: "State", cell: (incident) => badge(incident.state) },
                { title: "Raised", cell: (incident) => when(incident.createdAt) },
                {
                  title: "",
                  cell: (incident) =>
                    incident.state === "OPEN" && operator
                      ? h(
                        "div",
                        { class: "actions" },
                        incidentAction(incident, "retry", "Retry"),
                        incidentAction(incident, "skip-node", "Skip"),
                        moreRecoveries(actions, incident, history.items, variables.variables)
                      )
                      : null
                }
              ],
              incidents.items,
              { empty: "No incidents.", testId: "incidents" }
            )
        },
        { name: "Tokens", count: tokens.length, body: () => tokensPanel(actions, tokens) },
        {
          name: "Variables",
          count: scopes.reduce((sum, scope) => sum + Object.keys(scope.variables).length, 0),
          body: () => variablesPanel(actions, scopes)
        },
        {
          name: "Jobs",
          count: jobs.totalItems,
          body: () =>
            table<Job>(
              [
                { title: "Step", cell: (job) => nodeName(job.nodeId) },
                { title: "Type", cell: (job) => h("code", null, job.type) },
                { title: "State", cell: (job) => badge(job.state) },
                { title: "Retries", cell: (job) => job.retries, class: "num" },
                { title: "Worker", cell: (job) => job.worker ?? h("span", { class: "muted" }, "—") },
                { title: "Error", cell: (job) => job.errorMessage ?? "" },
                { title: "Created", cell: (job) => when(job.createdAt) }
              ],
              jobs.items,
              { empty: "No jobs." }
            )
        },
        {
          name: "Tasks",
          count: tasks.totalItems,
          body: () =>
            table<UserTask>(
              [
                {
                  title: "Task",
                  cell: (task) =>
                    link(`#/tasks/${task.id}?view=all&instance=${task.processInstanceId}`, task.name ?? task.nodeId)
                },
                { title: "State", cell: (task) => badge(task.state) },
                { title: "Assignee", cell: (task) => task.assignee ?? h("span", { class: "muted" }, "unassigned") },
                { title: "Created", cell: (task) => when(task.createdAt) },
                { title: "Completed", cell: (task) => when(task.completedAt) }
              ],
              tasks.items,
              { empty: "No tasks." }
            )
        },
        {
          name: "History",
          count: history.totalItems,
          body: () =>
            table<HistoryEvent>(
              [
                { title: "#", cell: (event) => event.eventSeq, class: "num" },
                { title: "Event", cell: (event) => h("code", null, event.type) },
                { title: "Step", cell: (event) => nodeName(event.nodeId) },
                { title: "By", cell: (event) => event.sub ?? "" },
                { title: "At", cell: (event) => when(event.occurredAt) }
              ],
              history.items,
              { empty: "No history." }
            )
        }
      ])
    )
  }
  await load()
}
