// Hostile input: every case answers a 4xx in the failure envelope, naming the field, and the service stays healthy
// (each case is followed by a health check and by a normal call on the same instance). Limits: docs/api.md.
import { afterEach, describe, expect, it } from "vitest"
import { send } from "../support/Client.ts"
import { givenTenant } from "../support/Scenario.ts"
import { testApp } from "../support/TestApp.ts"

const oneTask = {
  id: "hostile",
  nodes: [
    { id: "start", type: "startEvent" },
    { id: "work", type: "serviceTask", properties: { taskType: "hostile-work" } },
    { id: "end", type: "endEvent" }
  ],
  flows: [{ id: "f1", source: "start", target: "work" }, { id: "f2", source: "work", target: "end" }]
}

const nestedArrays = (depth: number) => "[".repeat(depth) + "]".repeat(depth)
const nestedObjects = (depth: number) => "{\"a\":".repeat(depth) + "1" + "}".repeat(depth)

/** Sends a raw body (a string or bytes, not re-encoded by the test client). */
const raw = async (
  path: string,
  token: string,
  body: string | Uint8Array<ArrayBuffer>,
  contentType = "application/json"
) => {
  const app = await testApp()
  const response = await fetch(`${app.baseUrl}/api/v1${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": contentType },
    body
  })
  return { status: response.status, body: await response.json() as any }
}

afterEach(async () => {
  const app = await testApp()
  ;(await send(app.baseUrl, "GET", "/api/v1/health")).ok()
})

describe("hostile input", () => {
  it("text PostgreSQL cannot store is refused at the edge, naming the field; the instance is untouched", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(oneTask)
    const start = (variables: unknown) => owner.post("/process-instances", { deploymentId: deployment.id, variables })
    const nul = (await start({ note: "a\u0000b" })).fails(400, "VALIDATION_ERROR")
    expect(nul.errors[0]).toMatchObject({ field: "variables.note", code: "INVALID_TEXT" })
    expect((await start({ list: ["ok", "\ud800"] })).fails(400, "VALIDATION_ERROR").errors[0].field).toBe(
      "variables.list[1]"
    )
    expect((await start({ ["k\u0000"]: 1 })).fails(400, "VALIDATION_ERROR").errors[0].code).toBe("INVALID_TEXT")
    const instance = await owner.start(deployment.id, { note: "fine" })
    const update = await owner.put(`/process-instances/${instance.id}/variables`, { variables: { note: "\udc00 low" } })
    update.fails(400, "VALIDATION_ERROR")
    expect((await owner.instance(instance.id)).variables).toEqual({ note: "fine" }) // a well-formed pair of surrogates is ordinary text
    ;(await owner.put(`/process-instances/${instance.id}/variables`, { variables: { note: "😀" } })).ok()
    expect((await owner.instance(instance.id)).variables).toEqual({ note: "😀" })
  })

  it("deeply nested JSON is refused before it is parsed into anything", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(oneTask)
    for (
      const body of [
        nestedArrays(100_000),
        `{"deploymentId":"${deployment.id}","variables":{"v":${nestedObjects(5_000)}}}`
      ]
    ) {
      const reply = await raw("/process-instances", owner.token!, body)
      expect(reply.status).toBe(400)
      expect(reply.body).toMatchObject({
        success: false,
        errorCode: "BAD_REQUEST",
        errors: [{ field: "body", code: "TOO_DEEP" }]
      })
    }
    // within the limit it is fine
    const fine = await raw(
      "/process-instances",
      owner.token!,
      `{"deploymentId":"${deployment.id}","variables":{"v":${nestedObjects(40)}}}`
    )
    expect(fine.status).toBe(201)
  })

  it("a body that is not UTF-8 is 400, not stored with replacement characters", async () => {
    const owner = await (await givenTenant()).owner()
    const bytes = new Uint8Array([
      ...new TextEncoder().encode("{\"name\":\"caf"),
      0xe9,
      ...new TextEncoder().encode("\"}")
    ])
    const reply = await raw("/projects", owner.token!, bytes)
    expect(reply.status).toBe(400)
    expect(reply.body.errors[0]).toMatchObject({ field: "body", code: "INVALID_ENCODING" })
    expect((await owner.get("/projects")).ok().items).toHaveLength(0)
  })

  it("NUL in a name, a query filter or a path is 400", async () => {
    const owner = await (await givenTenant()).owner()
    expect((await owner.post("/projects", { name: "a\u0000b" })).fails(400, "VALIDATION_ERROR").errors[0].field).toBe(
      "name"
    )
    expect((await owner.get("/process-instances?processKey=a%00b")).fails(400, "VALIDATION_ERROR").errors[0].field)
      .toBe("query.processKey")
    ;(await owner.get("/process-instances?processKey=%E9")).fails(400, "BAD_REQUEST")
    ;(await owner.get("/projects/a%00b")).fails(400, "VALIDATION_ERROR")
  })

  it("variables over the instance's size budget are refused, naming the budget", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(oneTask)
    const instance = await owner.start(deployment.id)
    const big = "x".repeat(3 * 1024 * 1024)
    ;(await owner.put(`/process-instances/${instance.id}/variables`, { variables: { a: big } })).ok()
    const over = (await owner.put(`/process-instances/${instance.id}/variables`, { variables: { b: big } })).fails(
      400,
      "VALIDATION_ERROR"
    )
    expect(over.errors[0].field).toBe("variables")
    expect(Object.keys((await owner.instance(instance.id)).variables)).toEqual(["a"])
  })

  it("headers over Node's size limit get the failure envelope", async () => {
    const app = await testApp()
    const response = await fetch(`${app.baseUrl}/api/v1/health`, {
      headers: { authorization: `Bearer ${"x".repeat(100_000)}` }
    })
    expect(response.status).toBe(431)
    expect(await response.json()).toMatchObject({ success: false, errorCode: "BAD_REQUEST" })
  })
})

describe("hostile FEEL, regular expressions and scripts", () => {
  it("/feel/evaluate answers a fast 400 naming the expression for work over the budget", async () => {
    const caller = await (await givenTenant()).taskUser()
    const hostile = [
      "count(for x in 1..10000, y in 1..10000 return 1)",
      "{ f: function(n) f(n + 1), r: f(1) }.r",
      "(".repeat(100_000) + "1" + ")".repeat(100_000),
      "{a:".repeat(5_000) + "1" + "}".repeat(5_000),
      `{ ${Array.from({ length: 30 }, (_, i) => `s${i + 1}: s${i} + s${i}`).join(", ")} }.s30`
    ]
    for (const expression of hostile) {
      const reply = (await caller.post("/feel/evaluate", { expression, context: { s0: "0123456789" } })).fails(
        400,
        "VALIDATION_ERROR"
      )
      expect(reply.errors[0].field).toBe("expression")
    }
    // catastrophic backtracking patterns run on the automaton: an ordinary answer
    const regex = (await caller.post("/feel/evaluate", { expression: `matches("${"a".repeat(30)}!", "^(a+)+$")` })).ok()
    expect(regex).toEqual({ result: false })
    expect(
      (await caller.post("/feel/evaluate", { expression: `replace("${"a".repeat(40)}b", "(a|aa)+$", "x")` })).ok()
        .result
    ).toBe(`${"a".repeat(40)}b`)
  })

  it("a script task over the budget raises an incident; a gateway condition too", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy({
      id: "hostile-script",
      nodes: [
        { id: "start", type: "startEvent" },
        {
          id: "script",
          type: "scriptTask",
          properties: { script: "= count(for x in 1..10000, y in 1..10000 return 1)", resultVariable: "n" }
        },
        { id: "end", type: "endEvent" }
      ],
      flows: [{ id: "f1", source: "start", target: "script" }, { id: "f2", source: "script", target: "end" }]
    })
    const instance = await owner.start(deployment.id)
    expect((await owner.instance(instance.id)).incidentCount).toBe(1)
    const incidents = (await owner.get(`/incidents?processInstanceId=${instance.id}`)).ok().items
    // Whichever budget runs out first (the step count; on a very busy machine the wall time).
    expect(incidents[0].message).toMatch(/FEEL evaluation stopped: .*(steps| ms)/)
  })

  it("a form pattern that backtracks catastrophically is checked in linear time by the playground", async () => {
    const owner = await (await givenTenant()).owner()
    const schema = {
      type: "default",
      components: [{ type: "textfield", key: "code", id: "c1", label: "Code", validate: { pattern: "(a+)+" } }]
    }
    const created = (await owner.post("/form-definitions", { name: "Evil", schema })).ok(201)
    const result =
      (await owner.post(`/form-definitions/${created.id}/playground`, { data: { code: `${"a".repeat(40)}!` } })).ok()
    expect(result.errors).toEqual([{ key: "code", message: "does not match (a+)+" }])
  })
})
