// Connectors and connections through HTTP, and the connector runtime calling a real (local) HTTP endpoint.
import { createServer, type IncomingMessage, type Server } from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ConnectorRunner } from "../../src/actors/ConnectorRunner.ts"
import { type Caller, givenTenant, type Tenant } from "../support/Scenario.ts"

interface Received {
  readonly method: string
  readonly url: string
  readonly authorization: string | undefined
  readonly body: string
}
const received: Array<Received> = []
let server: Server
let baseUrl = ""

beforeAll(async () => {
  server = createServer((request: IncomingMessage, response) => {
    let body = ""
    request.on("data", (chunk) => (body += chunk))
    request.on("end", () => {
      received.push({
        method: request.method ?? "",
        url: request.url ?? "",
        authorization: request.headers.authorization,
        body
      })
      if (request.url?.startsWith("/fail")) {
        response.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ error: "bad order" }))
        return
      }
      response.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({ accepted: true, echo: body === "" ? null : JSON.parse(body) })
      )
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.address()
  baseUrl = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

const connectorProcess = (id: string, path: string) => ({
  id,
  nodes: [
    { id: "s", type: "startEvent" },
    {
      id: "call",
      type: "serviceTask",
      properties: {
        taskType: "io.flowcore:http-json:1",
        retries: 1,
        headers: { connection: "orders-api", method: "POST", path, resultVariable: "reply" },
        inputMappings: [{ source: "= { order: orderId }", target: "body" }]
      }
    },
    { id: "after", type: "userTask" },
    { id: "e", type: "endEvent" }
  ],
  flows: [{ id: "f1", source: "s", target: "call" }, { id: "f2", source: "call", target: "after" }, {
    id: "f3",
    source: "after",
    target: "e"
  }]
})

const runConnectors = (tenant: Tenant) => tenant.app.runtime.runPromise(ConnectorRunner.use((runner) => runner.runOnce))

const createConnection = (owner: Caller, config: Record<string, unknown>) =>
  owner.post("/connections", { name: "orders-api", connectorType: "io.flowcore:http-json:1", config })

describe("connectors", () => {
  it("lists the connector types; a connection hides its secrets and says what it lacks", async () => {
    const tenant = await givenTenant()
    const owner = await tenant.owner()
    const types = (await owner.get("/connectors")).ok()
    expect(types.map((t: { type: string }) => t.type)).toContain("io.flowcore:http-json:1")
    const incomplete = (await createConnection(owner, { authType: "bearer" })).ok(201)
    expect((await owner.post(`/connections/${incomplete.id}/test`)).ok()).toMatchObject({
      complete: false,
      problems: [{ field: "config.baseUrl", message: "is required" }, {
        field: "config.token",
        message: "is required for bearer authentication"
      }]
    })
    const updated =
      (await owner.put(`/connections/${incomplete.id}`, { config: { baseUrl, authType: "bearer", token: "s3cret" } }))
        .ok()
    expect(updated.config).toEqual({ baseUrl, authType: "bearer", token: "********" }) // Sending the mask back keeps the saved secret.
    ;(await owner.put(`/connections/${incomplete.id}`, { config: { ...updated.config, timeoutMs: 5000 } })).ok()
    expect((await owner.post(`/connections/${incomplete.id}/test`)).ok()).toEqual({
      connectionId: incomplete.id,
      complete: true,
      problems: []
    })
    ;(await createConnection(owner, {})).fails(409, "CONFLICT")
    ;(await owner.post("/connections", { name: "x", connectorType: "io.nowhere:1", config: {} })).fails(
      400,
      "VALIDATION_ERROR"
    )
    expect((await owner.post(`/connections/${incomplete.id}/disable`)).ok().enabled).toBe(false)
    expect((await owner.get("/connections?enabled=false")).ok().items).toHaveLength(1)
    ;(await (await (await givenTenant()).owner()).get(`/connections/${incomplete.id}`)).fails(404, "RESOURCE_NOT_FOUND")
    ;(await (await tenant.taskUser()).post("/connections", {
      name: "y",
      connectorType: "io.flowcore:http-json:1",
      config: {}
    })).fails(403, "FORBIDDEN")
    expect((await owner.delete(`/connections/${incomplete.id}`)).ok().id).toBe(incomplete.id)
    ;(await owner.get(`/connections/${incomplete.id}`)).fails(404, "RESOURCE_NOT_FOUND")
  })

  it("a connector task calls the endpoint with the connection's credentials and the mapped body; the answer becomes a variable", async () => {
    const tenant = await givenTenant()
    const owner = await tenant.owner()
    await createConnection(owner, { baseUrl, authType: "bearer", token: "t-123" })
    const deployment = await owner.deploy(connectorProcess("connector-ok", "/orders"))
    const instance = await owner.start(deployment.id, { orderId: "C-1" })
    await runConnectors(tenant)
    const call = received.find((r) => r.body.includes("C-1"))
    expect(call).toMatchObject({ method: "POST", url: "/orders", authorization: "Bearer t-123" })
    expect(JSON.parse(call!.body)).toEqual({ order: "C-1" })
    expect((await owner.instance(instance.id)).variables["reply"]).toMatchObject({
      status: 200,
      body: { accepted: true, echo: { order: "C-1" } }
    })
    expect((await owner.tasks(`?processInstanceId=${instance.id}&state=CREATED`))[0].nodeId).toBe("after")
  })

  it("an error answer or a disabled connection dead-letters the job into an incident, fixed by enabling and retrying", async () => {
    const tenant = await givenTenant()
    const owner = await tenant.owner()
    const connection = (await createConnection(owner, { baseUrl })).ok(201)
    const failing = await owner.deploy(connectorProcess("connector-fail", "/fail"))
    const bad = await owner.start(failing.id, { orderId: "C-2" })
    await runConnectors(tenant)
    const [incident] = (await owner.get(`/incidents?processInstanceId=${bad.id}`)).ok().items
    expect(incident).toMatchObject({ type: "JOB_NO_RETRIES", message: expect.stringContaining("answered 400") })
    ;(await owner.post(`/connections/${connection.id}/disable`)).ok()
    const good = await owner.deploy(connectorProcess("connector-later", "/orders"))
    const waiting = await owner.start(good.id, { orderId: "C-3" })
    await runConnectors(tenant)
    const [disabled] = (await owner.get(`/incidents?processInstanceId=${waiting.id}`)).ok().items
    expect(disabled.message).toContain("is disabled")
    ;(await owner.post(`/connections/${connection.id}/enable`)).ok()
    ;(await owner.post(`/incidents/${disabled.id}/retry`)).ok()
    await runConnectors(tenant)
    expect((await owner.instance(waiting.id)).variables["reply"]).toMatchObject({ status: 200 })
  })

  it("a model from Camunda's REST connector template runs unchanged (io.camunda:http-json:1)", async () => {
    const tenant = await givenTenant()
    const owner = await tenant.owner()
    const template = (id: string, path: string, headers: Record<string, string>) => ({
      id,
      nodes: [
        { id: "s", type: "startEvent" },
        {
          id: "rest",
          type: "serviceTask",
          properties: {
            taskType: "io.camunda:http-json:1",
            retries: 1,
            headers,
            inputMappings: [
              { source: "=\"bearer\"", target: "authentication.type" },
              { source: "=\"camunda-t0k\"", target: "authentication.token" },
              { source: "=\"POST\"", target: "method" },
              { source: `="${baseUrl}${path}"`, target: "url" },
              { source: "={ priority: \"high\" }", target: "queryParameters" },
              { source: "={ order: orderId }", target: "body" }
            ]
          }
        },
        { id: "notFound", type: "boundaryEvent", properties: { attachedTo: "rest", errorCode: "REJECTED" } },
        { id: "after", type: "userTask" },
        { id: "e", type: "endEvent" },
        { id: "rejected", type: "endEvent" }
      ],
      flows: [
        { id: "f1", source: "s", target: "rest" },
        { id: "f2", source: "rest", target: "after" },
        { id: "f3", source: "after", target: "e" },
        { id: "f4", source: "notFound", target: "rejected" }
      ]
    })
    const ok = await owner.deploy(template("camunda-rest", "/orders", {
      resultVariable: "apiResponse",
      resultExpression: "={ accepted: response.body.accepted, echoed: response.body.echo.order }"
    }))
    const instance = await owner.start(ok.id, { orderId: "CAM-1" })
    await runConnectors(tenant)
    const call = received.find((r) => r.body.includes("CAM-1"))!
    expect(call).toMatchObject({ method: "POST", url: "/orders?priority=high", authorization: "Bearer camunda-t0k" })
    const variables = (await owner.instance(instance.id)).variables
    expect(variables).toMatchObject({
      accepted: true,
      echoed: "CAM-1",
      apiResponse: { status: 200, body: { accepted: true } }
    })

    // errorExpression maps the 400 to a BPMN error that the boundary event catches
    const failing = await owner.deploy(template("camunda-rest-fail", "/fail", {
      errorExpression: "=if error.code = \"400\" then { code: \"REJECTED\", message: response.body.error } else null"
    }))
    const rejected = await owner.start(failing.id, { orderId: "CAM-2" })
    await runConnectors(tenant)
    expect((await owner.instance(rejected.id)).state).toBe("COMPLETED")
    expect((await owner.history(rejected.id)).map((e: { type: string }) => e.type)).toContain("JobErrorThrown")
  })
})
