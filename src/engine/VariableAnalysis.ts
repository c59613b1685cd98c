// Static variable analysis of a process graph (POST /analysis/variables): which variables each element reads (the
// free names of its FEEL expressions: conditions, input mappings, scripts, correlation keys, timers, multi-instance
// collections, conditional events, assignees) and writes (mapping targets, result variables, output collections).
// A variable read but written nowhere must come with the start (or from a worker's result); one written but read
// nowhere may be a leftover.
import { isCatchEvent, jobOf, messageOf, multiInstanceOf } from "../bpmn/GraphNodes.ts"
import type { GraphNode, ProcessGraph } from "../bpmn/ProcessGraph.ts"
import { isSyntaxError, parseFeel } from "../decision/feel/FeelParser.ts"

export interface VariableUse {
  readonly name: string
  readonly readBy: ReadonlyArray<string>
  readonly writtenBy: ReadonlyArray<string>
}

export interface VariableWarning {
  readonly elementId: string
  readonly variable: string
  readonly kind: "READ_NOT_WRITTEN" | "WRITTEN_NOT_READ"
  readonly message: string
}

export interface VariableAnalysis {
  readonly processKey: string
  readonly variables: ReadonlyArray<VariableUse>
  /** Read somewhere, written nowhere in the model: what a start (or a worker) must supply. */
  readonly expectedInputs: ReadonlyArray<string>
  /** Elements whose results (a worker's or a person's variables) the model cannot know. */
  readonly openResults: ReadonlyArray<string>
  readonly warnings: ReadonlyArray<VariableWarning>
}

/** Names FEEL itself provides inside expressions. */
const IMPLICIT = new Set(["item", "?"])

/** The free variable names of a FEEL expression (`= ...`); literals read nothing. */
export const freeNames = (expression: string | null | undefined): ReadonlyArray<string> => {
  if (expression === null || expression === undefined) return []
  const trimmed = expression.trimStart()
  if (!trimmed.startsWith("=")) return []
  const text = trimmed.slice(1)
  const tree = parseFeel(text, "expression", {})
  if (isSyntaxError(tree)) return []
  const bound = new Set<string>()
  const used: Array<string> = []
  tree.iterate({
    enter(node) {
      const parent = node.node.parent?.type.name
      // Names bound by for / some / every and by function definitions are not variables of the process.
      if (node.type.name === "Name" && (parent === "InExpression" || parent === "FormalParameter")) {
        bound.add(text.slice(node.from, node.to))
      }
      if (node.type.name === "VariableName" && parent !== "FunctionInvocation") {
        used.push(text.slice(node.from, node.to))
      }
      return undefined
    }
  })
  return [...new Set(used.filter((name) => !bound.has(name) && !IMPLICIT.has(name)))]
}

/** Reads nobody writes (they must come with the start, or from a result) and writes nobody reads. */
const warningsOf = (
  variables: VariableAnalysis["variables"],
  iterationLocals: ReadonlySet<string>,
  mayComeFromResults: boolean
): Array<VariableWarning> => [
  ...variables.filter((v) => v.writtenBy.length === 0 && !iterationLocals.has(v.name)).flatMap((v) =>
    v.readBy.map((elementId) => ({
      elementId,
      variable: v.name,
      kind: "READ_NOT_WRITTEN" as const,
      message: `${elementId} reads ${v.name}, which no element of the process writes: it must come with the start${
        mayComeFromResults ? " or from a worker's or person's result" : ""
      }`
    }))
  ),
  ...variables.filter((v) => v.readBy.length === 0).flatMap((v) =>
    v.writtenBy.map((elementId) => ({
      elementId,
      variable: v.name,
      kind: "WRITTEN_NOT_READ" as const,
      message:
        `${elementId} writes ${v.name}, which no element of the process reads (a result for the caller, or a leftover)`
    }))
  )
]

/** What an element evaluates to wait or to be assigned: a correlation key, a timer, a condition, an assignee. */
const waitExpressions = (node: GraphNode): ReadonlyArray<string | null> => [
  messageOf(node)?.correlationKey ?? null,
  isCatchEvent(node) ? node.timer?.expression ?? null : null,
  isCatchEvent(node) && node.condition != null
    ? node.condition.trimStart().startsWith("=") ? node.condition : `=${node.condition}`
    : null,
  node.type === "userTask" ? node.userTask.assignee : null
]

export const analyseVariables = (graph: ProcessGraph): VariableAnalysis => {
  const reads = new Map<string, Set<string>>()
  const writes = new Map<string, Set<string>>()
  const openResults: Array<string> = []
  let bringsResults = false
  const read = (elementId: string, expression: string | null | undefined) => {
    for (const name of freeNames(expression)) reads.set(name, (reads.get(name) ?? new Set()).add(elementId))
  }
  const write = (elementId: string, name: string | null | undefined) => {
    if (name !== null && name !== undefined && name !== "") {
      writes.set(name, (writes.get(name) ?? new Set()).add(elementId))
    }
  }

  for (const flow of Object.values(graph.flows)) {
    if (flow.condition !== null) {
      read(flow.id, flow.condition.trimStart().startsWith("=") ? flow.condition : `=${flow.condition}`)
    }
  }
  for (const node of Object.values(graph.nodes)) {
    for (const mapping of node.inputs) {
      read(node.id, mapping.source)
      write(node.id, mapping.target)
    }
    // Output mappings read what their source names: the element's result (a worker's, a person's, a child's), its
    // locals, or the process's variables — `= doubled + 1` reads doubled. What they produce is written.
    for (const mapping of node.outputs) {
      read(node.id, mapping.source)
      write(node.id, mapping.target)
    }
    if (node.type === "scriptTask") {
      read(
        node.id,
        node.script.expression.trimStart().startsWith("=") ? node.script.expression : `=${node.script.expression}`
      )
      write(node.id, node.script.resultVariable)
    }
    if (node.type === "businessRuleTask") {
      write(node.id, node.decision.resultVariable)
      openResults.push(node.id)
    }
    // A worker, a person or a called process may bring any variable: reads nobody writes may come from them.
    if (jobOf(node) !== null || node.type === "userTask" || node.type === "callActivity") {
      bringsResults = true
      if (node.outputs.length === 0) openResults.push(node.id)
    }
    for (const expression of waitExpressions(node)) read(node.id, expression)
    const loop = multiInstanceOf(node)
    if (loop !== null) {
      read(node.id, loop.inputCollection)
      write(node.id, loop.outputCollection)
    }
  }
  for (const start of graph.conditionalStarts ?? []) {
    read(start.nodeId, start.condition.trimStart().startsWith("=") ? start.condition : `=${start.condition}`)
  }

  // Variables a multi-instance iteration provides (its element and loopCounter) are local to the iteration.
  const iterationLocals = new Set(
    Object.values(graph.nodes).flatMap((n) => {
      const loop = multiInstanceOf(n)
      return loop === null ? [] : [loop.inputElement ?? "", "loopCounter"]
    })
  )
  const names = [...new Set([...reads.keys(), ...writes.keys()])].filter((name) => name !== "").sort()
  const variables = names.map((name) => ({
    name,
    readBy: [...(reads.get(name) ?? [])].sort(),
    writtenBy: [...(writes.get(name) ?? [])].sort()
  }))
  const expectedInputs = variables.filter((v) => v.writtenBy.length === 0 && !iterationLocals.has(v.name)).map((v) =>
    v.name
  )
  const warnings = warningsOf(variables, iterationLocals, openResults.length > 0 || bringsResults)
  return { processKey: graph.key, variables, expectedInputs, openResults: [...new Set(openResults)].sort(), warnings }
}
