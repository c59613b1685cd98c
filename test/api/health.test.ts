// GET /api/v1/health: public, enveloped; 200 with database and cluster status, 503 when the database is down.
import { describe, expect, it } from "vitest"
import { DatabaseInfo } from "../../src/persistence/database/Database.ts"
import { send } from "../support/Client.ts"
import { anonymous } from "../support/Scenario.ts"
import { bootApp } from "../support/TestApp.ts"

describe("health", () => {
  it("reports the database and the cluster runtime as UP", async () => {
    const data = (await (await anonymous()).get("/health")).ok()
    expect(data).toMatchObject({
      status: "UP",
      database: { status: "UP", kind: process.env["DATABASE_URL"] ? "postgresql" : "pglite" },
      cluster: { status: "UP", mode: "single-runner", runnerStorage: "sql" }
    })
  })

  it.skipIf(process.env["DATABASE_URL"] !== undefined)(
    "answers 503 in the failure envelope once the embedded database is gone",
    async () => {
      const app = await bootApp({ databaseUrl: undefined })
      try {
        expect((await send(app.baseUrl, "GET", "/api/v1/health")).status).toBe(200)
        const info = await app.runtime.runPromise(DatabaseInfo)
        await info.embedded!.close()
        const reply = await send(app.baseUrl, "GET", "/api/v1/health")
        const body = reply.fails(503, "INTERNAL_ERROR")
        expect(body.message).toMatch(/database/)
        expect(body.errors[0]).toMatchObject({ field: "database", code: "DATABASE_DOWN" })
      } finally {
        // The cluster runtime's graceful shutdown waits ~10 s for a database that is gone; let it finish unobserved.
        void app.runtime.dispose().catch(() => undefined)
      }
    }
  )
})
