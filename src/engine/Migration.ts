// Migration of a running instance to another version of its process: which node of the target version each active
// node becomes, checked up front. Every node a token stands at must be mapped (explicitly, or by equal id when
// asked) to a node of the same type, the same event kind and the same multi-instance-ness, inside the mapped
// subprocess; a token waiting at a join must arrive by a flow the target join has too.
import { isCatchEvent, isEventSubprocess, messageOf, multiInstanceOf } from "../bpmn/GraphNodes.ts"
import type { GraphNode, ProcessGraph } from "../bpmn/ProcessGraph.ts"
import type { InstanceState } from "./InstanceState.ts"

export type MigrationPlan =
  | { readonly ok: true; readonly mapping: Readonly<Record<string, string>> }
  | { readonly ok: false; readonly problems: ReadonlyArray<string> }

/** What triggers an event node (or what it waits for): none for everything else. */
export const triggerOf = (node: GraphNode): "message" | "timer" | "signal" | "conditional" | "error" | "none" =>
  messageOf(node) !== null
    ? "message"
    : !isCatchEvent(node)
    ? "none"
    : node.timer !== null
    ? "timer"
    : node.signal !== null
    ? "signal"
    : node.condition != null
    ? "conditional"
    : node.type !== "intermediateCatchEvent" && node.errorCatch !== null
    ? "error"
    : "none"

export const planMigration = (
  source: ProcessGraph,
  target: ProcessGraph,
  state: InstanceState,
  mappings: Readonly<Record<string, string>>,
  mapEqualNodes = false
): MigrationPlan => {
  const problems: Array<string> = []
  for (const [from, to] of Object.entries(mappings)) {
    if (source.nodes[from] === undefined) problems.push(`source node ${from} does not exist in the instance's version`)
    if (target.nodes[to] === undefined) problems.push(`target node ${to} does not exist in the target version`)
  }
  const resolve = (nodeId: string): string | undefined =>
    mappings[nodeId] ??
      (mapEqualNodes && target.nodes[nodeId] !== undefined && target.nodes[nodeId]!.type === source.nodes[nodeId]?.type
        ? nodeId
        : undefined)

  const mapping: Record<string, string> = {}
  const tokens = Object.values(state.tokens)
  for (const nodeId of new Set(tokens.map((t) => t.nodeId))) {
    const from = source.nodes[nodeId]
    if (from === undefined) {
      problems.push(`active node ${nodeId} is not in the instance's version`)
      continue
    }
    const to = resolve(nodeId)
    const into = to === undefined ? undefined : target.nodes[to]
    if (to === undefined || into === undefined) {
      if (to === undefined) problems.push(`active node ${nodeId} (${from.type}) is not mapped`)
      continue
    }
    const expectedScope = from.scope === null ? null : resolve(from.scope) ?? null
    if (from.type !== into.type) {
      problems.push(`${nodeId} (${from.type}) cannot become ${to} (${into.type}): the types differ`)
    } else if (triggerOf(from) !== triggerOf(into)) {
      problems.push(`${nodeId} (${triggerOf(from)} event) cannot become ${to} (${triggerOf(into)} event)`)
    } else if ((multiInstanceOf(from) === null) !== (multiInstanceOf(into) === null)) {
      problems.push(`${nodeId} and ${to} differ in being multi-instance`)
    } else if (isEventSubprocess(from) !== isEventSubprocess(into)) {
      problems.push(`${nodeId} and ${to} differ in being an event subprocess`)
    } else if (into.scope !== expectedScope) {
      problems.push(
        `${nodeId} maps to ${to} in ${into.scope ?? "the process"}, but its enclosing ${
          from.scope === null ? "process" : `subprocess ${from.scope} maps to ${expectedScope ?? "the process"}`
        }`
      )
    } else mapping[nodeId] = to
  }
  for (const token of tokens) {
    const to = mapping[token.nodeId]
    if (to === undefined || token.wait?.kind !== "join" || token.viaFlow === null) continue
    if (!target.nodes[to]!.incoming.includes(token.viaFlow)) {
      problems.push(
        `a token waits at join ${token.nodeId} after flow ${token.viaFlow}, which ${to} in the target version has not`
      )
    }
  }
  return problems.length > 0 ? { ok: false, problems: [...new Set(problems)] } : { ok: true, mapping }
}
