// Processes: every process key with its latest version, how many instances run and how many have incidents; a BPMN
// file can be deployed from here.
import { api, type Deployment, inBatches, type ProcessInstance } from "../api.ts"
import { act, badge, h, link, loading, replace, table, toast, when } from "../dom.ts"
import type { View } from "../view.ts"

interface ProcessRow {
  readonly latest: Deployment
  readonly versions: number
  readonly active: HTMLElement
  readonly incidents: HTMLElement
}

const countOf = async (query: Record<string, string>) =>
  (await api.page<ProcessInstance>("/process-instances", { ...query, size: 1 })).totalItems

export const processesView: View = async ({ outlet, current }) => {
  const upload = h("input", { type: "file", accept: ".bpmn,.xml,application/xml", hidden: true })
  const deployButton = h("button", { class: "btn btn-primary", onClick: () => upload.click() }, "Deploy BPMN file")
  upload.addEventListener("change", () =>
    act(deployButton, async () => {
      const file = upload.files?.[0]
      if (file === undefined) return
      const deployed = await api.postXml<Deployment>("/deployments", await file.text())
      toast(`Deployed ${deployed.name ?? deployed.key} version ${deployed.version}`, "success")
      location.hash = `#/processes/${deployed.id}`
    }))
  const body = h("div", { class: "card" }, loading())
  replace(
    outlet,
    h(
      "div",
      { class: "page-head" },
      h("div", null, h("h1", null, "Processes"), h("div", { class: "subtitle" }, "Deployed process definitions")),
      h("div", { class: "actions" }, upload, deployButton)
    ),
    body
  )

  const deployments = await api.page<Deployment>("/deployments", { size: 1000 })
  if (!current()) return
  const byKey = new Map<string, Array<Deployment>>()
  for (const deployment of deployments.items) {
    byKey.set(deployment.key, [...(byKey.get(deployment.key) ?? []), deployment])
  }
  const rows: Array<ProcessRow> = [...byKey.values()].map((versions) => ({
    latest: versions.reduce((a, b) => (b.version > a.version ? b : a)),
    versions: versions.length,
    active: h("span", { class: "muted" }, "…"),
    incidents: h("span", { class: "muted" }, "…")
  })).sort((a, b) => (a.latest.name ?? a.latest.key).localeCompare(b.latest.name ?? b.latest.key))

  replace(
    body,
    table<ProcessRow>(
      [
        {
          title: "Process",
          cell: (row) =>
            h(
              "div",
              null,
              link(`#/processes/${row.latest.id}`, h("strong", null, row.latest.name ?? row.latest.key)),
              h("div", { class: "muted" }, row.latest.key)
            )
        },
        {
          title: "Latest version",
          cell: (row) => `v${row.latest.version}${row.latest.versionTag === null ? "" : ` (${row.latest.versionTag})`}`
        },
        { title: "Versions", cell: (row) => row.versions, class: "num" },
        { title: "Running", cell: (row) => row.active, class: "num" },
        { title: "With incidents", cell: (row) => row.incidents, class: "num" },
        { title: "State", cell: (row) => badge(row.latest.state) },
        { title: "Deployed", cell: (row) => when(row.latest.createdAt) }
      ],
      rows,
      {
        empty: "No process is deployed yet. Deploy a BPMN file to begin.",
        onRow: (row) => (location.hash = `#/processes/${row.latest.id}`),
        testId: "processes"
      }
    )
  )
  // Instance counts per process, filled in as they arrive.
  await inBatches(rows, 6, async (row) => {
    const [active, incidents] = await Promise.all([
      countOf({ processKey: row.latest.key, state: "ACTIVE" }),
      countOf({ processKey: row.latest.key, hasIncident: "true" })
    ])
    replace(row.active, link(`#/instances?process=${encodeURIComponent(row.latest.key)}&state=ACTIVE`, String(active)))
    replace(
      row.incidents,
      incidents === 0 ? h("span", { class: "muted" }, "0") : badge(String(incidents), "danger")
    )
  })
}
