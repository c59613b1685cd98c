// Values past what the database can hold (bpmn/StoredRanges.ts): a job's retries past its integer column, a message
// kept longer than ten years, a timer due outside the years 1 to 9999 — each refused up front with a 400 naming the
// field or the element, or (a FEEL timer) an incident where the token arrives; never a 500, nor a message that its
// entity is handed again for ever.
import { describe, expect, it } from "vitest"
import { BatchRunner } from "../../src/cluster/BatchRunner.ts"
import { definitions } from "../support/BpmnXml.ts"
import { type Caller, givenTenant } from "../support/Scenario.ts"

const MAX_INT = 2_147_483_647
const MAX_SAFE = 9_007_199_254_740_991
const WEEK = 7 * 24 * 3_600_000

const oneTask = (id: string) => ({
  id,
  nodes: [
    { id: "s", type: "startEvent" },
    { id: "work", type: "serviceTask", properties: { taskType: `${id}-work` } },
    { id: "e", type: "endEvent" }
  ],
  flows: [{ id: "f1", source: "s", target: "work" }, { id: "f2", source: "work", target: "e" }]
})

const fieldsOf = (body: { errors: ReadonlyArray<{ field: string }> }) => body.errors.map((e) => e.field).join(" ")

const jobOf = async (owner: Caller, key: string) => {
  const deployment = await owner.deploy(oneTask(key))
  await owner.start(deployment.id)
  const [job] = await owner.activateJobs(`${key}-work`)
  return job
}

describe("a job's retries", () => {
  it("past the integer column are 400 naming the field: fail, retries, retry policy, batch", async () => {
    const tenant = await givenTenant()
    const owner = await tenant.owner()
    const job = await jobOf(owner, "big-retries")
    const refused = (await owner.post(`/jobs/${job.id}/fail`, { retries: MAX_INT + 1 })).fails(400, "VALIDATION_ERROR")
    expect(fieldsOf(refused)).toContain("retries")
    expect((await owner.get(`/jobs/${job.id}/retry`)).ok().state).toBe("ACTIVATED")
    ;(await owner.post(`/jobs/${job.id}/fail`, { retries: 0, errorMessage: "dead" })).ok()
    for (
      const [path, body] of [
        ["retries", { retries: MAX_INT + 1 }],
        ["retries", { retries: MAX_SAFE }],
        ["retry", { policy: { backoff: "FIXED", delay: 1 }, retries: MAX_SAFE }]
      ] as const
    ) {
      expect(fieldsOf((await owner.post(`/jobs/${job.id}/${path}`, body)).fails(400, "VALIDATION_ERROR"))).toContain(
        "retries"
      )
    }
    const batch = (await owner.post("/batch-operations", { type: "RETRY", targetIds: [job.id], retries: MAX_SAFE }))
      .fails(400, "VALIDATION_ERROR")
    expect(fieldsOf(batch)).toContain("retries")
    expect((await owner.get(`/jobs/${job.id}/retry`)).ok().state).toBe("FAILED")

    // the largest the column holds is taken
    expect((await owner.post(`/jobs/${job.id}/retries`, { retries: MAX_INT })).ok()).toMatchObject({
      state: "ACTIVATABLE",
      retries: MAX_INT
    })
    const [again] = await owner.activateJobs("big-retries-work")
    expect((await owner.post(`/jobs/${again.id}/fail`, { retries: MAX_INT })).ok().retries).toBe(MAX_INT)
    const viaBatch = (await owner.post("/batch-operations", { type: "RETRY", targetIds: [job.id], retries: MAX_INT }))
      .ok(202)
    await tenant.app.runtime.runPromise(BatchRunner.use((runner) => runner.flush))
    expect((await owner.get(`/batch-operations/${viaBatch.id}`)).ok()).toMatchObject({
      state: "COMPLETED",
      succeeded: 1
    })
  }, 30_000)

  it("an exponential policy without maxDelay waits at most a week, however many failures", async () => {
    const tenant = await givenTenant()
    const owner = await tenant.owner()
    const job = await jobOf(owner, "steep-policy")
    ;(await owner.post(`/jobs/${job.id}/retry`, {
      policy: { backoff: "EXPONENTIAL", delay: WEEK, multiplier: 10 },
      retries: 100
    })).ok()
    // the 10th failure would wait 7 days × 10^9: past any date there is
    for (let attempt = 1; attempt <= 10; attempt++) {
      ;(await owner.post(`/jobs/${job.id}/fail`, { errorMessage: `attempt ${attempt}` })).ok()
    }
    const retry = (await owner.get(`/jobs/${job.id}/retry`)).ok()
    expect(retry).toMatchObject({ attempts: 10, waiting: true, retries: 90 })
    expect(Date.parse(retry.nextRetryAt) - tenant.app.clock.nowMillis()).toBeLessThanOrEqual(WEEK)
  }, 30_000)

  it("in a model, past the integer column or not whole, are refused at deploy naming the element", async () => {
    const owner = await (await givenTenant()).owner()
    const withRetries = (retries: string) =>
      definitions(`<bpmn:process id="model-retries" isExecutable="true">
        <bpmn:startEvent id="s"/><bpmn:sequenceFlow id="f1" sourceRef="s" targetRef="work"/>
        <bpmn:serviceTask id="work"><bpmn:extensionElements>
          <zeebe:taskDefinition type="model-retries-work" retries="${retries}"/>
        </bpmn:extensionElements></bpmn:serviceTask>
        <bpmn:sequenceFlow id="f2" sourceRef="work" targetRef="e"/><bpmn:endEvent id="e"/>
      </bpmn:process>`)
    const deploy = (xml: string) => owner.call("POST", "/deployments", { rawBody: xml, contentType: "application/xml" })
    for (const retries of ["99999999999", "2147483648", "2.5"]) {
      const refused = (await deploy(withRetries(retries))).fails(400, "VALIDATION_ERROR")
      expect(refused.errors[0]).toMatchObject({ field: "work", message: expect.stringContaining("retries") })
    }
    const json = { ...oneTask("json-retries") }
    json.nodes[1] = { ...json.nodes[1]!, properties: { taskType: "json-retries-work", retries: MAX_INT + 1 } as never }
    expect((await owner.post("/deployments", json)).fails(400, "VALIDATION_ERROR").errors[0].field).toBe("work")
    const deployed = (await deploy(withRetries(String(MAX_INT)))).ok(201)
    await owner.start(deployed.id)
    const [job] = await owner.activateJobs("model-retries-work")
    expect(job.retries).toBe(MAX_INT)
  })
})

