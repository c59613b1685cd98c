// Migration of running instances to another version of their process: #/migrate?instance=<id> (one instance) or
// #/migrate?from=<deploymentId> (the running instances of a version, chosen by checkbox), &to=<deploymentId>.
// The person picks the target version, maps elements (each element is mapped to the target's element with the same
// id and type, editable; only elements of the same type are offered), and sees the plan checked in the browser: where
// the chosen instances wait and whether each such element is mapped. The API has no dry run: migrating checks every
// instance up front and refuses as a whole (400 listing each problem), which the screen shows as a list. Migrating
// asks for a confirmation; many instances can go as a batch operation (MIGRATE), whose progress is shown.
import {
  api,
  type BatchOperation,
  type Deployment,
  type DeploymentNode,
  inBatches,
  type InstanceToken,
  type MigrationResult,
  type ProcessInstance
} from "../api.ts"
import { act, badge, confirmDialog, h, link, loading, replace, shortId, toast, when } from "../dom.ts"
import { isOperator } from "../session.ts"
import { go, type View } from "../view.ts"
import { showBatchProgress } from "./migrate/batchProgress.ts"
import {
  type MigrationPlan,
  nodeLabel,
  planMappings,
  planProblems,
  planSummary,
  waitingCounts
} from "./migrate/plan.ts"
import { partialFailure, problemBox } from "./migrate/refusal.ts"

/** At most this many instances in one call (the API's limit for POST /process-instances/migrate). */
const MAX_DIRECT = 1000

const running = async (deploymentId: string) => {
  const [active, suspended] = await Promise.all(
    (["ACTIVE", "SUSPENDED"] as const).map((state) =>
      api.page<ProcessInstance>("/process-instances", { deploymentId, state, size: 200 })
    )
  )
  return { items: [...active!.items, ...suspended!.items], total: active!.totalItems + suspended!.totalItems }
}

