// npm run bench:paired — is a small change to the hot path worth anything? Whole-bench pairs cannot tell 5 % apart on a
// VM whose speed drifts by half within minutes; this compares the two versions inside ONE service process, switched
// between rounds. The service is started as `npm start` starts it; the code under test reads a switch that a scratch
// handler flips on SIGUSR2, for example in src/main.ts (never committed):
//   process.on("SIGUSR2", () => { (globalThis as any).benchSwitch = (globalThis as any).benchSwitch !== true })
// and where the change is: `(globalThis as any).benchSwitch === true ? changed : before`.
// After two warm-up rounds the rounds come in blocks of four, off, on, on, off, each of COUNT requests of KIND at
// CONCURRENCY in flight; per round the service's main-thread CPU (/proc/<pid>/task/<pid>/stat: GC helper threads left
// out) per request. A block compares its two "on" rounds with its two "off" rounds: that cancels a linear drift (the
// service keeps warming up for minutes, so a plain on-after-off comparison credits the warm-up to whichever side comes
// second) and anything that alternates from round to round. Printed: the median and mean of the blocks' comparisons —
// the change's effect in % of the service's CPU per request (negative: cheaper with the switch on). With SWITCH=none no
// signal is sent (a service without the handler would stop at SIGUSR2): both sides are the same code, and what is
// printed is the instrument's own error (docs/scaling.md, session 23).
// KIND=publish-idle publishes to instances that have left memory: the service runs with ENTITY_IDLE_SECONDS=1 and each
// round waits IDLE_WAIT_MS after starting its instances (passivation and the lookup's idle rows: docs/scaling.md).
//   ROUNDS=32 COUNT=1000 CONCURRENCY=16 KIND=publish|publish-idle|start|get DB=postgres|pglite SWITCH=signal|none \
//   npm run bench:paired
import { readFileSync } from "node:fs"
import {
  mainThreadCpuMillisOf,
  messageWaitModel,
  onFreshDatabase,
  percentile,
  signedIn,
  startService
} from "./ServiceUnderTest.ts"

const ROUNDS = Number(process.env["ROUNDS"] ?? 32)
const COUNT = Number(process.env["COUNT"] ?? 1000)
const CONCURRENCY = Number(process.env["CONCURRENCY"] ?? 16)
const KIND = process.env["KIND"] ?? "publish"
const DB = (process.env["DB"] ?? "postgres").toLowerCase()
const SIGNAL = (process.env["SWITCH"] ?? "signal") !== "none"
const WARM_UP_ROUNDS = 2
const IDLE_SECONDS = 1
const IDLE_WAIT_MS = Number(process.env["IDLE_WAIT_MS"] ?? 2_500)
const serviceTask = readFileSync(new URL("../test/fixtures/service-task.bpmn", import.meta.url), "utf8")

const inParallel = async (count: number, work: (i: number) => Promise<unknown>) => {
  let next = 0
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < count) await work(next++)
  }))
}

await onFreshDatabase(DB, "paired", async (env) => {
  const service = await startService(KIND === "publish-idle" ? { ...env, ENTITY_IDLE_SECONDS: `${IDLE_SECONDS}` } : env)
  const pid = service.child.pid!
  try {
    const { call } = await signedIn(service.base)
    const waiting = await call("POST", "/deployments", messageWaitModel("paired-message", "paired-paid"))
    const oneTask = await call("POST", "/deployments", serviceTask, "application/xml")
    const some = await call("POST", "/process-instances", { deploymentId: oneTask.id })
    const startWaiting = (r: number) =>
      inParallel(
        COUNT,
        (i) => call("POST", "/process-instances", { deploymentId: waiting.id, variables: { key: `r${r}-${i}` } })
      )
    const publish = (r: number) =>
      inParallel(COUNT, (i) => call("POST", "/messages", { messageName: "paired-paid", correlationKey: `r${r}-${i}` }))
    // What a round prepares unmeasured, and what it measures.
    const rounds: Record<
      string,
      { prepare: (r: number) => Promise<unknown>; measure: (r: number) => Promise<unknown> }
    > = {
      publish: { prepare: startWaiting, measure: publish },
      "publish-idle": {
        prepare: async (r) => {
          await startWaiting(r)
          await new Promise((resolve) => setTimeout(resolve, IDLE_WAIT_MS))
        },
        measure: publish
      },
      start: {
        prepare: async () => undefined,
        measure: () => inParallel(COUNT, () => call("POST", "/process-instances", { deploymentId: oneTask.id }))
      },
      get: {
        prepare: async () => undefined,
        measure: () => inParallel(COUNT, () => call("GET", `/process-instances/${some.id}`))
      }
    }
    const round = rounds[KIND]
    if (round === undefined) throw new Error(`KIND must be one of ${Object.keys(rounds).join(", ")}`)

    const perRequest: Array<number> = []
    let switched = false
    for (let r = 0; r < ROUNDS + WARM_UP_ROUNDS; r++) {
      await round.prepare(r)
      const on = r < WARM_UP_ROUNDS ? r % 2 === 1 : [false, true, true, false][(r - WARM_UP_ROUNDS) % 4]!
      if (on !== switched) {
        if (SIGNAL) process.kill(pid, "SIGUSR2")
        switched = on
      }
      const before = mainThreadCpuMillisOf(pid)
      await round.measure(r)
      const ms = (mainThreadCpuMillisOf(pid) - before) / COUNT
      console.log(`round ${r} switch ${on ? "on " : "off"} ${ms.toFixed(3)} ms per request`)
      if (r >= WARM_UP_ROUNDS) perRequest.push(ms)
    }
    // Per block of four rounds (off, on, on, off): the on rounds' CPU against the off rounds'.
    const effects: Array<number> = []
    for (let b = 0; b + 3 < perRequest.length; b += 4) {
      const [a1, b1, b2, a2] = perRequest.slice(b, b + 4) as [number, number, number, number]
      effects.push((b1 + b2) / (a1 + a2) - 1)
    }
    effects.sort((a, b) => a - b)
    const mean = effects.reduce((sum, x) => sum + x, 0) / effects.length
    const pct = (x: number) => `${(100 * x).toFixed(1)} %`
    console.log(
      `\n${KIND}: switch on against off, service main-thread CPU per request: median ${
        pct(percentile(effects, 50))
      }, mean ${pct(mean)}, from ${pct(effects[0]!)} to ${pct(effects[effects.length - 1]!)} (${effects.length} blocks)`
    )
  } finally {
    service.child.kill("SIGKILL")
  }
})
