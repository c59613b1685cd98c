// Compensation of a multi-instance activity over HTTP: each completed inner instance is undone on its own, the last
// completed first, each handler job with the variables its inner instance had.
import { describe, expect, it } from "vitest"
import { definitions } from "../support/BpmnXml.ts"
import { givenTenant } from "../support/Scenario.ts"

const rooms = (sequential: boolean) =>
  definitions(`<bpmn:process id="rooms-${sequential ? "seq" : "par"}" isExecutable="true">
    <bpmn:startEvent id="start" />
    <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="book" />
    <bpmn:serviceTask id="book"><bpmn:extensionElements><zeebe:taskDefinition type="book-room" /></bpmn:extensionElements>
      <bpmn:multiInstanceLoopCharacteristics isSequential="${sequential}"><bpmn:extensionElements>
        <zeebe:loopCharacteristics inputCollection="=rooms" inputElement="room" /></bpmn:extensionElements>
      </bpmn:multiInstanceLoopCharacteristics>
    </bpmn:serviceTask>
    <bpmn:boundaryEvent id="book-comp" attachedToRef="book"><bpmn:compensateEventDefinition /></bpmn:boundaryEvent>
    <bpmn:serviceTask id="release" isForCompensation="true">
      <bpmn:extensionElements><zeebe:taskDefinition type="release-room" /></bpmn:extensionElements>
    </bpmn:serviceTask>
    <bpmn:association id="a" sourceRef="book-comp" targetRef="release" />
    <bpmn:sequenceFlow id="f2" sourceRef="book" targetRef="undo" />
    <bpmn:endEvent id="undo"><bpmn:compensateEventDefinition /></bpmn:endEvent>
  </bpmn:process>`)

type Owner = Awaited<ReturnType<Awaited<ReturnType<typeof givenTenant>>["owner"]>>

/** Releases every room, one handler job at a time, answering which room each job was for. */
const releaseAll = async (owner: Owner) => {
  const released: Array<unknown> = []
  for (;;) {
    const jobs = await owner.activateJobs("release-room", { maxJobsToActivate: 10 })
    if (jobs.length === 0) return released
    // one handler at a time: never two release jobs at once
    expect(jobs).toHaveLength(1)
    released.push([jobs[0].variables.room, jobs[0].variables.loopCounter])
    await owner.completeJob(jobs[0].id)
  }
}

describe("compensation of a multi-instance activity", () => {
  it("sequential: one handler per booked room, last booked first", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(rooms(true))
    const instance = await owner.start(deployment.id, { rooms: ["101", "102", "103"] })
    for (let i = 0; i < 3; i++) await owner.completeJob((await owner.activateJobs("book-room"))[0].id)
    expect(await releaseAll(owner)).toEqual([["103", 3], ["102", 2], ["101", 1]])
    expect((await owner.instance(instance.id)).state).toBe("COMPLETED")
  })

  it("parallel: in reverse order of completion, each with its own room", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(rooms(false))
    const instance = await owner.start(deployment.id, { rooms: ["101", "102", "103"] })
    const booked = await owner.activateJobs("book-room", { maxJobsToActivate: 10 })
    expect(booked).toHaveLength(3)
    const byRoom = (room: string) => booked.find((j: { variables: { room: string } }) => j.variables.room === room)
    for (const room of ["102", "103", "101"]) await owner.completeJob(byRoom(room).id)
    expect(await releaseAll(owner)).toEqual([["101", 1], ["103", 3], ["102", 2]])
    expect((await owner.instance(instance.id)).state).toBe("COMPLETED")
  })
})
