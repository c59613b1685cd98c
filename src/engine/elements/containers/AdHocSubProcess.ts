// Ad-hoc subprocesses (Camunda 8.8): a scope of their own, like an embedded subprocess, but with no start event. On
// entering, `activeElementsCollection` names the inner elements to activate (several at once, or none: then the
// subprocess waits), each in a scope of its own (behaviours/AdHocActivations.ts); what completes it is in
// behaviours/AdHocCompletion.ts.
import { evaluateFeel } from "../../../bpmn/Expressions.ts"
import { type AdHocSubProcessNode, MAX_AD_HOC_ACTIVATIONS } from "../../../bpmn/ProcessGraph.ts"
import { activateInAdHoc } from "../../behaviours/AdHocActivations.ts"
import { askWorker, elementsFor } from "../../behaviours/AdHocWorker.ts"
import type { ActivateElement } from "../Element.ts"
import { openScope } from "./SubProcess.ts"

export const adHocSubProcess: ActivateElement<AdHocSubProcessNode> = ({ run, token, node, visible, locals }) => {
  const adHoc = node.adHoc
  let activate: ReadonlyArray<string> = []
  if (node.job === null && adHoc.activeElements !== null) {
    const outcome = evaluateFeel(adHoc.activeElements, visible)
    if (!outcome.ok) return run.raiseIncident(token, "EXTRACT_VALUE_ERROR", outcome.message)
    const ids = outcome.value
    const unknown = Array.isArray(ids) ? ids.filter((id) => !adHoc.activatable.includes(id as string)) : []
    if (Array.isArray(ids) && ids.length > MAX_AD_HOC_ACTIVATIONS) {
      return run.raiseIncident(
        token,
        "EXTRACT_VALUE_ERROR",
        `activeElementsCollection of ${node.id} names ${ids.length} elements, over the limit of ${MAX_AD_HOC_ACTIVATIONS}`
      )
    }
    if (!Array.isArray(ids) || unknown.length > 0) {
      return run.raiseIncident(
        token,
        "EXTRACT_VALUE_ERROR",
        `activeElementsCollection of ${node.id} must be a list of the ids ${adHoc.activatable.join(", ")}; got ${
          JSON.stringify(Array.isArray(ids) ? unknown : ids)
        }`
      )
    }
    activate = ids as ReadonlyArray<string>
  }
  const scopeId = openScope(run, token, node, locals, {
    ...(adHoc.outputCollection === null ? {} : { [adHoc.outputCollection]: [] }),
    ...(node.job === null ? {} : { adHocSubProcessElements: elementsFor(run, node) })
  })
  // Implemented by a job worker: the worker decides what runs (behaviours/AdHocWorker.ts).
  if (node.job !== null) return askWorker(run, scopeId, node.job)
  for (const elementId of activate) activateInAdHoc(run, scopeId, elementId)
}