describe("a message's timeToLive", () => {
  it("over ten years is 400 naming it, in milliseconds or as a duration; ten years are kept", async () => {
    const owner = await (await givenTenant()).owner()
    for (const timeToLive of [MAX_SAFE, 315_360_000_001, "PT999999999999999999999S", "P3651D"]) {
      const refused = (await owner.post("/messages", { messageName: "kept-long", timeToLive })).fails(
        400,
        "VALIDATION_ERROR"
      )
      expect(fieldsOf(refused)).toContain("timeToLive")
    }
    for (const timeToLive of [315_360_000_000, "P3650D"]) {
      expect((await owner.post("/messages", { messageName: "kept-long", timeToLive })).ok(202).buffered).toBe(true)
    }
  })
})

const waitThenWork = (timer: Record<string, string>) => ({
  id: "far-timer",
  nodes: [
    { id: "s", type: "startEvent" },
    { id: "wait", type: "intermediateCatchEvent", properties: timer },
    { id: "work", type: "serviceTask", properties: { taskType: "far-timer-work" } },
    { id: "e", type: "endEvent" }
  ],
  flows: [{ id: "f1", source: "s", target: "wait" }, { id: "f2", source: "wait", target: "work" }, {
    id: "f3",
    source: "work",
    target: "e"
  }]
})

const timerBoundary = (timer: Record<string, string>, cancelActivity = true) => ({
  id: "far-boundary",
  nodes: [
    { id: "s", type: "startEvent" },
    { id: "work", type: "serviceTask", properties: { taskType: "far-boundary-work" } },
    { id: "late", type: "boundaryEvent", properties: { attachedTo: "work", cancelActivity, ...timer } },
    { id: "e1", type: "endEvent" },
    { id: "e2", type: "endEvent" }
  ],
  flows: [
    { id: "f1", source: "s", target: "work" },
    { id: "f2", source: "work", target: "e1" },
    { id: "f3", source: "late", target: "e2" }
  ]
})

const timerStart = (timer: Record<string, string>) => ({
  id: "far-start",
  nodes: [{ id: "tick", type: "startEvent", properties: timer }, { id: "e", type: "endEvent" }],
  flows: [{ id: "f1", source: "tick", target: "e" }]
})

const catchXml = (definition: string) =>
  definitions(`<bpmn:process id="far-xml" isExecutable="true">
    <bpmn:startEvent id="s"/><bpmn:sequenceFlow id="f1" sourceRef="s" targetRef="wait"/>
    <bpmn:intermediateCatchEvent id="wait"><bpmn:timerEventDefinition>${definition}</bpmn:timerEventDefinition>
    </bpmn:intermediateCatchEvent>
    <bpmn:sequenceFlow id="f2" sourceRef="wait" targetRef="e"/><bpmn:endEvent id="e"/>
  </bpmn:process>`)

