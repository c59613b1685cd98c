// Compensation event subprocesses (BPMN 10.5.6), at deploy: an event subprocess whose start event is a compensation
// start event, directly inside the embedded subprocess it compensates. When that subprocess has completed and is
// compensated, the event subprocess runs instead of the handlers of the activities completed inside it (in a
// multi-instance subprocess: once per completed iteration). Refused by name: one at the process level (nothing
// compensates a process here), next to a compensation boundary event of the same subprocess, more than one per
// subprocess, non-interrupting, or with execution listeners or input mappings.
import type { Draft, DraftNode } from "./Draft.ts"

const isCompensationStart = (node: DraftNode) =>
  node.type === "startEvent" && (node.eventDefinitions ?? []).includes("compensation")

/** The compensation event subprocesses of the draft, by the subprocess each compensates (the one it is in). */
export const compensationSubprocessesOf = (
  draft: Draft,
  byId: ReadonlyMap<string, DraftNode>,
  withBoundaryHandler: ReadonlySet<string>,
  problem: (elementId: string, message: string) => void
): ReadonlyMap<string, string> => {
  const found = new Map<string, string>()
  for (const start of draft.nodes.filter(isCompensationStart)) {
    const subprocess = byId.get(start.scope ?? "")
    // A compensation start event outside an event subprocess is refused as any start event of an unknown kind.
    if (subprocess?.triggeredByEvent !== true) continue
    const host = byId.get(subprocess.scope ?? "")
    const id = subprocess.id
    if (host === undefined) {
      problem(
        id,
        `compensation event subprocess ${id} is at the process level, which is not supported (nothing compensates a process): put it in the embedded subprocess it compensates`
      )
    } else if (host.type !== "subProcess") {
      problem(
        id,
        `compensation event subprocess ${id} must be inside an embedded subprocess, not ${host.type} ${host.id}`
      )
    } else if (withBoundaryHandler.has(host.id)) {
      problem(
        id,
        `${host.id} has a compensation boundary event and compensation event subprocess ${id}: it can have one of them`
      )
    } else if (found.has(host.id)) {
      problem(id, `${host.id} has more than one compensation event subprocess (${found.get(host.id)}, ${id})`)
    } else if (start.interrupting === false) {
      problem(start.id, `compensation start event ${start.id} cannot be non-interrupting`)
    } else if ((subprocess.listeners ?? []).length > 0) {
      problem(id, `execution listeners on compensation event subprocess ${id} are not supported`)
    } else if ((subprocess.inputs ?? []).length > 0) {
      problem(
        id,
        `input mappings on compensation event subprocess ${id} are not supported (it sees ${host.id}'s variables)`
      )
    } else found.set(host.id, id)
  }
  return found
}
