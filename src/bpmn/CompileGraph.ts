// Both model formats are read into a draft (Draft.ts), and one compiler turns a draft into the executable graph,
// listing every problem by element id (never stopping at the first).
export type { Draft, DraftFlow, DraftNode } from "./Draft.ts"
import { compileWithCompensation } from "./Compensation.ts"
import { compileElement } from "./compile/CompileElement.ts"
import { eventStartsIn } from "./compile/Containers.ts"
import type { Starts } from "./compile/ElementContext.ts"
import { checkIndexedNames } from "./compile/IndexedNames.ts"
import type { Draft } from "./Draft.ts"
import { indexDraft } from "./DraftIndex.ts"
import { compileProcessListeners } from "./ExecutionListeners.ts"
import { feelSyntaxProblem } from "./Expressions.ts"
import type { Compiled, GraphFlow, GraphNode, Problem, ProcessGraph } from "./ProcessGraph.ts"

/** Compiles a draft, its compensation included (Compensation.ts). */
export const compileDraft = (draft: Draft): Compiled => {
  const compiled = compileWithCompensation(draft, compileElements)
  return compiled.ok ? { ok: true, graph: withEarlierFields(compiled.graph) } : compiled
}

/**
 * The fields every node carried before GraphNode became a union by type, null or empty where unused. Versions before
 * it read them on every node, so compiled graphs keep them: such a version (after a rollback, or a node not yet
 * upgraded in a rolling upgrade) still runs graphs compiled now. This version reads a node by its type only.
 */
const earlierFields = () => ({
  startNodeIds: [],
  terminate: false,
  job: null,
  userTask: null,
  script: null,
  message: null,
  signal: null,
  timer: null,
  boundary: null,
  errorCatch: null,
  errorThrow: null,
  boundaryIds: [],
  call: null,
  multiInstance: null,
  decision: null
})

const withEarlierFields = (graph: ProcessGraph): ProcessGraph => ({
  ...graph,
  nodes: Object.fromEntries(Object.entries(graph.nodes).map(([id, node]) => [id, { ...earlierFields(), ...node }]))
})

/** The process's checks (ids, key, flows, a start event) and each element compiled (compile/CompileElement.ts). */
const compileElements = (draft: Draft): Compiled => {
  const problems: Array<Problem> = []
  const report = (elementId: string, message: string) => problems.push({ elementId, message })
  checkIds(draft, report)
  checkIndexedNames(draft, report)
  const flows = compileFlows(draft, report)
  const index = indexDraft(draft)
  const byId = index.byId
  const starts: Starts = { none: [], message: [], signal: [], conditional: [], timer: [] }
  const nodes: Record<string, GraphNode> = {}
  for (const node of draft.nodes) {
    const { id } = node
    const compiled = compileElement({
      draft,
      node,
      id,
      scope: node.scope ?? null,
      incoming: index.incoming(id),
      outgoing: index.outgoing(id),
      flows,
      byId,
      index,
      starts,
      problem: (message) => report(id, message),
      report
    })
    if (compiled !== null) nodes[id] = compiled
  }
  if (starts.none.length === 0 && draft.nodes.every((n) => n.type !== "startEvent")) {
    report(draft.key || "process", "the process has no start event")
  }
  const listeners = compileProcessListeners(draft.listeners ?? [], draft.key, report)
  if (listeners !== undefined && byId.has(draft.key)) {
    report(draft.key, `the process and one of its elements share the id ${draft.key}`)
  }
  if (problems.length > 0) return { ok: false, problems }
  const rootEventStarts = eventStartsIn(index, null)
  return {
    ok: true,
    graph: {
      key: draft.key,
      name: draft.name,
      nodes,
      flows,
      startNodeIds: starts.none,
      messageStarts: starts.message,
      signalStarts: starts.signal,
      conditionalStarts: starts.conditional,
      timerStarts: starts.timer,
      ...(rootEventStarts.length > 0 ? { eventStartIds: rootEventStarts } : {}),
      ...(listeners === undefined ? {} : { listeners })
    }
  }
}

/** Every element has an id of its own; the process id is a name. */
const checkIds = (draft: Draft, report: (elementId: string, message: string) => void) => {
  const ids = new Set<string>()
  for (const element of [...draft.nodes, ...draft.flows]) {
    if (element.id === "") report(draft.key, "an element has no id")
    else if (ids.has(element.id)) report(element.id, `duplicate element id ${element.id}`)
    ids.add(element.id)
  }
  if (draft.key === "" || !/^[A-Za-z_][\w.-]*$/.test(draft.key)) {
    report(
      draft.key || "process",
      "the process id must start with a letter or _ and contain only letters, digits, _ . -"
    )
  }
}

/** Sequence flows join known elements of one scope; a condition must parse. */
const compileFlows = (
  draft: Draft,
  report: (elementId: string, message: string) => void
): Record<string, GraphFlow> => {
  const nodeIds = new Set(draft.nodes.map((n) => n.id))
  const scopeOf = new Map(draft.nodes.map((n) => [n.id, n.scope ?? null]))
  const flows: Record<string, GraphFlow> = {}
  for (const flow of draft.flows) {
    if (!nodeIds.has(flow.source)) {
      report(flow.id, `sequence flow ${flow.id} starts at unknown element "${flow.source}"`)
    }
    if (!nodeIds.has(flow.target)) report(flow.id, `sequence flow ${flow.id} ends at unknown element "${flow.target}"`)
    if (nodeIds.has(flow.source) && nodeIds.has(flow.target) && scopeOf.get(flow.source) !== scopeOf.get(flow.target)) {
      report(flow.id, `sequence flow ${flow.id} crosses a subprocess boundary`)
    }
    if (flow.condition !== null) {
      const syntax = feelSyntaxProblem(flow.condition)
      if (syntax !== null) report(flow.id, `condition: ${syntax}`)
    }
    flows[flow.id] = { id: flow.id, source: flow.source, target: flow.target, condition: flow.condition }
  }
  return flows
}

/** "a, b , c" or ["a","b"] -> ["a","b","c"] */
export const listOf = (value: unknown): ReadonlyArray<string> =>
  Array.isArray(value)
    ? value.filter((v): v is string => typeof v === "string" && v.trim() !== "").map((v) => v.trim())
    : typeof value === "string"
    ? value.split(",").map((v) => v.trim()).filter((v) => v !== "")
    : []
