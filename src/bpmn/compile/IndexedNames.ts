// Ids and names of a model that the database indexes (StoredRanges.ts): the process id (deployment versions), element
// ids (start events are keyed by theirs) and job types (of tasks and of listeners: jobs are found by type), at most
// MAX_INDEXED_NAME; literal message and signal names (subscriptions and start events are found by name), at most what
// a request may send. A longer one is refused at deploy, naming the element, instead of failing the deploy or every
// later start with a 500.
import type { Draft, DraftListener } from "../Draft.ts"
import { isExpression } from "../Expressions.ts"
import { MAX_INDEXED_NAME, MAX_MODEL_EVENT_NAME } from "../StoredRanges.ts"

/** An over-long id, shortened to name the element it belongs to without repeating all of it. */
const shortened = (id: string): string => (id.length > MAX_INDEXED_NAME ? `${id.slice(0, 40)}…` : id)

export const checkIndexedNames = (draft: Draft, report: (elementId: string, message: string) => void) => {
  const check = (elementId: string, what: string, value: string | null | undefined, limit = MAX_INDEXED_NAME) => {
    if (value != null && value.length > limit) {
      report(shortened(elementId), `${what} has ${value.length} characters: at most ${limit} are allowed`)
    }
  }
  const listenerTypes = (elementId: string, listeners: ReadonlyArray<DraftListener> | undefined) => {
    for (const listener of listeners ?? []) check(elementId, "a listener's job type", listener.type?.trim())
  }
  const literal = (name: string | null | undefined) => (name == null || isExpression(name) ? null : name)
  check(draft.key || "process", "the process id", draft.key)
  listenerTypes(draft.key || "process", draft.listeners)
  for (const flow of draft.flows) check(flow.id, "the sequence flow id", flow.id)
  for (const node of draft.nodes) {
    check(node.id, "the element id", node.id)
    check(node.id, "the job type (zeebe:taskDefinition type)", node.jobType)
    listenerTypes(node.id, node.listeners)
    listenerTypes(node.id, node.taskListeners)
    check(node.id, "the message name", literal(node.message?.name), MAX_MODEL_EVENT_NAME)
    check(node.id, "the signal name", literal(node.signal?.name), MAX_MODEL_EVENT_NAME)
  }
}
