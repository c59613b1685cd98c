// A job's commands sent again. A sender that does not know whether its message took effect (the entity's handling was
// interrupted: the job's shard moved) sends it again with the same command id; the job's entity applies it once and
// answers the resend as applied — not as a conflict with its own outcome. A new command id in the same situation is
// refused as before, so the answer depends on the id, not on the state alone.
import { Effect, Exit } from "effect"
import { describe, expect, it } from "vitest"
import { JobEntity } from "../../src/cluster/Job.ts"
import { oneTaskModel } from "../support/OneTaskModel.ts"
import { givenTenant, type Tenant } from "../support/Scenario.ts"

type JobClient = Effect.Success<typeof JobEntity.client>
type Message = keyof ReturnType<JobClient>

/** Sends one message straight to the job's entity, as the services do; answers its outcome or its failure's tag. */
const sender = (tenant: Tenant, jobId: string) => <M extends Message>(message: M, payload: Record<string, unknown>) =>
  tenant.app.runtime.runPromise(
    Effect.exit(
      Effect.flatMap(
        JobEntity.client,
        (client) =>
          (client(jobId)[message] as (payload: unknown) => Effect.Effect<unknown, { _tag: string }>)({
            tenantId: tenant.id,
            actor: "resender",
            ...payload
          })
      )
    )
  ).then((exit) =>
    Exit.isSuccess(exit)
      ? { ok: true as const, value: exit.value as any }
      : { ok: false as const, tag: (exit.cause as any).reasons?.[0]?.error?._tag ?? String(exit.cause) }
  )

const given = async (key: string) => {
  const tenant = await givenTenant()
  const owner = await tenant.owner("resender")
  const deployment = await owner.deploy(oneTaskModel(key))
  const instance = await owner.start(deployment.id, {})
  const [job] = await owner.activateJobs(`${key}-work`)
  const history = async () => (await owner.history(instance.id)).map((event: { type: string }) => event.type)
  const count = async (type: string) => (await history()).filter((t) => t === type).length
  const incidents = async () => (await owner.get(`/incidents?processInstanceId=${instance.id}`)).ok().items.length
  const job$ = async () => (await owner.get(`/jobs?processInstanceId=${instance.id}`)).ok().items[0]
  return { tenant, owner, instance, job, send: sender(tenant, job.id), count, incidents, job$ }
}

describe("a job's command sent again with its command id", () => {
  it("a failure with retries left applies once: one failure, one retry used", async () => {
    const { send, count, job$, owner, job } = await given("resend-fail")
    const first = await send("Fail", { commandId: "fail-1", errorMessage: "boom" })
    const again = await send("Fail", { commandId: "fail-1", errorMessage: "boom" })
    expect(first.ok && again.ok).toBe(true)
    expect(await count("JobFailed")).toBe(1)
    expect((await job$()).retries).toBe(2)
    expect((await owner.get(`/jobs/${job.id}/retry/history`)).ok()).toHaveLength(1)
  })

  it("a failure with no retries left answers the resend as applied (one incident); another id is refused", async () => {
    const { send, count, incidents } = await given("resend-fail-last")
    expect((await send("Fail", { commandId: "last-1", retries: 0, errorMessage: "no more" })).ok).toBe(true)
    const again = await send("Fail", { commandId: "last-1", retries: 0, errorMessage: "no more" })
    expect(again).toMatchObject({ ok: true, value: { state: "FAILED" } })
    expect(await send("Fail", { commandId: "last-2", retries: 0, errorMessage: "no more" })).toEqual({
      ok: false,
      tag: "Conflict"
    })
    expect(await count("JobFailed")).toBe(1)
    expect(await incidents()).toBe(1)
  })

  it("a thrown error answers its resend as applied once the job is closed; another throw is refused", async () => {
    const { send, count } = await given("resend-throw")
    expect((await send("ThrowError", { commandId: "throw-1", errorCode: "E1" })).ok).toBe(true)
    expect((await send("ThrowError", { commandId: "throw-1", errorCode: "E1" })).ok).toBe(true)
    expect(await send("ThrowError", { commandId: "throw-2", errorCode: "E1" })).toEqual({ ok: false, tag: "Conflict" })
    expect(await count("JobErrorThrown")).toBe(1)
  })

  it("new retries for a failed job apply once", async () => {
    const { send, count, job$ } = await given("resend-retries")
    expect((await send("Fail", { commandId: "f", retries: 0 })).ok).toBe(true)
    expect((await send("UpdateRetries", { commandId: "r-1", retries: 2 })).ok).toBe(true)
    expect((await send("UpdateRetries", { commandId: "r-1", retries: 2 })).ok).toBe(true)
    expect(await count("JobRetriesUpdated")).toBe(1)
    expect(await job$()).toMatchObject({ state: "ACTIVATABLE", retries: 2 })
  })

  it("retry-now and cancel-retry answer their resend as applied after the retry is gone; a new one is refused", async () => {
    const { send, count, incidents, job$ } = await given("resend-retry-now")
    expect((await send("Fail", { commandId: "f-1", retries: 2, retryBackOff: 600_000 })).ok).toBe(true)
    expect((await send("RetryNow", { commandId: "now-1" })).ok).toBe(true)
    expect((await send("RetryNow", { commandId: "now-1" })).ok).toBe(true)
    expect(await send("RetryNow", { commandId: "now-2" })).toEqual({ ok: false, tag: "Conflict" })
    expect((await job$()).state).toBe("ACTIVATABLE")

    expect((await send("Fail", { commandId: "f-2", retries: 1, retryBackOff: 600_000 })).ok).toBe(true)
    expect((await send("CancelRetry", { commandId: "cancel-1" })).ok).toBe(true)
    expect((await send("CancelRetry", { commandId: "cancel-1" })).ok).toBe(true)
    expect(await send("CancelRetry", { commandId: "cancel-2" })).toEqual({ ok: false, tag: "Conflict" })
    expect(await count("JobFailed")).toBe(3)
    expect(await incidents()).toBe(1)
  })

  it("a heartbeat answers its resend after the job completed; a new heartbeat is refused", async () => {
    const { send, owner, job } = await given("resend-beat")
    expect((await send("Heartbeat", { commandId: "beat-1", timeout: 60_000 })).ok).toBe(true)
    ;(await owner.post(`/jobs/${job.id}/complete`, {})).ok()
    expect(await send("Heartbeat", { commandId: "beat-1", timeout: 60_000 })).toMatchObject({
      ok: true,
      value: { state: "COMPLETED" }
    })
    expect(await send("Heartbeat", { commandId: "beat-2", timeout: 60_000 })).toEqual({ ok: false, tag: "Conflict" })
  })

  it("a lease that ran out is recorded once, whatever the number of sends", async () => {
    const { send, owner, job, instance } = await given("resend-expiry")
    const expiry = {
      instanceId: instance.id,
      previousWorker: "crashed",
      retries: 3,
      lockExpiries: 1,
      now: new Date().toISOString()
    }
    expect(await send("LeaseExpired", expiry)).toEqual({ ok: true, value: false })
    expect(await send("LeaseExpired", expiry)).toEqual({ ok: true, value: false })
    const expired = (await owner.get(`/jobs/${job.id}/retry/history`)).ok()
    expect(expired).toMatchObject([{ kind: "LOCK_EXPIRED", worker: "crashed" }])
    expect(await send("LeaseExpired", { ...expiry, lockExpiries: 2 })).toEqual({ ok: true, value: false })
    expect((await owner.get(`/jobs/${job.id}/retry/history`)).ok()).toHaveLength(2)
  })
})
