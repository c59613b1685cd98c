// One process version: its diagram with, on each element, how many running instances wait there and how many have an
// open incident there; its versions; starting an instance.
//
// The API has no per-element statistics endpoint, so the counts are gathered from the instances of this version:
// their tokens (GET /process-instances/{id}/tokens) and the open incidents. Up to SAMPLE running instances are read;
// beyond that the legend says the counts are partial.
import {
  api,
  type Deployment,
  type DeploymentDetail,
  inBatches,
  type Incident,
  type InstanceToken,
  type ProcessInstance
} from "../api.ts"
import { drawDiagram, type ElementCounts } from "../diagram.ts"
import { act, badge, h, link, loading, replace, shortId, table, toast, when } from "../dom.ts"
import { isOperator } from "../session.ts"
import type { View } from "../view.ts"

const SAMPLE = 200

const elementCounts = async (deploymentId: string) => {
  const [running, withIncidents] = await Promise.all([
    api.page<ProcessInstance>("/process-instances", { deploymentId, state: "ACTIVE", size: SAMPLE }),
    api.page<ProcessInstance>("/process-instances", { deploymentId, hasIncident: "true", size: 1000 })
  ])
  const incidentInstances = new Set(withIncidents.items.map((instance) => instance.id))
  const incidents = incidentInstances.size === 0
    ? []
    : (await api.page<Incident>("/incidents", { state: "OPEN", size: 1000 })).items.filter((incident) =>
      incidentInstances.has(incident.processInstanceId)
    )
  const failedAt = new Set(incidents.map((incident) => `${incident.processInstanceId}/${incident.nodeId}`))
  const tokens = await inBatches(
    running.items,
    8,
    async (instance) =>
      (await api.get<ReadonlyArray<InstanceToken>>(`/process-instances/${instance.id}/tokens`)).map((token) => ({
        instanceId: instance.id,
        token
      }))
  )
  const counts = new Map<string, { active: number; incidents: number }>()
  const entry = (nodeId: string) => {
    let found = counts.get(nodeId)
    if (found === undefined) counts.set(nodeId, found = { active: 0, incidents: 0 })
    return found
  }
  for (const { instanceId, token } of tokens.flat()) {
    if (token.waitingFor !== "INCIDENT" && !failedAt.has(`${instanceId}/${token.nodeId}`)) entry(token.nodeId).active++
  }
  for (const incident of incidents) entry(incident.nodeId).incidents++
  return {
    counts: counts as ReadonlyMap<string, ElementCounts>,
    running: running.totalItems,
    sampled: running.items.length
  }
}

const startDialog = (deployment: Deployment): Promise<ProcessInstance | undefined> =>
  new Promise((resolve) => {
    const variables = h("textarea", { rows: 8, "aria-label": "Variables (JSON)" }, "{\n  \n}")
    const error = h("div", { class: "login-error" })
    const dialog = h("dialog", { class: "dialog" })
    const close = (instance: ProcessInstance | undefined) => {
      dialog.close()
      dialog.remove()
      resolve(instance)
    }
    const start = h("button", { class: "btn btn-primary" }, "Start")
    start.addEventListener("click", () =>
      act(start, async () => {
        let parsed: unknown
        try {
          parsed = JSON.parse(variables.value.trim() === "" ? "{}" : variables.value)
        } catch (failure) {
          replace(error, `Variables are not JSON: ${failure instanceof Error ? failure.message : String(failure)}`)
          return
        }
        close(await api.post<ProcessInstance>("/process-instances", { deploymentId: deployment.id, variables: parsed }))
      }))
    dialog.append(
      h("h2", null, `Start ${deployment.name ?? deployment.key} v${deployment.version}`),
      h("div", { class: "dialog-body" }, h("label", null, "Variables (JSON object)", variables), error),
      h(
        "div",
        { class: "dialog-actions" },
        h("button", { class: "btn", onClick: () => close(undefined) }, "Cancel"),
        start
      )
    )
    dialog.addEventListener("cancel", () => close(undefined))
    document.body.appendChild(dialog)
    dialog.showModal()
  })

export const processView: View = async ({ params, outlet, session, current, onLeave }) => {
  replace(outlet, loading())
  const deployment = await api.get<DeploymentDetail>(`/deployments/${params[0]}`)
  const [versions, recent] = await Promise.all([
    api.page<Deployment>("/deployments", { key: deployment.key, size: 100 }),
    api.page<ProcessInstance>("/process-instances", { deploymentId: deployment.id, size: 10 })
  ])
  if (!current()) return
  const diagram = await drawDiagram(deployment.bpmnXml)
  onLeave(diagram.destroy)
  if (!current()) return

  const versionSelect = h(
    "select",
    {
      "aria-label": "Version",
      onChange: (event: Event) => (location.hash = `#/processes/${(event.target as HTMLSelectElement).value}`)
    },
    [...versions.items].sort((a, b) => b.version - a.version).map((version) =>
      h("option", { value: version.id, selected: version.id === deployment.id }, `Version ${version.version}`)
    )
  )
  const startButton = h(
    "button",
    { class: "btn btn-primary", disabled: deployment.state !== "ACTIVE" },
    "Start instance"
  )
  startButton.addEventListener("click", () =>
    act(startButton, async () => {
      const instance = await startDialog(deployment)
      if (instance === undefined) return
      toast("Instance started", "success")
      location.hash = `#/instances/${instance.id}`
    }))
  const legend = h("div", { class: "legend", "data-testid": "legend" }, "Counting instances…")
  replace(
    outlet,
    h(
      "div",
      { class: "page-head" },
      h(
        "div",
        null,
        h("div", { class: "title-row" }, h("h1", null, deployment.name ?? deployment.key), badge(deployment.state)),
        h(
          "div",
          { class: "subtitle" },
          `${deployment.key} · deployed by ${deployment.createdBy} `,
          when(deployment.createdAt)
        )
      ),
      h(
        "div",
        { class: "actions" },
        versionSelect,
        isOperator(session) && versions.items.length > 1
          ? h("a", { class: "btn", href: `#/migrate?from=${deployment.id}` }, "Migrate instances…")
          : null,
        isOperator(session) ? startButton : null
      )
    ),
    h("div", { class: "card diagram-card" }, h("div", { class: "card-body" }, diagram.element, legend)),
    h(
      "div",
      { class: "card" },
      h(
        "div",
        { class: "card-head" },
        h("h2", null, "Latest instances of this version"),
        link(`#/instances?deployment=${deployment.id}`, "All instances →")
      ),
      table<ProcessInstance>(
        [
          { title: "Instance", cell: (instance) => shortId(instance.id) },
          {
            title: "State",
            cell: (instance) => [badge(instance.state), instance.incidentCount > 0 ? badge("INCIDENT") : null]
          },
          { title: "Started by", cell: (instance) => instance.startedBy },
          { title: "Started", cell: (instance) => when(instance.startedAt) },
          { title: "Ended", cell: (instance) => when(instance.endedAt) }
        ],
        recent.items,
        {
          empty: "No instance of this version yet.",
          onRow: (instance) => (location.hash = `#/instances/${instance.id}`)
        }
      )
    )
  )
  const { counts, running, sampled } = await elementCounts(deployment.id)
  if (!current()) return
  diagram.showCounts(counts)
  replace(
    legend,
    h("span", { class: "count count-active" }, "n"),
    "running instances waiting at the element",
    h("span", { class: "count count-incident" }, "n"),
    "open incidents",
    h(
      "span",
      { style: "margin-left:auto" },
      sampled < running ? `counted over the ${sampled} newest of ${running} running instances` : `${running} running`
    )
  )
}
