// Cycles in a model's requirements: a decision that requires itself through other decisions (information
// requirements), or a business knowledge model that requires itself through others (knowledge requirements). DMN
// requires the requirement graph to be acyclic, and the evaluator builds both eagerly (a decision's required decisions
// first, a knowledge model's required knowledge when it is bound), so every evaluation that reaches a cycle fails
// ("nests too deeply"): such a model is refused when it enters. A decision service is called, not built, so a
// requirement through one is no cycle here (recursion through a service can end, and its cost is budgeted).
import type { DecisionModel, Problem } from "./DecisionModel.ts"

/** Each cycle once, as the path of the element where the search first meets it, naming the elements around it. */
export const requirementCycleProblems = (model: DecisionModel): ReadonlyArray<Problem> => {
  const edges = new Map<string, { readonly path: string; readonly label: string; readonly next: Array<string> }>()
  const bkmIds = new Set(model.businessKnowledgeModels.map((b) => b.id))
  const decisionIds = new Set(model.decisions.map((d) => d.id))
  for (const bkm of model.businessKnowledgeModels) {
    edges.set(`k:${bkm.id}`, {
      path: `businessKnowledgeModels[${bkm.id || bkm.name}]`,
      label: `business knowledge model ${bkm.name || bkm.id}`,
      next: bkm.requiredKnowledge.filter((id) => bkmIds.has(id)).map((id) => `k:${id}`)
    })
  }
  for (const decision of model.decisions) {
    edges.set(`d:${decision.id}`, {
      path: `decisions[${decision.id || decision.name}]`,
      label: `decision ${decision.name || decision.id}`,
      next: [
        ...decision.requiredDecisions.filter((id) => decisionIds.has(id)).map((id) => `d:${id}`),
        ...decision.requiredKnowledge.filter((id) => bkmIds.has(id)).map((id) => `k:${id}`)
      ]
    })
  }
  const problems: Array<Problem> = []
  // Depth-first, iteratively (a long chain must not overflow the stack): white (unseen), grey (on the path), black.
  const state = new Map<string, "grey" | "black">()
  for (const start of edges.keys()) {
    if (state.has(start)) continue
    const path: Array<{ readonly id: string; next: number }> = [{ id: start, next: 0 }]
    state.set(start, "grey")
    while (path.length > 0) {
      const top = path[path.length - 1]!
      const target = edges.get(top.id)!.next[top.next++]
      if (target === undefined) {
        state.set(top.id, "black")
        path.pop()
      } else if (state.get(target) === "grey") {
        const cycle = path.slice(path.findIndex((p) => p.id === target)).map((p) => edges.get(p.id)!)
        problems.push({
          path: cycle[0]!.path,
          message: `requirements form a cycle: ${[...cycle, cycle[0]!].map((e) => e.label).join(" requires ")}`
        })
      } else if (!state.has(target)) {
        state.set(target, "grey")
        path.push({ id: target, next: 0 })
      }
    }
  }
  return problems
}
