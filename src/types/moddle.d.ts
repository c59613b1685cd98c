// bpmn-moddle's package exports carry no types for its entry point; the code that uses it declares the shape it
// needs (src/bpmn/ReadBpmnXml.ts).
declare module "bpmn-moddle" {
  export const BpmnModdle: unknown
}
