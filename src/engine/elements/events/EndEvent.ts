// End events: none, error (thrown to the nearest catcher), message (a job), signal, escalation, terminate (ends every
// other path of its scope, BPMN 13.5.6). The scope completes when nothing is left in it.
import type { EndEventNode } from "../../../bpmn/ProcessGraph.ts"
import { startCompensation } from "../../behaviours/Compensation.ts"
import { endListenersPending } from "../../behaviours/Listeners.ts"
import { throwSignal } from "../../behaviours/Signals.ts"
import type { ActivateElement } from "../Element.ts"
import { createJob } from "../tasks/JobTask.ts"
import { finishEndEvent } from "./EndEventCompletion.ts"

export const endEvent: ActivateElement<EndEventNode> = ({ run, token, node, visible, locals }) => {
  if (node.errorThrow !== null) return run.throwError(token, node.errorThrow.errorCode, "", {})
  if (node.job !== null) return createJob(run, token, node, node.job, visible)
  if (
    node.compensationThrow !== undefined && startCompensation(run, token, node.id, node.compensationThrow.activityId)
  ) return
  throwSignal(run, token, node, locals)
  if (node.escalationThrow != null && !run.throwEscalation(token, node.escalationThrow.code)) return
  if (endListenersPending(run, token, node, [])) return
  finishEndEvent(run, token, node)
}
