// Decisions: every decision key with its latest version, its kind and hit policy; a DMN file can be imported here.
import { api, type Decision } from "../api.ts"
import { act, badge, h, link, loading, replace, table, toast, when } from "../dom.ts"
import { isOperator } from "../session.ts"
import type { View } from "../view.ts"

interface DecisionRow {
  readonly latest: Decision
  readonly versions: number
}

/** The API's DECISION_TABLE, LITERAL, ... and DMN's decisionTable, literalExpression, ... alike. */
const KINDS: Record<string, string> = {
  decisiontable: "Decision table",
  literal: "Literal expression",
  literalexpression: "Literal expression",
  context: "Boxed context",
  invocation: "Invocation",
  list: "List",
  relation: "Relation",
  conditional: "Conditional",
  iterator: "Iterator",
  for: "For loop",
  some: "Some",
  every: "Every",
  filter: "Filter",
  function: "Function",
  functiondefinition: "Function",
  none: "No expression"
}

export const kindLabel = (kind: string) => KINDS[kind.toLowerCase().replaceAll("_", "")] ?? kind

export const decisionsView: View = async ({ outlet, session, current }) => {
  const upload = h("input", { type: "file", accept: ".dmn,.xml,application/xml", hidden: true })
  const importButton = h("button", { class: "btn btn-primary", onClick: () => upload.click() }, "Import DMN file")
  upload.addEventListener("change", () =>
    act(importButton, async () => {
      const file = upload.files?.[0]
      if (file === undefined) return
      const model = await api.postXml<{ decisions: ReadonlyArray<Decision> }>("/decisions/import", await file.text())
      toast(`Imported ${model.decisions.length} decision${model.decisions.length === 1 ? "" : "s"}`, "success")
      const first = model.decisions[0]
      if (first !== undefined) location.hash = `#/decisions/${first.id}`
    }))
  const body = h("div", { class: "card" }, loading())
  replace(
    outlet,
    h(
      "div",
      { class: "page-head" },
      h(
        "div",
        null,
        h("h1", null, "Decisions"),
        h("div", { class: "subtitle" }, "Deployed DMN decisions: open one to see its table and evaluate it")
      ),
      isOperator(session) ? h("div", { class: "actions" }, upload, importButton) : null
    ),
    body
  )

  const decisions = await api.page<Decision>("/decisions", { size: 1000 })
  if (!current()) return
  const byKey = new Map<string, Array<Decision>>()
  for (const decision of decisions.items) byKey.set(decision.key, [...(byKey.get(decision.key) ?? []), decision])
  const rows: Array<DecisionRow> = [...byKey.values()].map((versions) => ({
    latest: versions.reduce((a, b) => (b.version > a.version ? b : a)),
    versions: versions.length
  })).sort((a, b) => (a.latest.name ?? a.latest.key).localeCompare(b.latest.name ?? b.latest.key))

  replace(
    body,
    table<DecisionRow>(
      [
        {
          title: "Decision",
          cell: (row) =>
            h(
              "div",
              null,
              link(`#/decisions/${row.latest.id}`, h("strong", null, row.latest.name ?? row.latest.key)),
              h("div", { class: "muted" }, row.latest.key)
            )
        },
        { title: "Kind", cell: (row) => kindLabel(row.latest.kind) },
        {
          title: "Hit policy",
          cell: (row) =>
            row.latest.hitPolicy === null
              ? h("span", { class: "muted" }, "—")
              : badge(row.latest.hitPolicy, "neutral")
        },
        {
          title: "Latest version",
          cell: (row) => `v${row.latest.version}${row.latest.versionTag ? ` (${row.latest.versionTag})` : ""}`
        },
        { title: "Versions", cell: (row) => row.versions, class: "num" },
        { title: "Source", cell: (row) => (row.latest.format === "DMN_XML" ? "DMN file" : "JSON table") },
        { title: "Deployed", cell: (row) => when(row.latest.createdAt) }
      ],
      rows,
      {
        empty: "No decision is deployed yet. Import a DMN file or deploy a table through the API.",
        onRow: (row) => (location.hash = `#/decisions/${row.latest.id}`),
        testId: "decisions"
      }
    )
  )
}
