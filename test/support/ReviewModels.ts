// The BPMN the user task listener tests share: start -> user task "review" -> end, the task carrying the given
// extension elements (listeners, an assignment), and whatever else a test adds to the process (a boundary event...).
import { definitions } from "./BpmnXml.ts"

export const reviewModel = (
  options: {
    /** zeebe:* elements inside the user task's extensionElements, besides zeebe:userTask. */
    readonly extensions: string
    readonly processId?: string
    /** More elements of the process, after the end event. */
    readonly extra?: string
    /** More elements of the definitions, before the process (messages...). */
    readonly definitions?: string
  }
) =>
  definitions(`${options.definitions ?? ""}
  <bpmn:process id="${options.processId ?? "p"}" isExecutable="true">
    <bpmn:startEvent id="start" />
    <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="review" />
    <bpmn:userTask id="review" name="Review">
      <bpmn:extensionElements><zeebe:userTask />${options.extensions}</bpmn:extensionElements>
    </bpmn:userTask>
    <bpmn:sequenceFlow id="f2" sourceRef="review" targetRef="end" />
    <bpmn:endEvent id="end" />
    ${options.extra ?? ""}
  </bpmn:process>`)

/** The task's listeners, as zeebe:taskListeners. */
export const taskListeners = (listeners: string) => `<zeebe:taskListeners>${listeners}</zeebe:taskListeners>`

/** A process id of its own for each call: a deployment per test, whatever ran before on the shared app. */
export const freshProcessId = (prefix: string) => `${prefix}-${Math.random().toString(36).slice(2)}`
