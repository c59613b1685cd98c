// Traces reach an OpenTelemetry collector: a local OTLP/HTTP receiver records what the service posts to /v1/traces,
// and a request's span, carrying its correlation id, has the instance command (and its commit) among its descendants.
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, describe, expect, it } from "vitest"
import { send } from "../support/Client.ts"
import { eventually } from "../support/Eventually.ts"
import { ADMIN_PASSWORD, bootApp } from "../support/TestApp.ts"

interface Span {
  readonly traceId: string
  readonly spanId: string
  readonly parentSpanId?: string
  readonly name: string
  readonly attributes: ReadonlyArray<{ readonly key: string; readonly value: { readonly stringValue?: string } }>
}

const received: Array<Span> = []
const collector = createServer((request, response) => {
  let body = ""
  request.on("data", (chunk: Buffer) => (body += chunk.toString()))
  request.on("end", () => {
    if (request.url === "/v1/traces") {
      const payload = JSON.parse(body) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: Array<Span> }> }> }
      for (const resource of payload.resourceSpans) {
        for (const scope of resource.scopeSpans) received.push(...scope.spans)
      }
    }
    response.writeHead(200, { "content-type": "application/json" }).end("{}")
  })
})
afterAll(() => collector.close())

describe("traces", () => {
  it("a request's span carries its correlation id and has the instance command and its commit below it", async () => {
    await new Promise<void>((resolve) => collector.listen(0, "127.0.0.1", resolve))
    const endpoint = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`
    const app = await bootApp({ otel: { endpoint, serviceName: "flowcore-traced" } })
    try {
      const login = (await send(app.baseUrl, "POST", "/api/v1/auth/login", {
        body: { username: "admin", password: ADMIN_PASSWORD }
      })).ok()
      const deployment = (await send(app.baseUrl, "POST", "/api/v1/deployments", {
        token: login.token,
        body: {
          id: "traced",
          nodes: [
            { id: "s", type: "startEvent" },
            { id: "t", type: "serviceTask", properties: { taskType: "traced" } },
            { id: "e", type: "endEvent" }
          ],
          flows: [{ id: "f1", source: "s", target: "t" }, { id: "f2", source: "t", target: "e" }]
        }
      })).ok(201)
      ;(await send(app.baseUrl, "POST", "/api/v1/process-instances", {
        token: login.token,
        body: { deploymentId: deployment.id },
        headers: { "x-correlation-id": "trace-me-1" }
      })).ok(201)
      const requestSpan = await eventually(async () => {
        const span = received.find((s) =>
          s.attributes.some((a) => a.key === "flowcore.correlation_id" && a.value.stringValue === "trace-me-1")
        )
        expect(span).toBeDefined()
        return span!
      }, { timeoutMs: 15_000, intervalMs: 100 })
      const below = (parent: Span): Array<Span> => {
        const children = received.filter((s) => s.parentSpanId === parent.spanId)
        return [...children, ...children.flatMap(below)]
      }
      await eventually(async () => {
        const names = below(requestSpan).map((s) => s.name)
        expect(names).toContain("flowcore.instance.command")
        expect(names).toContain("flowcore.instance.commit")
      }, { timeoutMs: 15_000, intervalMs: 100 })
    } finally {
      await app.runtime.dispose()
    }
  }, 60_000)
})