describe("timers outside the years 1 to 9999", () => {
  it("a literal one is refused at deploy naming its element: catch, boundary, start event, cycle", async () => {
    const owner = await (await givenTenant()).owner()
    const refusedAt = async (model: object | string, element: string) => {
      const reply = typeof model === "string"
        ? await owner.call("POST", "/deployments", { rawBody: model, contentType: "application/xml" })
        : await owner.post("/deployments", model)
      const refused = reply.fails(400, "VALIDATION_ERROR")
      expect(refused.errors[0].field, JSON.stringify(refused)).toBe(element)
      expect(refused.message).toMatch(/years 1 to 9999|at most 1,000 years|not an ISO 8601 date-time/)
    }
    await refusedAt(catchXml("<bpmn:timeDuration>P99999999999Y</bpmn:timeDuration>"), "wait")
    await refusedAt(catchXml("<bpmn:timeDuration>PT999999999999999999999S</bpmn:timeDuration>"), "wait")
    await refusedAt(catchXml("<bpmn:timeDate>0000-01-01T00:00:00Z</bpmn:timeDate>"), "wait")
    await refusedAt(waitThenWork({ timeDate: "+010000-01-01T00:00:00Z" }), "wait")
    await refusedAt(waitThenWork({ timeDate: "2026-02-30T00:00:00Z" }), "wait")
    await refusedAt(timerBoundary({ timeDuration: "P99999999999Y" }), "late")
    await refusedAt(timerBoundary({ timeDate: "0000-01-01T00:00:00Z" }), "late")
    await refusedAt(timerBoundary({ timeCycle: "R5/P99999999999Y" }, false), "late")
    await refusedAt(timerBoundary({ timeCycle: "R2/0000-01-01T00:00:00Z/PT1S" }, false), "late")
    await refusedAt(timerStart({ timeDuration: "PT999999999999999999999S" }), "tick")
    await refusedAt(timerStart({ timeDate: "0000-01-01T00:00:00Z" }), "tick")
    await refusedAt(timerStart({ timeCycle: "R/P99999999999Y" }), "tick")
    // a duration that fits the range only when counted from 1970, not from now
    await refusedAt(catchXml("<bpmn:timeDuration>P8000Y</bpmn:timeDuration>"), "wait")
    await refusedAt(timerBoundary({ timeCycle: "R2/P8000Y" }, false), "late")
    ;(await owner.post("/deployments", waitThenWork({ timeDuration: "P1000Y" }))).ok(201) // the first and the last instant of the range are fine
    ;(await owner.post("/deployments", waitThenWork({ timeDate: "9999-12-31T23:59:59Z" }))).ok(201)
    ;(await owner.post("/deployments", timerBoundary({ timeDate: "0001-01-01T00:00:00Z" }))).ok(201)
  })

  it("a FEEL one that evaluates out of range raises an incident at the element, as a malformed value does", async () => {
    const owner = await (await givenTenant()).owner()
    const incidentsOf = async (deploymentId: string, variables: Record<string, unknown>) => {
      const instance = await owner.start(deploymentId, variables)
      expect(instance.incidentCount).toBe(1)
      return (await owner.get(`/incidents?processInstanceId=${instance.id}`)).ok().items
    }
    const waiting = await owner.deploy(waitThenWork({ timeDuration: "= d" }))
    for (const d of ["P99999999999Y", "PT999999999999999999999S", "zzz", "-PT5S"]) {
      const [incident] = await incidentsOf(waiting.id, { d })
      expect(incident).toMatchObject({ nodeId: "wait", type: "EXTRACT_VALUE_ERROR" })
    }
    const [far] = await incidentsOf(waiting.id, { d: "P99999999999Y" })
    expect(far.message).toMatch(/outside the years 1 to 9999/)
    const dated = await owner.deploy(waitThenWork({ timeDate: "= d" }))
    expect((await incidentsOf(dated.id, { d: "0000-01-01T00:00:00Z" }))[0]).toMatchObject({
      nodeId: "wait",
      type: "EXTRACT_VALUE_ERROR",
      message: expect.stringMatching(/outside the years 1 to 9999/)
    })
    const boundary = await owner.deploy(timerBoundary({ timeDuration: "= d" }))
    expect((await incidentsOf(boundary.id, { d: "P99999999999Y" }))[0].type).toBe("EXTRACT_VALUE_ERROR")
    const cycle = await owner.deploy(timerBoundary({ timeCycle: "= c" }, false))
    expect((await incidentsOf(cycle.id, { c: "R5/P99999999999Y" }))[0].type).toBe("EXTRACT_VALUE_ERROR")
    // in range, the same models wait
    const fine = await owner.start(waiting.id, { d: "PT1H" })
    expect(fine.incidentCount).toBe(0)
    expect((await owner.get(`/process-instances/${fine.id}/event-subscriptions`)).ok()).toHaveLength(1)
  })
})

