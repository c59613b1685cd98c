// The BPMN document header the tests share: `definitions(body)` wraps a test's own <bpmn:process> (and <bpmn:message>,
// ...) in <bpmn:definitions> with the bpmn and zeebe namespaces, id "d" and target namespace "t". Options: another
// definitions id, and the xsi namespace for models that use xsi:type (a completion condition's tFormalExpression).
const BPMN = "http://www.omg.org/spec/BPMN/20100524/MODEL"
const ZEEBE = "http://camunda.org/schema/zeebe/1.0"
const XSI = "http://www.w3.org/2001/XMLSchema-instance"

export const definitions = (body: string, options: { readonly id?: string; readonly xsi?: boolean } = {}) =>
  `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="${BPMN}"${options.xsi ? ` xmlns:xsi="${XSI}"` : ""}
  xmlns:zeebe="${ZEEBE}" id="${options.id ?? "d"}" targetNamespace="t">
  ${body}
</bpmn:definitions>`
