// Intermediate throw events: none (pass through), message (a job, as in Zeebe), escalation, link (a jump to the catch
// link of the same name) and signal (broadcast after the commit).
import type { IntermediateThrowEventNode } from "../../../bpmn/ProcessGraph.ts"
import { startCompensation } from "../../behaviours/Compensation.ts"
import { throwSignal } from "../../behaviours/Signals.ts"
import type { ActivateElement } from "../Element.ts"
import { createJob } from "../tasks/JobTask.ts"

export const intermediateThrowEvent: ActivateElement<IntermediateThrowEventNode> = (
  { run, token, node, visible, locals }
) => {
  if (node.job !== null) return createJob(run, token, node, node.job, visible)
  if (
    node.compensationThrow !== undefined && startCompensation(run, token, node.id, node.compensationThrow.activityId)
  ) return
  if (node.escalationThrow != null && !run.throwEscalation(token, node.escalationThrow.code)) return
  if (node.link?.target != null) {
    // A link is a jump: the token continues at the catch link as if a flow led there.
    run.emit({ type: "ElementCompleted", tokenId: token.id, nodeId: node.id })
    return run.enter(node.link.target, null, token.scopeId)
  }
  throwSignal(run, token, node, locals)
  return run.leave(token, node, run.takeableFlows(token, node, visible))
}