export const migrateView: View = async ({ query, outlet, session, current, onLeave }) => {
  replace(outlet, loading())
  if (!isOperator(session)) {
    replace(outlet, h("div", { class: "card empty-state" }, "Migrating instances is for admins and process owners."))
    return
  }
  const instanceId = query.get("instance")
  const single = instanceId === null ? undefined : await api.get<ProcessInstance>(`/process-instances/${instanceId}`)
  const sourceId = single?.deploymentId ?? query.get("from")
  if (sourceId === null || sourceId === undefined) throw new Error("Open migration from an instance or a version")
  const source = await api.get<Deployment>(`/deployments/${sourceId}`)
  const [versions, sourceNodes, listed] = await Promise.all([
    api.page<Deployment>("/deployments", { key: source.key, size: 100 }),
    api.get<ReadonlyArray<DeploymentNode>>(`/deployments/${source.id}/nodes`),
    single === undefined ? running(source.id) : Promise.resolve({ items: [single], total: 1 })
  ])
  const candidates = listed.items
  /** Running instances of the version beyond the listed ones (a batch by filter reaches them too). */
  const unlisted = listed.total - candidates.length
  const others = [...versions.items].filter((version) => version.id !== source.id).sort((a, b) => b.version - a.version)
  if (!current()) return
  const back = single === undefined ? `#/processes/${source.id}` : `#/instances/${single.id}`
  const head = h(
    "div",
    { class: "page-head" },
    h(
      "div",
      null,
      h("div", { class: "title-row" }, h("h1", null, "Migrate instances")),
      h(
        "div",
        { class: "subtitle" },
        `${source.name ?? source.key} · from version ${source.version} · `,
        link(back, single === undefined ? "back to the version" : "back to the instance")
      )
    )
  )
  if (others.length === 0) {
    replace(
      outlet,
      head,
      h("div", { class: "card empty-state" }, `${source.key} has only this version: deploy another to migrate to.`)
    )
    return
  }
  const target = others.find((version) => version.id === query.get("to")) ?? others[0]!
  const targetNodes = await api.get<ReadonlyArray<DeploymentNode>>(`/deployments/${target.id}/nodes`)
  // Where each instance waits (its tokens), to know which elements must be mapped.
  const tokensOf = new Map<string, ReadonlyArray<InstanceToken>>(
    await inBatches(
      candidates,
      8,
      async (instance) =>
        [instance.id, await api.get<ReadonlyArray<InstanceToken>>(`/process-instances/${instance.id}/tokens`)] as const
    )
  )
  if (!current()) return

  const selected = new Set(candidates.map((instance) => instance.id))
  const targetById = new Map(targetNodes.map((node) => [node.id, node]))
  const mapping = new Map<string, string>()
  for (const node of sourceNodes) {
    const same = targetById.get(node.id)
    if (same !== undefined && same.type === node.type) mapping.set(node.id, node.id)
  }

  const versionSelect = h(
    "select",
    {
      "aria-label": "Target version",
      onChange: (event: Event) =>
        go("/migrate", {
          ...(single === undefined ? { from: source.id } : { instance: single.id }),
          to: (event.target as HTMLSelectElement).value
        })
    },
    others.map((version) =>
      h(
        "option",
        { value: version.id, selected: version.id === target.id },
        `Version ${version.version}${version.versionTag === null ? "" : ` (${version.versionTag})`}`
      )
    )
  )
  const plan = h("div", { class: "card-body", "data-testid": "migration-plan" })
  const outcome = h("div", null)
  const asBatch = h("input", { type: "checkbox", "aria-label": "Run as a batch operation" })
  const everyRunning = h("input", {
    type: "checkbox",
    "aria-label": "Every running instance of the version",
    onChange: () => {
      if (everyRunning.checked) asBatch.checked = true
    }
  })
  const migrate = h("button", { class: "btn btn-primary", "data-testid": "migrate" }, "Migrate…")

  const migrationPlan: MigrationPlan = { selected, tokensOf, sourceNodes, mapping, targetById }
  const drawPlan = () => {
    replace(plan, planSummary(migrationPlan, source.version, target.version))
    migrate.disabled = selected.size === 0
    asBatch.disabled = selected.size === 0
  }

  const counts = waitingCounts(migrationPlan)
  const mappingRows = [...sourceNodes]
    .filter((node) => !/^(sequenceFlow|process)$/.test(node.type))
    .sort((a, b) => (counts.get(b.id) ?? 0) - (counts.get(a.id) ?? 0))
    .map((node) => {
      const options = targetNodes.filter((candidate) => candidate.type === node.type)
      const select = h(
        "select",
        {
          "aria-label": `Target of ${node.id}`,
          "data-node": node.id,
          onChange: (event: Event) => {
            const value = (event.target as HTMLSelectElement).value
            if (value === "") mapping.delete(node.id)
            else mapping.set(node.id, value)
            replace(outcome) // a refusal was about the previous mapping
            drawPlan()
          }
        },
        h("option", { value: "" }, options.length === 0 ? `— no ${node.type} in the target —` : "— not mapped —"),
        options.map((candidate) =>
          h(
            "option",
            { value: candidate.id, selected: mapping.get(node.id) === candidate.id },
            `${candidate.name ?? candidate.id}${candidate.name === null ? "" : ` (${candidate.id})`}`
          )
        )
      )
      const here = counts.get(node.id) ?? 0
      return h(
        "tr",
        { class: here > 0 ? "waiting" : null },
        h("td", null, nodeLabel(node)),
        h(
          "td",
          { class: "num" },
          here > 0 ? h("span", { class: "count count-active" }, String(here)) : h("span", { class: "muted" }, "—")
        ),
        h("td", { class: "arrow" }, "→"),
        h("td", null, select)
      )
    })

  const instanceRows = candidates.map((instance) => {
    const box = h("input", {
      type: "checkbox",
      checked: true,
      "aria-label": `Migrate ${instance.id}`,
      disabled: single !== undefined,
      onChange: (event: Event) => {
        if ((event.target as HTMLInputElement).checked) selected.add(instance.id)
        else selected.delete(instance.id)
        replace(outcome)
        drawPlan()
      }
    })
    return h(
      "tr",
      null,
      h("td", { class: "row-check" }, box),
      h("td", null, link(`#/instances/${instance.id}`, shortId(instance.id))),
      h("td", null, badge(instance.state), instance.incidentCount > 0 ? badge("INCIDENT") : null),
      h(
        "td",
        { class: "muted" },
        [...new Set((tokensOf.get(instance.id) ?? []).map((token) => token.nodeId))]
          .map((nodeId) => sourceNodes.find((node) => node.id === nodeId)?.name ?? nodeId).join(", ") || "—"
      ),
      h("td", null, when(instance.startedAt))
    )
  })

  migrate.addEventListener("click", () =>
    act(migrate, async () => {
      const ids = [...selected]
      const found = planProblems(migrationPlan)
      const all = everyRunning.checked
      const batch = all || asBatch.checked || ids.length > MAX_DIRECT
      const count = all ? listed.total : ids.length
      const confirmed = await confirmDialog({
        title: `Migrate ${count} instance${count === 1 ? "" : "s"} to version ${target.version}?`,
        body: [
          h(
            "p",
            null,
            "Each instance moves atomically: its jobs, tasks, subscriptions and incidents follow its tokens. ",
            "It cannot be moved back except by another migration."
          ),
          batch
            ? h("p", null, "It runs as a batch operation: instances are migrated one by one, each reported.")
            : null,
          all
            ? h(
              "p",
              null,
              `Every running instance of version ${source.version}, ${unlisted} of them not listed here: `,
              "the plan was checked on the listed ones only."
            )
            : null,
          found.length === 0
            ? null
            : h(
              "p",
              { class: "text-danger" },
              `The check found ${found.length} problem${found.length === 1 ? "" : "s"}: the service will refuse.`
            )
        ],
        confirm: "Migrate"
      })
      if (!confirmed) return
      replace(outcome)
      const body = { targetDeploymentId: target.id, mappings: planMappings(migrationPlan), mapEqualNodes: false }
      try {
        if (batch) {
          const created = await api.post<BatchOperation>("/batch-operations", {
            type: "MIGRATE",
            ...(all ? { filter: { deploymentId: source.id } } : { targetIds: ids }),
            migration: body
          })
          toast("Batch migration started", "success")
          await showBatchProgress(outcome, created, onLeave)
          return
        }
        const result = await api.post<MigrationResult>("/process-instances/migrate", {
          processInstanceIds: ids,
          ...body
        })
        if (result.failed.length === 0) {
          toast(
            `${result.migratedCount} instance${
              result.migratedCount === 1 ? "" : "s"
            } migrated to version ${target.version}`,
            "success"
          )
          location.hash = single === undefined ? `#/processes/${target.id}` : `#/instances/${single.id}`
          return
        }
        replace(outcome, partialFailure(result))
      } catch (error) {
        replace(outcome, problemBox("The service refused the migration", error))
      }
    }))

  replace(
    outlet,
    h(
      "div",
      { class: "page-head" },
      head.firstChild,
      h("div", { class: "actions" }, h("label", { class: "inline-label" }, "To", versionSelect))
    ),
    outcome,
    h(
      "div",
      { class: "migrate-layout" },
      h(
        "div",
        { class: "card" },
        h(
          "div",
          { class: "card-head" },
          h("h2", null, "Element mapping"),
          h("span", { class: "muted" }, "same id and type preselected")
        ),
        h(
          "table",
          { class: "table mapping-table", "data-testid": "mapping" },
          h(
            "thead",
            null,
            h(
              "tr",
              null,
              h("th", null, `Version ${source.version}`),
              h("th", { class: "num" }, "Waiting"),
              h("th", null, ""),
              h("th", null, `Version ${target.version}`)
            )
          ),
          h("tbody", null, mappingRows)
        )
      ),
      h(
        "div",
        null,
        h(
          "div",
          { class: "card" },
          h("div", { class: "card-head" }, h("h2", null, "Plan")),
          plan,
          h(
            "div",
            { class: "form-actions" },
            unlisted > 0
              ? h("label", { class: "check" }, everyRunning, `all ${listed.total} running (${unlisted} not listed)`)
              : null,
            single === undefined ? h("label", { class: "check" }, asBatch, "as a batch operation") : null,
            migrate
          )
        ),
        h(
          "div",
          { class: "card" },
          h(
            "div",
            { class: "card-head" },
            h("h2", null, single === undefined ? "Running instances of this version" : "Instance"),
            h(
              "span",
              { class: "muted" },
              unlisted > 0 ? `${candidates.length} of ${listed.total}` : `${candidates.length}`
            )
          ),
          h(
            "table",
            { class: "table", "data-testid": "migrate-instances" },
            h(
              "thead",
              null,
              h(
                "tr",
                null,
                h("th", null, ""),
                h("th", null, "Instance"),
                h("th", null, "State"),
                h("th", null, "Waiting at"),
                h("th", null, "Started")
              )
            ),
            h(
              "tbody",
              null,
              instanceRows.length === 0
                ? h("tr", null, h("td", { class: "empty", colspan: 5 }, "No running instance of this version."))
                : instanceRows
            )
          )
        )
      )
    )
  )
  drawPlan()
}
