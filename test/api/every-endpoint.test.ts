// Rules that hold for every operation of the API, checked by walking the OpenAPI document (so new endpoints are
// covered without new tests): role-restricted operations refuse a caller without the role (403, before anything
// else), and reads/deletes by id answer 404 RESOURCE_NOT_FOUND — never 500 — for ids the caller's tenant lacks.
import { randomUUID } from "node:crypto"
import { describe, expect, it } from "vitest"
import { send } from "../support/Client.ts"
import { givenTenant } from "../support/Scenario.ts"
import { testApp } from "../support/TestApp.ts"

interface Operation {
  readonly method: string
  readonly path: string
  readonly roles: ReadonlyArray<string>
}

const operations = async (): Promise<ReadonlyArray<Operation>> => {
  const spec = (await send((await testApp()).baseUrl, "GET", "/v3/api-docs")).body
  return Object.entries(spec.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => ["get", "post", "put", "patch", "delete"].includes(method))
      .map(([method, operation]) => ({
        method: method.toUpperCase(),
        path,
        roles: operation["x-required-roles"] as Array<string>
      }))
  )
}

const fill = (path: string) => path.replace(/\{[^}]+\}/g, () => randomUUID())

describe("every endpoint", () => {
  it("refuses a TASK_USER with 403 wherever the access policy asks for another role", async () => {
    const taskUser = await (await givenTenant()).taskUser()
    const restricted = (await operations()).filter((op) =>
      op.roles.length > 0 && !op.roles.includes("TASK_USER") && !op.roles.includes("ANY_AUTHENTICATED")
    )
    expect(restricted.length).toBeGreaterThan(20)
    for (const op of restricted) {
      const reply = await taskUser.call(
        op.method,
        fill(op.path).replace(/^\/api\/v1/, ""),
        op.method === "GET" || op.method === "DELETE" ? {} : { body: {} }
      )
      expect(reply.status, `${op.method} ${op.path}`).toBe(403)
      reply.fails(403, "FORBIDDEN")
    }
  })

  it("answers reads and deletes of unknown ids with 404, never 500", async () => {
    const admin = await (await givenTenant()).admin()
    const byId = (await operations()).filter((op) =>
      (op.method === "GET" || op.method === "DELETE") && op.path.includes("{")
    )
    expect(byId.length).toBeGreaterThan(15)
    for (const op of byId) {
      const path = fill(op.path).replace(/^\/api\/v1/, "").replace(/\/history\/[^/]+\/snapshot$/, "/history/1/snapshot")
      const reply = await admin.call(op.method, path)
      expect(reply.status, `${op.method} ${op.path} -> ${JSON.stringify(reply.body).slice(0, 200)}`).toBe(404)
      reply.fails(404, "RESOURCE_NOT_FOUND")
    }
  })
})
