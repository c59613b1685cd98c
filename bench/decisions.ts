// npm run bench:decisions — evaluations per second of a 100-rule decision table with 5 inputs, hit policies FIRST and
// COLLECT, in-process (the DMN core directly) and through HTTP (POST /decisions/{id}/evaluate on an in-process app).
//   N=2000 HTTP_N=1000 CONCURRENCY=16 npm run bench:decisions
import { Effect, Layer, ManagedRuntime } from "effect"
import { HttpServer } from "effect/http"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { makeApp } from "../src/App.ts"
import { configFromEnv } from "../src/config.ts"
import { evaluateDecision } from "../src/decision/DecisionEvaluation.ts"
import { decisionTableToDmnXml, type JsonDecisionTable } from "../src/decision/DecisionTableJson.ts"
import { importDmnXml } from "../src/decision/DmnXmlImport.ts"

const N = Number(process.env["N"] ?? 2_000)
const HTTP_N = Number(process.env["HTTP_N"] ?? 1_000)
const CONCURRENCY = Number(process.env["CONCURRENCY"] ?? 16)

const table = (hitPolicy: "FIRST" | "COLLECT"): JsonDecisionTable => ({
  id: `bench-${hitPolicy.toLowerCase()}`,
  hitPolicy,
  inputs: ["a", "b", "c", "d", "e"].map((name) => ({
    id: `in_${name}`,
    label: name,
    expression: name,
    typeRef: "number"
  })),
  outputs: [{ id: "out", name: "score", typeRef: "number" }],
  rules: Array.from({ length: 100 }, (_, i) => ({
    id: `r${i}`,
    inputEntries: [`[${i}..${i + 10}]`, `>= ${i % 7}`, "-", `< ${100 + i}`, `!= ${i}`],
    outputEntries: [String(i)]
  }))
})

const inputsFor = (i: number) => ({ a: i % 100, b: i % 13, c: i, d: i % 90, e: (i * 7) % 100 })

const inProcess = async (hitPolicy: "FIRST" | "COLLECT") => {
  const imported = await importDmnXml(await decisionTableToDmnXml(table(hitPolicy)))
  if (!imported.ok) throw new Error(JSON.stringify(imported.error))
  const t0 = performance.now()
  for (let i = 0; i < N; i++) {
    const result = evaluateDecision(imported.value, `bench-${hitPolicy.toLowerCase()}`, inputsFor(i))
    if (result._tag !== "EvaluationOk") throw new Error(result.message)
  }
  const seconds = (performance.now() - t0) / 1000
  console.log(
    `in-process ${hitPolicy}: ${N} evaluations in ${seconds.toFixed(2)} s = ${(N / seconds).toFixed(0)} evaluations/s`
  )
}

const overHttp = async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "flowcore-bench-dmn-"))
  const config = configFromEnv({
    ...process.env,
    DATA_DIR: dataDir,
    DATABASE_URL: undefined,
    PORT: "0",
    HOST: "127.0.0.1",
    LOG_LEVEL: "warn",
    ADMIN_PASSWORD: "bench-password-1"
  })
  const runtime = ManagedRuntime.make(makeApp(config) as Layer.Layer<any, unknown, never>)
  try {
    const address = await runtime.runPromise(Effect.map(HttpServer.HttpServer, (server) => server.address))
    if (!("port" in address)) throw new Error("not TCP")
    const base = `http://127.0.0.1:${address.port}/api/v1`
    const post = async (path: string, body: unknown, token?: string) => {
      const response = await fetch(`${base}${path}`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(token === undefined ? {} : { authorization: `Bearer ${token}` })
        },
        body: JSON.stringify(body)
      })
      const json = await response.json() as { success: boolean; data: any; message?: string }
      if (!json.success) throw new Error(`${path}: ${json.message}`)
      return json.data
    }
    const { token } = await post("/auth/login", { username: "admin", password: "bench-password-1" })
    for (const hitPolicy of ["FIRST", "COLLECT"] as const) {
      const decision = await post("/decisions", table(hitPolicy), token)
      let next = 0
      const t0 = performance.now()
      await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
        while (next < HTTP_N) {
          const i = next++
          await post(`/decisions/${decision.id}/evaluate`, { variables: inputsFor(i) }, token)
        }
      }))
      const seconds = (performance.now() - t0) / 1000
      console.log(
        `HTTP ${hitPolicy}: ${HTTP_N} evaluations in ${seconds.toFixed(2)} s = ${
          (HTTP_N / seconds).toFixed(0)
        } evaluations/s (concurrency ${CONCURRENCY})`
      )
    }
  } finally {
    await runtime.dispose()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

await inProcess("FIRST")
await inProcess("COLLECT")
await overHttp()
process.exit(0)
