// Process instance modification through HTTP: moving a waiting token (POST /process-instances/{id}/move-token) and
// migrating running instances to another version (POST /process-instances/migrate).
import { describe, expect, it } from "vitest"
import { givenTenant } from "../support/Scenario.ts"

const linear = (
  id: string,
  middle: ReadonlyArray<Record<string, unknown>>,
  extraNodes: ReadonlyArray<Record<string, unknown>> = [],
  extraFlows: ReadonlyArray<Record<string, unknown>> = []
) => ({
  id,
  nodes: [{ id: "s", type: "startEvent" }, ...middle, { id: "e", type: "endEvent" }, ...extraNodes],
  flows: [
    ...[{ id: "s" }, ...middle, { id: "e" }].slice(1).map((node, index, rest) => ({
      id: `f${index}`,
      source: index === 0 ? "s" : String(rest[index - 1]!["id"]),
      target: String(node["id"])
    })),
    ...extraFlows
  ]
})

type HistoryEntry = { type: string; nodeId: string | null; data: Record<string, unknown> }

describe("move token", () => {
  it("moves a token from a service task to a later user task: the job is withdrawn, the task created, history records the move", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(linear("movable", [
      { id: "charge", type: "serviceTask", properties: { taskType: "move-charge" } },
      {
        id: "review",
        type: "userTask",
        name: "Review",
        properties: { inputMappings: [{ source: "= amount * 2", target: "doubled" }] }
      }
    ]))
    const instance = await owner.start(deployment.id, { amount: 21 })
    const moved = (await owner.post(`/process-instances/${instance.id}/move-token`, {
      sourceNodeId: "charge",
      targetNodeId: "review",
      variables: { movedBy: "ops" }
    })).ok()
    expect(moved.variables).toMatchObject({ amount: 21, movedBy: "ops" })
    expect((await owner.get(`/jobs?processInstanceId=${instance.id}`)).ok().items[0].state).toBe("CANCELED")
    const [task] = await owner.tasks(`?processInstanceId=${instance.id}&state=CREATED`)
    expect(task).toMatchObject({ nodeId: "review" })
    expect(task.variables).toMatchObject({ doubled: 42 })
    const history: Array<HistoryEntry> = await owner.history(instance.id)
    expect(history.find((e) => e.type === "TokenMoved")).toMatchObject({
      nodeId: "charge",
      data: { targetNodeId: "review" }
    })
    await owner.completeTask(task.id)
    expect((await owner.instance(instance.id)).state).toBe("COMPLETED")
  })

  it("resolves an incident by moving its token past the failing node", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(linear("stuck", [
      // A correlation key that evaluates to null raises an incident when the token arrives.
      { id: "calc", type: "intermediateCatchEvent", properties: { messageName: "never", correlationKey: "= missing" } },
      { id: "after", type: "serviceTask", properties: { taskType: "after-stuck" } }
    ]))
    const instance = await owner.start(deployment.id)
    const [incident] = (await owner.get(`/incidents?processInstanceId=${instance.id}`)).ok().items
    expect(incident.state).toBe("OPEN")
    ;(await owner.post(`/process-instances/${instance.id}/move-token`, { sourceNodeId: "calc", targetNodeId: "after" }))
      .ok()
    expect((await owner.get(`/incidents?processInstanceId=${instance.id}`)).ok().items).toMatchObject([{
      id: incident.id,
      state: "RESOLVED"
    }])
    expect((await owner.instance(instance.id)).incidentCount).toBe(0)
    expect(await owner.activateJobs("after-stuck")).toHaveLength(1)
  })

  it("refuses unknown nodes, other scopes, boundary targets, absent tokens and suspended instances with clear errors", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy({
      id: "move-rules",
      nodes: [
        { id: "s", type: "startEvent" },
        { id: "wait", type: "userTask" },
        { id: "b", type: "boundaryEvent", properties: { attachedTo: "wait", timeDuration: "PT1H" } },
        {
          id: "sub",
          type: "subProcess",
          properties: {
            nodes: [{ id: "ss", type: "startEvent" }, { id: "inner", type: "userTask" }, {
              id: "se",
              type: "endEvent"
            }],
            flows: [{ id: "g1", source: "ss", target: "inner" }, { id: "g2", source: "inner", target: "se" }]
          }
        },
        { id: "e", type: "endEvent" },
        { id: "be", type: "endEvent" }
      ],
      flows: [{ id: "f1", source: "s", target: "wait" }, { id: "f2", source: "wait", target: "sub" }, {
        id: "f3",
        source: "sub",
        target: "e"
      }, { id: "f4", source: "b", target: "be" }]
    })
    const instance = await owner.start(deployment.id)
    const move = (body: Record<string, unknown>) => owner.post(`/process-instances/${instance.id}/move-token`, body)
    expect((await move({ sourceNodeId: "nope", targetNodeId: "e" })).fails(400, "VALIDATION_ERROR").errors[0].field)
      .toBe("sourceNodeId")
    expect((await move({ sourceNodeId: "wait", targetNodeId: "nope" })).fails(400, "VALIDATION_ERROR").errors[0].field)
      .toBe("targetNodeId")
    expect((await move({ sourceNodeId: "wait", targetNodeId: "inner" })).fails(400, "VALIDATION_ERROR").message)
      .toContain("within its scope")
    expect((await move({ sourceNodeId: "wait", targetNodeId: "b" })).fails(400, "VALIDATION_ERROR").message).toContain(
      "boundary event"
    )
    expect((await move({ sourceNodeId: "sub", targetNodeId: "e" })).fails(409, "CONFLICT").message).toContain(
      "no token is at sub"
    )
    ;(await move({ targetNodeId: "e" })).fails(400, "VALIDATION_ERROR")
    ;(await owner.post(`/process-instances/${instance.id}/suspend`)).ok()
    ;(await move({ sourceNodeId: "wait", targetNodeId: "e" })).fails(409, "CONFLICT")
    ;(await owner.post(`/process-instances/${instance.id}/resume`)).ok() // Moving the token into the subprocess node runs the subprocess; its boundary timer is withdrawn with the old task.
    ;(await move({ sourceNodeId: "wait", targetNodeId: "sub" })).ok()
    expect((await owner.get(`/process-instances/${instance.id}/event-subscriptions`)).ok()).toEqual([])
    const [inner] = await owner.tasks(`?processInstanceId=${instance.id}&state=CREATED`)
    expect(inner.nodeId).toBe("inner")
    ;(await owner.post("/process-instances/00000000-0000-4000-8000-000000000000/move-token", {
      sourceNodeId: "wait",
      targetNodeId: "e"
    })).fails(404, "RESOURCE_NOT_FOUND")
  })
})

