// Instances: a paged list, newest first, filtered by process, version, state, "has an incident", the days they
// started between and one variable (its name, and a value: JSON, else text); the filters live in the URL (#/instances?process=…&state=…&from=…&page=…) so a filtered list can
// be linked and reloaded.
import { api, type Deployment, type ProcessInstance } from "../api.ts"
import { badge, h, link, loading, pager, replace, shortId, table, when } from "../dom.ts"
import { go, type View } from "../view.ts"

const STATES = ["ACTIVE", "SUSPENDED", "COMPLETED", "CANCELED"] as const

export const instancesView: View = async ({ outlet, query, current }) => {
  const filter = {
    process: query.get("process") ?? "",
    deployment: query.get("deployment") ?? "",
    state: query.get("state") ?? "",
    incidents: query.get("incidents") ?? "",
    from: query.get("from") ?? "",
    to: query.get("to") ?? "",
    variable: query.get("variable") ?? "",
    value: query.get("value") ?? "",
    page: Number(query.get("page") ?? "0") || 0
  }
  const apply = (changes: Partial<typeof filter>) => {
    const next = { ...filter, page: 0, ...changes }
    go("/instances", { ...next, page: next.page === 0 ? undefined : next.page })
  }
  const body = h("div", null, loading())
  /** A day picked in the person's time zone, as the instant it starts (`to` is inclusive: the next day's start). */
  const dayStart = (day: string, plusDays = 0) => {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined
    const [year, month, date] = day.split("-").map(Number) as [number, number, number]
    return new Date(year, month - 1, date + plusDays).toISOString()
  }
  const dayInput = (label: string, name: "from" | "to") =>
    h("input", {
      type: "date",
      "aria-label": label,
      value: filter[name],
      onChange: (e: Event) => apply({ [name]: (e.target as HTMLInputElement).value })
    })
  const variableName = h("input", {
    type: "text",
    "aria-label": "Variable name",
    placeholder: "variable",
    size: 12,
    value: filter.variable
  }) as HTMLInputElement
  const variableValue = h("input", {
    type: "text",
    "aria-label": "Variable value",
    placeholder: "any value",
    size: 12,
    value: filter.value,
    title: "JSON (\"open\", 42, true, {\"tier\":\"gold\"}), else taken as text"
  }) as HTMLInputElement
  // Both fields apply together (Enter or the button), read as they are then.
  const variableForm = h(
    "form",
    {
      class: "inline-filter",
      onSubmit: (e: Event) => {
        e.preventDefault()
        apply({ variable: variableName.value.trim(), value: variableValue.value })
      }
    },
    h("label", null, "Variable", variableName),
    h("label", null, "=", variableValue),
    h("button", { type: "submit", class: "btn" }, "Filter")
  )
  const processSelect = h(
    "select",
    {
      "aria-label": "Process",
      onChange: (e: Event) => apply({ process: (e.target as HTMLSelectElement).value, deployment: "" })
    },
    h("option", { value: "" }, "All processes")
  )
  replace(
    outlet,
    h(
      "div",
      { class: "page-head" },
      h("div", null, h("h1", null, "Instances"), h("div", { class: "subtitle" }, "Process instances, newest first"))
    ),
    h(
      "div",
      { class: "card" },
      h(
        "div",
        { class: "filters", "data-testid": "instance-filters" },
        h("label", null, "Process", processSelect),
        h(
          "label",
          null,
          "State",
          h(
            "select",
            { "aria-label": "State", onChange: (e: Event) => apply({ state: (e.target as HTMLSelectElement).value }) },
            h("option", { value: "" }, "Any state"),
            STATES.map((state) =>
              h(
                "option",
                { value: state, selected: filter.state === state },
                state.charAt(0) + state.slice(1).toLowerCase()
              )
            )
          )
        ),
        h(
          "label",
          { class: "check" },
          h("input", {
            type: "checkbox",
            checked: filter.incidents === "true",
            onChange: (e: Event) => apply({ incidents: (e.target as HTMLInputElement).checked ? "true" : "" })
          }),
          "With open incidents"
        ),
        h("label", null, "Started from", dayInput("Started from", "from")),
        h("label", null, "to", dayInput("Started to", "to")),
        variableForm,
        filter.deployment === ""
          ? null
          : h(
            "span",
            { class: "badge badge-info" },
            "one version ",
            h("a", { href: "#", onClick: (e: Event) => (e.preventDefault(), apply({ deployment: "" })) }, "×")
          )
      ),
      body
    )
  )

  const [deployments, instances] = await Promise.all([
    api.page<Deployment>("/deployments", { size: 1000 }),
    api.page<ProcessInstance>("/process-instances", {
      processKey: filter.process,
      deploymentId: filter.deployment,
      state: filter.state,
      hasIncident: filter.incidents === "true" ? "true" : undefined,
      startedAfter: dayStart(filter.from),
      startedBefore: dayStart(filter.to, 1),
      variableName: filter.variable === "" ? undefined : filter.variable,
      variableValue: filter.variable === "" || filter.value === "" ? undefined : filter.value,
      page: filter.page,
      size: 20
    })
  ])
  if (!current()) return
  const names = new Map(deployments.items.map((deployment) => [deployment.key, deployment.name ?? deployment.key]))
  for (const key of [...names.keys()].sort()) {
    processSelect.append(h("option", { value: key, selected: key === filter.process }, names.get(key) ?? key))
  }
  replace(
    body,
    table<ProcessInstance>(
      [
        { title: "Instance", cell: (instance) => link(`#/instances/${instance.id}`, shortId(instance.id)) },
        {
          title: "Process",
          cell: (
            instance
          ) => [
            names.get(instance.processKey) ?? instance.processKey,
            h("span", { class: "muted" }, ` v${instance.version}`)
          ]
        },
        {
          title: "State",
          cell: (instance) => [
            badge(instance.state),
            instance.incidentCount > 0
              ? badge(`${instance.incidentCount} incident${instance.incidentCount > 1 ? "s" : ""}`, "danger")
              : null
          ]
        },
        { title: "Started by", cell: (instance) => instance.startedBy },
        { title: "Started", cell: (instance) => when(instance.startedAt) },
        { title: "Ended", cell: (instance) => when(instance.endedAt) }
      ],
      instances.items,
      {
        empty: "No instance matches these filters.",
        onRow: (instance) => (location.hash = `#/instances/${instance.id}`),
        testId: "instances"
      }
    ),
    pager(instances, (page) => apply({ ...filter, page }))
  )
}
