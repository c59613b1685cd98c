// Ad-hoc subprocesses (Camunda 8.8's zeebe:adHoc): read from BPMN XML and checked at deploy. Their inner elements
// have no start event; the ones without an incoming sequence flow are what the subprocess can activate.
import type { DraftNode } from "./Draft.ts"
import { feelSyntaxProblem, isExpression } from "./Expressions.ts"
import type { AdHocDefinition } from "./ProcessGraph.ts"

/** An ad-hoc subprocess implemented by a job worker: its job asks the worker what to run. */
export const asksWorker = (node: DraftNode): boolean =>
  node.type === "adHocSubProcess" && node.adHoc?.jobWorker === true

/** Inner elements that cannot be activated on their own (they are started by something else). */
const NOT_ACTIVATABLE: ReadonlySet<string> = new Set(["boundaryEvent", "startEvent"])

export const compileAdHoc = (
  node: DraftNode,
  /** The nodes directly inside it. */
  inner: ReadonlyArray<DraftNode>,
  incoming: (nodeId: string) => number,
  problem: (elementId: string, message: string) => void
): AdHocDefinition => {
  const adHoc = node.adHoc
  for (const start of inner.filter((n) => n.type === "startEvent" && n.triggeredByEvent !== true)) {
    problem(start.id, `ad-hoc subprocess ${node.id} cannot contain a start event`)
  }
  if (inner.some((n) => n.triggeredByEvent === true)) {
    problem(node.id, `event subprocesses inside ad-hoc subprocess ${node.id} are not supported`)
  }
  // Implemented by a job worker, the worker decides what runs and when it is done: a collection or a condition
  // would be read and never executed.
  if (adHoc?.jobWorker === true && (adHoc.activeElements?.trim() || adHoc.completionCondition?.trim())) {
    problem(
      node.id,
      `ad-hoc subprocess ${node.id} is implemented by a job worker (zeebe:taskDefinition): its worker decides, so activeElementsCollection and completionCondition are not used; remove them`
    )
  }
  const activatable = inner.filter((n) => !NOT_ACTIVATABLE.has(n.type) && incoming(n.id) === 0).map((n) => n.id)
  if (activatable.length === 0) problem(node.id, `ad-hoc subprocess ${node.id} has no activity to activate`)
  const expression = (field: string, value: string | null) => {
    if (value === null || value.trim() === "") return null
    const syntax = feelSyntaxProblem(isExpression(value) ? value : `=${value}`)
    if (syntax !== null) problem(node.id, `${field}: ${syntax}`)
    return value
  }
  const outputCollection = adHoc?.outputCollection?.trim() || null
  const outputElement = expression("outputElement", adHoc?.outputElement ?? null)
  if ((outputCollection === null) !== (outputElement === null)) {
    problem(node.id, `ad-hoc subprocess ${node.id} needs both outputCollection and outputElement, or neither`)
  }
  return {
    activatable,
    activeElements: expression("activeElementsCollection", adHoc?.activeElements ?? null),
    completionCondition: expression("completionCondition", adHoc?.completionCondition ?? null),
    cancelRemainingInstances: adHoc?.cancelRemainingInstances ?? true,
    outputCollection,
    outputElement
  }
}
