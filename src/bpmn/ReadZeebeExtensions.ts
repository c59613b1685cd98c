// Readers of the zeebe and BPMN extensions on an element that the draft carries beside its own attributes: execution
// and task listeners, compensation, ad-hoc settings, a business rule task's called decision, associations.
import type { DraftAdHoc, DraftListener, DraftNode } from "./Draft.ts"
import { type Element, elements, extension, isElement, str } from "./ModdleElements.ts"

/** A business rule task's zeebe:calledDecision, with its binding: by version tag, or to the same deployment. */
export const calledDecisionOf = (element: Element): DraftNode["decision"] => {
  const called = extension(element, "zeebe:CalledDecision")
  if (called === undefined) return null
  const bindingType = str(called, "bindingType")
  const binding = bindingType === "versionTag"
    ? { versionTag: str(called, "versionTag") ?? "" }
    : bindingType === "deployment"
    ? { binding: "deployment" as const }
    : {}
  return { decisionId: str(called, "decisionId"), resultVariable: str(called, "resultVariable"), ...binding }
}

/** A compensation handler (isForCompensation), or what a compensation throw event compensates (activityRef). */
export const compensationOf = (element: Element): Pick<DraftNode, "forCompensation" | "compensateActivity"> => {
  const definition = elements(element, "eventDefinitions").find((d) => d.$type === "bpmn:CompensateEventDefinition")
  const activity = definition?.["activityRef"]
  return {
    ...(element["isForCompensation"] === true ? { forCompensation: true } : {}),
    ...(definition === undefined ? {} : { compensateActivity: isElement(activity) ? str(activity, "id") : null })
  }
}

/** zeebe:executionListeners (or zeebe:taskListeners) of an element, in document order. */
export const toDraftListeners = (element: Element, kind: string): ReadonlyArray<DraftListener> => {
  const listeners = extension(element, kind)
  return listeners === undefined ? [] : elements(listeners, "listeners").map((listener) => ({
    eventType: str(listener, "eventType"),
    type: str(listener, "type"),
    retries: str(listener, "retries")
  }))
}

/** bpmn:adHocSubProcess with its zeebe:adHoc extension and BPMN's completionCondition / cancelRemainingInstances. */
export const toDraftAdHoc = (element: Element): DraftAdHoc => {
  const adHoc = extension(element, "zeebe:AdHoc")
  const condition = element["completionCondition"]
  return {
    activeElements: adHoc === undefined ? null : str(adHoc, "activeElementsCollection"),
    completionCondition: isElement(condition) ? str(condition, "body")?.trim() || null : null,
    cancelRemainingInstances: element["cancelRemainingInstances"] !== false,
    outputCollection: adHoc === undefined ? null : str(adHoc, "outputCollection"),
    outputElement: adHoc === undefined ? null : str(adHoc, "outputElement"),
    jobWorker: extension(element, "zeebe:TaskDefinition") !== undefined
  }
}

/** The associations among a container's artifacts (a compensation boundary event's to its handler). */
export const associationsIn = (container: Element) =>
  elements(container, "artifacts").filter((a) => a.$type === "bpmn:Association").flatMap((association) => {
    const [source, target] = [association["sourceRef"], association["targetRef"]]
    return isElement(source) && isElement(target)
      ? [{ source: str(source, "id") ?? "", target: str(target, "id") ?? "" }]
      : []
  })
