// GET /tasks?assigned=false lists the tasks nobody holds (the tasklist's "Unassigned"), assigned=true the held ones.
import { describe, expect, it } from "vitest"
import { givenTenant } from "../support/Scenario.ts"

const twoTasks = {
  id: "two-tasks",
  nodes: [
    { id: "start", type: "startEvent" },
    { id: "split", type: "parallelGateway" },
    { id: "a", type: "userTask", properties: { assignee: "ann" } },
    { id: "b", type: "userTask" },
    { id: "endA", type: "endEvent" },
    { id: "endB", type: "endEvent" }
  ],
  flows: [
    { id: "f1", source: "start", target: "split" },
    { id: "f2", source: "split", target: "a" },
    { id: "f3", source: "split", target: "b" },
    { id: "f4", source: "a", target: "endA" },
    { id: "f5", source: "b", target: "endB" }
  ]
}

describe("tasks by assignment", () => {
  it("filters on whether anyone holds the task", async () => {
    const owner = await (await givenTenant()).owner()
    const instance = await owner.start((await owner.deploy(twoTasks)).id)
    const of = async (query: string) =>
      (await owner.tasks(`?processInstanceId=${instance.id}&${query}`)).map((t: { nodeId: string }) => t.nodeId)
    expect(await of("assigned=false")).toEqual(["b"])
    expect(await of("assigned=true")).toEqual(["a"])
    expect((await of("")).sort()).toEqual(["a", "b"])
    ;(await owner.get(`/tasks?assigned=maybe`)).fails(400, "VALIDATION_ERROR")
  })
})
