// The JSON graph many API tests deploy: start -> service task -> end, the task's job type `<key>-work`.
export const oneTaskModel = (key: string) => ({
  id: key,
  nodes: [
    { id: "start", type: "startEvent" },
    { id: "work", type: "serviceTask", properties: { taskType: `${key}-work` } },
    { id: "end", type: "endEvent" }
  ],
  flows: [{ id: "f1", source: "start", target: "work" }, { id: "f2", source: "work", target: "end" }]
})
