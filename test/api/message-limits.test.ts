// What POST /messages and POST /signals take, refused up front with a 400 naming the field: names, correlation keys
// and message ids no longer than a database index row holds (PostgreSQL refuses one over 2,704 bytes), and variables
// an instance could take (a name of 1 to 200 characters, 4 MiB as JSON) — else nothing would correlate them, silently.
// A correlation key a subscription computes is held to the same limit, with an incident where it is computed.
import { describe, expect, it } from "vitest"
import { send } from "../support/Client.ts"
import { type Caller, givenTenant } from "../support/Scenario.ts"

/**
 * Text that takes the most bytes an index can be handed for its length: CJK characters take 3 bytes each in UTF-8,
 * and spread out, as here, PostgreSQL cannot compress them.
 */
const wideText = (length: number, seed = 1): string =>
  Array.from({ length }, (_, i) => String.fromCharCode(0x4e00 + ((i + seed) * 7919) % 20902)).join("")

const waitsForMessage = (id: string, waiting: object) => ({
  id,
  nodes: [
    { id: "s", type: "startEvent" },
    { id: "before", type: "serviceTask", properties: { taskType: `${id}-before` } },
    { id: "wait", ...waiting },
    { id: "e", type: "endEvent" }
  ],
  flows: [
    { id: "f1", source: "s", target: "before" },
    { id: "f2", source: "before", target: "wait" },
    { id: "f3", source: "wait", target: "e" }
  ]
})

const openIncidents = async (caller: Caller, instanceId: string) =>
  (await caller.get(`/incidents?processInstanceId=${instanceId}`)).ok().items
    .filter((incident: { state: string }) => incident.state === "OPEN")

describe("message and signal names, correlation keys and message ids", () => {
  it("up to the limits, the widest text is kept; one character more is a 400 naming the field", async () => {
    const owner = await (await givenTenant()).owner()
    const buffered = (await owner.post("/messages", {
      messageName: wideText(400),
      correlationKey: wideText(400, 2),
      messageId: wideText(800, 3),
      timeToLive: 60_000
    })).ok(202)
    expect(buffered.buffered).toBe(true)

    for (
      const [body, field] of [
        [{ messageName: wideText(401), timeToLive: 60_000 }, "messageName"],
        [{ messageName: "m", correlationKey: wideText(401), timeToLive: 60_000 }, "correlationKey"],
        [{ messageName: "m", correlationKey: wideText(1000), timeToLive: 60_000 }, "correlationKey"],
        [{ messageName: "m", correlationKey: "k", messageId: wideText(801) }, "messageId"]
      ] as const
    ) {
      const refused = (await owner.post("/messages", body)).fails(400, "VALIDATION_ERROR")
      expect(refused.errors.map((e: { field: string }) => e.field)).toContain(field)
    }
    const signal = (await owner.post("/signals", { signalName: wideText(401) })).fails(400, "VALIDATION_ERROR")
    expect(signal.errors[0].field).toBe("signalName")
    expect((await owner.post("/signals", { signalName: wideText(400) })).ok(202).correlatedCount).toBe(0)

    const openapi = (await send(owner.app.baseUrl, "GET", "/v3/api-docs")).body
    const publish = JSON.stringify(openapi.components.schemas.PublishMessage)
    expect(publish).toContain("\"maxLength\":400")
    expect(publish).toContain("\"maxLength\":800")
  })

  it("a correlation key evaluated longer than the limit raises an incident at the catch event, not a failed job", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(waitsForMessage("long-key-catch", {
      type: "intermediateCatchEvent",
      properties: { messageName: "long-key-catch", correlationKey: "= key" }
    }))
    const instance = await owner.start(deployment.id, { key: wideText(1000) })
    const [job] = await owner.activateJobs("long-key-catch-before")
    await owner.completeJob(job.id)
    const [incident] = await openIncidents(owner, instance.id)
    expect(incident).toMatchObject({ nodeId: "wait", type: "EXTRACT_VALUE_ERROR" })
    expect(incident.message).toMatch(/correlation key of wait is 1000 characters long, over the limit of 400/)
    ;(await owner.post(`/incidents/${incident.id}/edit-variables-and-retry`, { variables: { key: "K-1" } })).ok()
    expect(
      (await owner.post("/messages", { messageName: "long-key-catch", correlationKey: "K-1" })).ok(202).correlatedCount
    ).toBe(1)
    expect((await owner.instance(instance.id)).state).toBe("COMPLETED")
  })

  it("so does a receive task's, and a message boundary event's on the activity it guards", async () => {
    const owner = await (await givenTenant()).owner()
    const receiving = await owner.deploy(waitsForMessage("long-key-receive", {
      type: "receiveTask",
      properties: { messageName: "long-key-receive", correlationKey: "= key" }
    }))
    const received = await owner.start(receiving.id, { key: wideText(401) })
    await owner.completeJob((await owner.activateJobs("long-key-receive-before"))[0].id)
    expect(await openIncidents(owner, received.id)).toMatchObject([{ nodeId: "wait", type: "EXTRACT_VALUE_ERROR" }])

    const guarded = await owner.deploy({
      id: "long-key-boundary",
      nodes: [
        { id: "s", type: "startEvent" },
        { id: "work", type: "serviceTask", properties: { taskType: "long-key-boundary-work" } },
        {
          id: "cancelled",
          type: "boundaryEvent",
          properties: { attachedTo: "work", messageName: "long-key-cancelled", correlationKey: "= key" }
        },
        { id: "e", type: "endEvent" },
        { id: "e2", type: "endEvent" }
      ],
      flows: [
        { id: "f1", source: "s", target: "work" },
        { id: "f2", source: "work", target: "e" },
        { id: "f3", source: "cancelled", target: "e2" }
      ]
    })
    const instance = await owner.start(guarded.id, { key: wideText(1000) })
    const [incident] = await openIncidents(owner, instance.id)
    expect(incident.type).toBe("EXTRACT_VALUE_ERROR")
    expect(incident.message).toMatch(/correlation key of cancelled is 1000 characters long/)
  })
})