describe("timer cycles repeating more often than once a second", () => {
  it("a literal one is refused at deploy naming its element; once a second, and cron's finest, are fine", async () => {
    const owner = await (await givenTenant()).owner()
    for (
      const [model, element] of [
        [timerStart({ timeCycle: "R/PT0.001S" }), "tick"],
        [timerStart({ timeCycle: "R5/2030-01-01T00:00:00Z/PT0.999S" }), "tick"],
        [timerBoundary({ timeCycle: "R/PT0.5S" }, false), "late"]
      ] as const
    ) {
      const refused = (await owner.post("/deployments", model)).fails(400, "VALIDATION_ERROR")
      expect(refused.errors[0].field).toBe(element)
      expect(refused.message).toMatch(/repeats too often: its interval must be at least 1 second/)
    }
    ;(await owner.post("/deployments", timerStart({ timeCycle: "R/PT1S" }))).ok(201)
    ;(await owner.post("/deployments", timerBoundary({ timeCycle: "R/PT1S" }, false))).ok(201)
    ;(await owner.post("/deployments", timerStart({ timeCycle: "* * * * * *" }))).ok(201)
  })

  it("a FEEL one raises an incident at the element, as other bad timer values do", async () => {
    const owner = await (await givenTenant()).owner()
    const cycle = await owner.deploy(timerBoundary({ timeCycle: "= c" }, false))
    const instance = await owner.start(cycle.id, { c: "R/PT0.001S" })
    expect(instance.incidentCount).toBe(1)
    const [incident] = (await owner.get(`/incidents?processInstanceId=${instance.id}`)).ok().items
    // raised where the boundary's timer is armed: at its activity, as for any bad boundary timer
    expect(incident).toMatchObject({ nodeId: "work", type: "EXTRACT_VALUE_ERROR" })
    expect(incident.message).toMatch(/repeats too often/)
    expect((await owner.start(cycle.id, { c: "R/PT1S" })).incidentCount).toBe(0)
  })
})

describe("date-times outside the years 1 to 9999", () => {
  it("in a query, a task's dates or a model's task schedule are 400 naming the field or the element", async () => {
    const tenant = await givenTenant()
    const owner = await tenant.owner()
    const admin = await tenant.as("ADMIN")
    const userTask = (properties: Record<string, string>) => ({
      id: "far-dates",
      nodes: [{ id: "s", type: "startEvent" }, { id: "task", type: "userTask", properties }, {
        id: "e",
        type: "endEvent"
      }],
      flows: [{ id: "f1", source: "s", target: "task" }, { id: "f2", source: "task", target: "e" }]
    })
    const deployment = await owner.deploy(userTask({ assignee: "ann" }))
    const instance = await owner.start(deployment.id)
    const [task] = (await owner.get(`/tasks?processInstanceId=${instance.id}`)).ok().items
    // out of range, or a day the calendar does not have (JavaScript reads the 30th of February as the 2nd of March)
    for (
      const date of [
        "0000-01-01T00:00:00Z",
        "+010000-01-01T00:00:00Z",
        "-000001-01-01T00:00:00Z",
        "2026-02-30T00:00:00Z",
        "2027-04-31T12:00:00+02:00"
      ]
    ) {
      const q = encodeURIComponent(date)
      for (
        const [caller, path, field] of [
          [owner, `/tasks?dueBefore=${q}`, "dueBefore"],
          [owner, `/insights?from=${q}`, "from"],
          [admin, `/audit-events?to=${q}`, "to"]
        ] as const
      ) {
        expect(fieldsOf((await caller.get(path)).fails(400, "VALIDATION_ERROR"))).toContain(field)
      }
      const patched = (await owner.patch(`/tasks/${task.id}`, { dueDate: date })).fails(400, "VALIDATION_ERROR")
      expect(patched.message).toContain("dueDate")
      const refused = (await owner.post("/deployments", userTask({ dueDate: date }))).fails(400, "VALIDATION_ERROR")
      expect(refused.errors[0].field).toBe("task")
    }
    expect((await owner.patch(`/tasks/${task.id}`, { dueDate: "9999-12-31T23:59:59Z" })).ok().dueDate).toBe(
      "9999-12-31T23:59:59.000Z"
    )
    expect((await owner.get(`/tasks?dueBefore=0001-01-01T00:00:00Z`)).ok().items).toEqual([])
  })
})
