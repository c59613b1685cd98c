// Compensation (BPMN 10.5.6, as Camunda 8.5+ runs it), at deploy: a compensation boundary event is not a path of its
// own — it names, by association, the handler that undoes its activity. The boundary events are taken out of the
// draft, and the graph records each activity's handler, the handlers themselves, and what each compensation throw
// event compensates, and the compensation event subprocesses (CompensationSubprocesses.ts). The compiler does the rest
// of its checks as for any element.
import { compensationSubprocessesOf } from "./CompensationSubprocesses.ts"
import type { Draft, DraftNode } from "./Draft.ts"
import { BOUNDARY_HOSTS } from "./ElementKinds.ts"
import { isActivity, isThrowEvent } from "./GraphNodes.ts"
import type { Compiled, GraphNode, Problem } from "./ProcessGraph.ts"

const isCompensationBoundary = (node: DraftNode) =>
  node.type === "boundaryEvent" && (node.eventDefinitions ?? []).includes("compensation")

const isCompensationThrow = (node: DraftNode) =>
  (node.type === "intermediateThrowEvent" || node.type === "endEvent") &&
  (node.eventDefinitions ?? []).includes("compensation")

/** Compiles the draft with its compensation: handlers by activity, throw events' targets, and their problems. */
export const compileWithCompensation = (draft: Draft, compile: (draft: Draft) => Compiled): Compiled => {
  const problems: Array<Problem> = []
  const problem = (elementId: string, message: string) => problems.push({ elementId, message })
  const byId = new Map(draft.nodes.map((n) => [n.id, n]))
  const handlerOf = new Map<string, string>()
  const associated = new Map<string, Array<string>>()
  for (const { source, target } of draft.associations ?? []) {
    const targets = associated.get(source)
    if (targets === undefined) associated.set(source, [target])
    else targets.push(target)
  }
  for (const boundary of draft.nodes.filter(isCompensationBoundary)) {
    const attachedTo = boundary.boundary?.attachedTo ?? ""
    const handlers = (associated.get(boundary.id) ?? []).map((target) => byId.get(target))
    const handler = handlers[0]
    const host = byId.get(attachedTo)
    if (host !== undefined && !BOUNDARY_HOSTS.has(host.type)) {
      problem(
        boundary.id,
        `boundary event ${boundary.id} is attached to ${host.type} ${attachedTo}, which cannot have boundary events`
      )
    } else if (handler === undefined || handlers.length !== 1) {
      problem(boundary.id, `compensation boundary event ${boundary.id} needs one association to its handler`)
    } else if (handler.forCompensation !== true) {
      problem(handler.id, `${handler.id} is the handler of ${boundary.id}: it needs isForCompensation="true"`)
    } else handlerOf.set(attachedTo, handler.id)
  }
  const subprocesses = compensationSubprocessesOf(draft, byId, new Set(handlerOf.keys()), problem)
  checkHandlers(draft, new Set(handlerOf.values()), problem)
  checkThrows(draft, byId, handlerOf, subprocesses, problem)
  const compiled = compile({ ...draft, nodes: draft.nodes.filter((n) => !isCompensationBoundary(n)) })
  if (!compiled.ok || problems.length > 0) {
    return { ok: false, problems: [...(compiled.ok ? [] : compiled.problems), ...problems] }
  }
  const nodes: Record<string, GraphNode> = {}
  const compensationSubprocesses = new Set(subprocesses.values())
  for (const [id, node] of Object.entries(compiled.graph.nodes)) {
    const draftNode = byId.get(id)!
    const handlerId = handlerOf.get(id)
    const compensationSubprocessId = subprocesses.get(id)
    // A compensation event subprocess is run only by compensation, as a handler is.
    const forCompensation = draftNode.forCompensation === true || compensationSubprocesses.has(id)
    nodes[id] = isActivity(node)
      ? {
        ...node,
        ...(handlerId === undefined ? {} : { compensation: { handlerId } }),
        ...(forCompensation ? { forCompensation: true } : {}),
        ...(compensationSubprocessId === undefined ? {} : { compensationSubprocessId })
      }
      : isThrowEvent(node) && isCompensationThrow(draftNode)
      ? { ...node, compensationThrow: { activityId: draftNode.compensateActivity ?? null } }
      : node
  }
  return { ok: true, graph: { ...compiled.graph, nodes } }
}

type Report = (elementId: string, message: string) => void

/** Every handler is named by one activity, and has no sequence flows. */
const checkHandlers = (draft: Draft, handlers: ReadonlySet<string>, problem: Report) => {
  const joined = new Set(draft.flows.flatMap((f) => [f.source, f.target]))
  for (const node of draft.nodes.filter((n) => n.forCompensation === true)) {
    if (!handlers.has(node.id)) problem(node.id, `compensation handler ${node.id} is not associated with any activity`)
    if (joined.has(node.id)) {
      problem(node.id, `compensation handler ${node.id} cannot have sequence flows`)
    }
  }
}

/**
 * A throw event's activityRef names an activity of its scope that can be compensated: one with a handler, a
 * subprocess with a compensation event subprocess, or a subprocess with one of those inside (at any depth). Inside a
 * compensation event subprocess, it names one of the subprocess being compensated.
 */
const checkThrows = (
  draft: Draft,
  byId: ReadonlyMap<string, DraftNode>,
  handlerOf: ReadonlyMap<string, string>,
  subprocesses: ReadonlyMap<string, string>,
  problem: Report
) => {
  const containing = new Set<string>()
  for (const activity of [...handlerOf.keys(), ...subprocesses.keys()]) {
    for (let scope = byId.get(activity)?.scope; scope != null; scope = byId.get(scope)?.scope) containing.add(scope)
  }
  const compensatedBy = new Map([...subprocesses].map(([host, eventSubprocess]) => [eventSubprocess, host]))
  for (const node of draft.nodes.filter(isCompensationThrow)) {
    const target = node.compensateActivity ?? null
    if (target === null) continue
    const compensable = handlerOf.has(target) || subprocesses.has(target) || containing.has(target)
    const targetScope = byId.get(target)?.scope
    const inScope = targetScope === node.scope ||
      (node.scope != null && targetScope != null && compensatedBy.get(node.scope) === targetScope)
    if (!compensable || !inScope) {
      problem(
        node.id,
        `${node.id} compensates ${target}, which is no activity with a compensation handler (or subprocess with one inside) in its scope`
      )
    }
  }
}