describe("message and signal variables", () => {
  const waitsForKey = (id: string) =>
    waitsForMessage(id, { type: "intermediateCatchEvent", properties: { messageName: id, correlationKey: "= key" } })

  it("a variable name of 0 or over 200 characters, or variables over 4 MiB, are a 400 on variables; nothing is lost", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(waitsForKey("message-vars"))
    const instance = await owner.start(deployment.id, { key: "k1" })
    await owner.completeJob((await owner.activateJobs("message-vars-before"))[0].id)
    const tooBig = { big: "x".repeat(4 * 1024 * 1024) }
    for (const variables of [{ ["n".repeat(201)]: 1 }, { "": 1 }, tooBig]) {
      for (const timeToLive of [undefined, 60_000]) {
        const refused = (await owner.post("/messages", {
          messageName: "message-vars",
          correlationKey: "k1",
          variables,
          ...(timeToLive === undefined ? {} : { timeToLive })
        })).fails(400, "VALIDATION_ERROR")
        expect(refused.errors[0].field).toBe("variables")
      }
    }
    expect((await owner.get(`/process-instances/${instance.id}/event-subscriptions`)).ok()).toHaveLength(1)
    const tooLong = (await owner.post("/messages", {
      messageName: "message-vars",
      correlationKey: "k1",
      variables: { ["n".repeat(201)]: 1 }
    })).fails(400, "VALIDATION_ERROR")
    expect(tooLong.message).toMatch(/at most 200 characters, not 201/)
    const delivered = (await owner.post("/messages", {
      messageName: "message-vars",
      correlationKey: "k1",
      variables: { ["v".repeat(200)]: 1 }
    })).ok(202)
    expect(delivered.correlatedCount).toBe(1)
  })

  it("the same for a signal's variables", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(
      waitsForMessage("signal-vars", { type: "intermediateCatchEvent", properties: { signalName: "signal-vars" } })
    )
    await owner.start(deployment.id)
    await owner.completeJob((await owner.activateJobs("signal-vars-before"))[0].id)
    for (const variables of [{ ["n".repeat(250)]: 1 }, { "": 1 }, { big: "x".repeat(4 * 1024 * 1024) }]) {
      const refused = (await owner.post("/signals", { signalName: "signal-vars", variables }))
        .fails(400, "VALIDATION_ERROR")
      expect(refused.errors[0].field).toBe("variables")
    }
    expect(
      (await owner.post("/signals", { signalName: "signal-vars", variables: { fine: 1 } })).ok(202).correlatedCount
    )
      .toBe(1)
  })
})
