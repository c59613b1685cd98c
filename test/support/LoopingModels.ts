// Models that exceed a command's run budget (engine/RunBudget.ts), as JSON graphs: for the core's tests (graphOf)
// and the API's (deploy).

/** Start, then two gateways leading into each other: a loop without a wait state. */
export const gatewayLoop = {
  id: "budget-loop",
  nodes: [
    { id: "s", type: "startEvent" },
    { id: "g1", type: "exclusiveGateway" },
    { id: "g2", type: "exclusiveGateway" }
  ],
  flows: [
    { id: "f0", source: "s", target: "g1" },
    { id: "f1", source: "g1", target: "g2" },
    { id: "f2", source: "g2", target: "g1" }
  ]
}

/** The same loop behind a service task of type `budget-work`: the start waits, the job's completion loops. */
export const workThenLoop = {
  id: "budget-work-then-loop",
  nodes: [
    { id: "s", type: "startEvent" },
    { id: "work", type: "serviceTask", properties: { taskType: "budget-work" } },
    { id: "g1", type: "exclusiveGateway" },
    { id: "g2", type: "exclusiveGateway" }
  ],
  flows: [
    { id: "f0", source: "s", target: "work" },
    { id: "f1", source: "work", target: "g1" },
    { id: "f2", source: "g1", target: "g2" },
    { id: "f3", source: "g2", target: "g1" }
  ]
}

/** A parallel multi-instance service task (type `budget-each`) over the variable `items`. */
export const eachItem = {
  id: "budget-each",
  nodes: [
    { id: "s", type: "startEvent" },
    {
      id: "each",
      type: "serviceTask",
      properties: {
        taskType: "budget-each",
        multiInstance: { sequential: false, inputCollection: "= items", inputElement: "item" }
      }
    },
    { id: "e", type: "endEvent" }
  ],
  flows: [{ id: "f1", source: "s", target: "each" }, { id: "f2", source: "each", target: "e" }]
}