describe("migration", () => {
  it("migrates waiting instances to a new version: jobs follow their nodes, new boundary events are armed, history records it", async () => {
    const owner = await (await givenTenant()).owner()
    const v1 = await owner.deploy(
      linear("order-flow", [{ id: "pack", type: "serviceTask", properties: { taskType: "pack-v1" } }])
    )
    const v2 = await owner.deploy(linear("order-flow", [
      { id: "pack2", type: "serviceTask", properties: { taskType: "pack-v2" } },
      { id: "check", type: "userTask", name: "Check" }
    ], [
      {
        id: "slow",
        type: "boundaryEvent",
        properties: { attachedTo: "pack2", cancelActivity: false, timeDuration: "PT2H" }
      },
      { id: "se", type: "endEvent" }
    ], [{ id: "fs", source: "slow", target: "se" }]))
    expect(v2.version).toBe(2)
    const first = await owner.start(v1.id, { n: 1 })
    const second = await owner.start(v1.id, { n: 2 })

    // Checked up front: nothing mapped -> 400 naming each instance's active node.
    const unmapped = (await owner.post("/process-instances/migrate", {
      processInstanceIds: [first.id, second.id],
      targetDeploymentId: v2.id
    })).fails(400, "VALIDATION_ERROR")
    expect(unmapped.errors).toHaveLength(2)
    expect(unmapped.errors[0]).toMatchObject({
      field: "mappings",
      message: expect.stringContaining("active node pack (serviceTask) is not mapped")
    })
    const wrongType = (await owner.post("/process-instances/migrate", {
      processInstanceIds: [first.id],
      targetDeploymentId: v2.id,
      mappings: [{ sourceNodeId: "pack", targetNodeId: "check" }]
    })).fails(400, "VALIDATION_ERROR")
    expect(wrongType.message).toContain("the types differ")
    expect((await owner.instance(first.id)).deploymentId).toBe(v1.id)

    const result = (await owner.post("/process-instances/migrate", {
      processInstanceIds: [first.id, second.id],
      targetDeploymentId: v2.id,
      mappings: [{ sourceNodeId: "pack", targetNodeId: "pack2" }]
    })).ok()
    expect(result).toMatchObject({ targetDeploymentId: v2.id, migratedCount: 2, failed: [] })
    const migrated = await owner.instance(first.id)
    expect(migrated).toMatchObject({ deploymentId: v2.id, version: 2, state: "ACTIVE" })
    const jobs = (await owner.get(`/jobs?processInstanceId=${first.id}`)).ok().items
    expect(jobs).toMatchObject([{ nodeId: "pack2", state: "ACTIVATABLE" }])
    expect((await owner.get(`/process-instances/${first.id}/event-subscriptions`)).ok()).toMatchObject([{
      kind: "TIMER",
      nodeId: "slow"
    }])
    const history: Array<HistoryEntry> = await owner.history(first.id)
    expect(history.find((e) => e.type === "InstanceMigrated")?.data).toMatchObject({
      targetDeploymentId: v2.id,
      mappings: { pack: "pack2" }
    })
    expect(history.find((e) => e.type === "TokenMigrated")).toMatchObject({
      nodeId: "pack2",
      data: { sourceNodeId: "pack" }
    })

    // The job (created by v1, type pack-v1) completes into v2's path.
    const [job] = await owner.activateJobs("pack-v1", { maxJobsToActivate: 1 })
    await owner.completeJob(job.id)
    const instanceOfJob = job.processInstanceId
    const [check] = await owner.tasks(`?processInstanceId=${instanceOfJob}&state=CREATED`)
    expect(check.nodeId).toBe("check")
    expect((await owner.get(`/process-instances/${instanceOfJob}/event-subscriptions`)).ok()).toEqual([])
  })

  it("migrates instances waiting at a message catch and at a parallel join; refuses another process and finished instances", async () => {
    const owner = await (await givenTenant()).owner()
    const model = (version: string) => ({
      id: "fork-join",
      nodes: [
        { id: "s", type: "startEvent" },
        { id: "fork", type: "parallelGateway" },
        {
          id: "paid",
          type: "intermediateCatchEvent",
          properties: { messageName: "paid", correlationKey: "= orderId" }
        },
        { id: "join", type: "parallelGateway" },
        { id: "finish", type: "serviceTask", properties: { taskType: `finish-${version}` } },
        { id: "e", type: "endEvent" }
      ],
      flows: [
        { id: "f1", source: "s", target: "fork" },
        { id: "f2", source: "fork", target: "paid" },
        { id: "f3", source: "fork", target: "join" },
        { id: "f4", source: "paid", target: "join" },
        { id: "f5", source: "join", target: "finish" },
        { id: "f6", source: "finish", target: "e" }
      ]
    })
    const v1 = await owner.deploy(model("v1"))
    const v2 = await owner.deploy(model("v2"))
    const other = await owner.deploy(linear("something-else", [{ id: "x", type: "userTask" }]))
    const instance = await owner.start(v1.id, { orderId: "M-1" })
    expect(
      (await owner.get(`/process-instances/${instance.id}/tokens`)).ok().map((t: { nodeId: string }) => t.nodeId).sort()
    ).toEqual(["join", "paid"])

    const otherProcess = (await owner.post("/process-instances/migrate", {
      processInstanceIds: [instance.id],
      targetDeploymentId: other.id,
      mapEqualNodes: true
    })).fails(400, "VALIDATION_ERROR")
    expect(otherProcess.errors[0].field).toBe("targetDeploymentId")
    ;(await owner.post("/process-instances/migrate", {
      processInstanceIds: [instance.id],
      targetDeploymentId: "00000000-0000-4000-8000-000000000000",
      mapEqualNodes: true
    })).fails(404, "RESOURCE_NOT_FOUND")

    expect(
      (await owner.post("/process-instances/migrate", {
        processInstanceIds: [instance.id],
        targetDeploymentId: v2.id,
        mapEqualNodes: true
      })).ok().migratedCount
    ).toBe(1)
    expect((await owner.post("/messages", { messageName: "paid", correlationKey: "M-1" })).ok(202).correlatedCount)
      .toBe(1)
    const [finish] = await owner.activateJobs("finish-v2")
    expect(finish.processInstanceId).toBe(instance.id)
    await owner.completeJob(finish.id)
    expect((await owner.instance(instance.id)).state).toBe("COMPLETED")
    const ended = (await owner.post("/process-instances/migrate", {
      processInstanceIds: [instance.id],
      targetDeploymentId: v1.id,
      mapEqualNodes: true
    })).fails(409, "CONFLICT")
    expect(ended.message).toContain("COMPLETED")
  })

  it("another tenant's instances and deployments are 404", async () => {
    const owner = await (await givenTenant()).owner()
    const stranger = await (await givenTenant()).owner()
    const v1 = await owner.deploy(linear("private-flow", [{ id: "t", type: "userTask" }]))
    const instance = await owner.start(v1.id)
    const theirs = await stranger.deploy(linear("private-flow", [{ id: "t", type: "userTask" }]))
    ;(await stranger.post("/process-instances/migrate", {
      processInstanceIds: [instance.id],
      targetDeploymentId: theirs.id,
      mapEqualNodes: true
    })).fails(404, "RESOURCE_NOT_FOUND")
    ;(await owner.post("/process-instances/migrate", {
      processInstanceIds: [instance.id],
      targetDeploymentId: theirs.id,
      mapEqualNodes: true
    })).fails(404, "RESOURCE_NOT_FOUND")
    ;(await stranger.post(`/process-instances/${instance.id}/move-token`, { sourceNodeId: "t", targetNodeId: "e" }))
      .fails(404, "RESOURCE_NOT_FOUND")
  })
})
