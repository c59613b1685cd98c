// The migration plan as the browser checks it before the service does: where the chosen instances wait, whether each
// such element is mapped to one of the same type, and the mappings sent (the service checks again and may refuse).
import type { DeploymentNode, InstanceToken } from "../../api.ts"
import { type Child, h } from "../../dom.ts"

export interface MigrationPlan {
  /** The instances chosen, by id. */
  readonly selected: ReadonlySet<string>
  /** Each instance's tokens: where it waits. */
  readonly tokensOf: ReadonlyMap<string, ReadonlyArray<InstanceToken>>
  readonly sourceNodes: ReadonlyArray<DeploymentNode>
  /** Source element id → target element id, as the person mapped them. */
  readonly mapping: ReadonlyMap<string, string>
  readonly targetById: ReadonlyMap<string, DeploymentNode>
}

export const nodeLabel = (node: DeploymentNode) =>
  h(
    "div",
    { class: "node-label" },
    h("strong", null, node.name ?? node.id),
    h("span", { class: "muted" }, ` ${node.id} · ${node.type}`)
  )

/** Elements where the selected instances wait, with how many wait there. */
export const waitingCounts = (plan: MigrationPlan): Map<string, number> => {
  const counts = new Map<string, number>()
  for (const id of plan.selected) {
    for (const nodeId of new Set((plan.tokensOf.get(id) ?? []).map((token) => token.nodeId))) {
      counts.set(nodeId, (counts.get(nodeId) ?? 0) + 1)
    }
  }
  return counts
}

/** What would make the service refuse: an element an instance waits at that is unmapped, or mapped to another type. */
export const planProblems = (plan: MigrationPlan): Array<string> => {
  const found: Array<string> = []
  for (const [nodeId, count] of waitingCounts(plan)) {
    const node = plan.sourceNodes.find((candidate) => candidate.id === nodeId)
    const to = plan.mapping.get(nodeId)
    const label = `${node?.name ?? nodeId} (${nodeId})`
    if (to === undefined) found.push(`${label}: ${count} instance${count === 1 ? " waits" : "s wait"} here, map it`)
    else if (plan.targetById.get(to)?.type !== node?.type) found.push(`${label}: ${to} is not a ${node?.type}`)
  }
  return found
}

/** The mappings as POST /process-instances/migrate takes them. */
export const planMappings = (plan: MigrationPlan) =>
  [...plan.mapping].filter(([from]) => plan.sourceNodes.some((node) => node.id === from)).map((
    [sourceNodeId, targetNodeId]
  ) => ({ sourceNodeId, targetNodeId }))

/** The plan card's content: what moves where, and what the check found. */
export const planSummary = (plan: MigrationPlan, sourceVersion: number, targetVersion: number): Child => {
  const { selected } = plan
  if (selected.size === 0) return h("p", { class: "muted" }, "Choose at least one instance.")
  const found = planProblems(plan)
  const moves = [...waitingCounts(plan)].map(([nodeId, count]) => {
    const to = plan.mapping.get(nodeId)
    return h(
      "li",
      null,
      h("strong", null, `${count}`),
      ` at ${plan.sourceNodes.find((node) => node.id === nodeId)?.name ?? nodeId} → `,
      to === undefined
        ? h("span", { class: "text-danger" }, "not mapped")
        : h("strong", null, plan.targetById.get(to)?.name ?? to)
    )
  })
  return [
    h(
      "p",
      null,
      `${selected.size} instance${selected.size === 1 ? "" : "s"} of version ${sourceVersion} ${
        selected.size === 1 ? "moves" : "move"
      } to version ${targetVersion}:`
    ),
    moves.length === 0 ? h("p", { class: "muted" }, "They hold no tokens.") : h("ul", { class: "plan-list" }, moves),
    found.length === 0
      ? h(
        "div",
        { class: "alert alert-success", "data-testid": "plan-ok" },
        "Every element an instance waits at is mapped to one of the same type."
      )
      : h(
        "div",
        { class: "alert alert-warning", "data-testid": "plan-problems" },
        h("strong", null, "Before migrating:"),
        h("ul", { class: "problem-list" }, found.map((problem) => h("li", null, problem))),
        h(
          "div",
          { class: "small" },
          "The service checks again (scopes, event kinds, multi-instance) and refuses a plan that does not hold."
        )
      )
  ]
}
