// The BPMN pieces the compensation tests share: a service task whose job type is its id, and a compensable one — the
// task, its compensation boundary event, and the handler (`<handlerPrefix>-<id>`) associated with it.
export const xmlServiceTask = (id: string, extra = "") =>
  `<bpmn:serviceTask id="${id}" ${extra}><bpmn:extensionElements><zeebe:taskDefinition type="${id}" /></bpmn:extensionElements></bpmn:serviceTask>`

export const compensated = (id: string, handlerPrefix = "undo") =>
  `${xmlServiceTask(id)}
  <bpmn:boundaryEvent id="${id}-comp" attachedToRef="${id}"><bpmn:compensateEventDefinition /></bpmn:boundaryEvent>
  ${xmlServiceTask(`${handlerPrefix}-${id}`, `isForCompensation="true"`)}
  <bpmn:association id="${id}-a" associationDirection="One" sourceRef="${id}-comp" targetRef="${handlerPrefix}-${id}" />`
