// Crash safety: SIGKILL the service while job completions are in flight; after a restart on the same data every
// instance is exactly at its last committed state (never half-applied) and continues from there.
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { startService, stopService } from "../support/ChildService.ts"
import { send } from "../support/Client.ts"
import { fixture } from "../support/Scenario.ts"

const dataDir = mkdtempSync(join(tmpdir(), "flowcore-crash-"))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

describe("crash safety", () => {
  it("keeps every instance consistent across a SIGKILL in the middle of job completions", async () => {
    // The same bootstrap admin as restart.test.ts: in the PostgreSQL stage both files share one database.
    const env = { DATA_DIR: dataDir, ADMIN_USERNAME: "root", ADMIN_PASSWORD: "root-password-1" }
    const first = await startService(env)
    const token: string = (await send(first.baseUrl, "POST", "/api/v1/auth/login", {
      body: { username: "root", password: "root-password-1" }
    })).ok().token
    const api = (base: string, method: string, path: string, body?: unknown) =>
      send(base, method, `/api/v1${path}`, { token, ...(body === undefined ? {} : { body }) })
    const deployment = (await send(first.baseUrl, "POST", "/api/v1/deployments", {
      token,
      rawBody: fixture("service-task.bpmn"),
      contentType: "application/xml"
    })).ok(201)
    const ids: Array<string> = []
    for (let i = 0; i < 20; i++) {
      ids.push(
        (await api(first.baseUrl, "POST", "/process-instances", { deploymentId: deployment.id, variables: { i } })).ok(
          201
        ).id
      )
    }
    const jobs: Array<{ id: string; processInstanceId: string }> =
      (await api(first.baseUrl, "POST", "/jobs/activation", {
        type: "charge-card",
        worker: "w",
        maxJobsToActivate: 20,
        timeout: 600_000
      })).ok().jobs
    expect(jobs).toHaveLength(20)
    // Fire all completions and kill the service once a few have answered, while the rest are being applied.
    let answered = 0
    let onThird: () => void = () => {}
    const thirdAnswered = new Promise<void>((resolve) => (onThird = resolve))
    const inFlight = jobs.map((job) =>
      api(first.baseUrl, "POST", `/jobs/${job.id}/complete`, { variables: { paid: true } })
        .then(() => {
          if (++answered === 3) onThird()
        })
        .catch(() => undefined)
    )
    await thirdAnswered
    await stopService(first, "SIGKILL")
    await Promise.all(inFlight)

    const second = await startService(env)
    try {
      let completedBefore = 0
      for (const job of jobs) {
        const instance = (await api(second.baseUrl, "GET", `/process-instances/${job.processInstanceId}`)).ok()
        const jobRow =
          (await api(second.baseUrl, "GET", `/jobs?processInstanceId=${job.processInstanceId}`)).ok().items[0]
        const history =
          (await api(second.baseUrl, "GET", `/process-instances/${job.processInstanceId}/history?size=1000`)).ok().items
        // all or nothing: job, instance and history agree
        if (instance.state === "COMPLETED") {
          completedBefore++
          expect(jobRow.state).toBe("COMPLETED")
          expect(instance.variables).toMatchObject({ paid: true })
          expect(history.map((e: { type: string }) => e.type)).toContain("InstanceCompleted")
        } else {
          expect(instance.state).toBe("ACTIVE")
          expect(jobRow.state).not.toBe("COMPLETED")
          expect(history.map((e: { type: string }) => e.type)).not.toContain("JobCompleted")
          ;(await api(second.baseUrl, "POST", `/jobs/${job.id}/complete`, { variables: { paid: true } })).ok()
        }
        expect(history.map((e: { eventSeq: number }) => e.eventSeq)).toEqual(
          history.map((_: unknown, i: number) => i + 1)
        )
      }
      for (const id of ids) {
        expect((await api(second.baseUrl, "GET", `/process-instances/${id}`)).ok().state).toBe("COMPLETED")
      }
      console.log(`crash test: ${completedBefore} of 20 completions had committed before the SIGKILL`)
    } finally {
      await stopService(second, "SIGKILL")
    }
  }, 120_000)

  it("loses no acknowledged start and applies nothing twice when SIGKILLed under continuous load", async () => {
    const loadDir = mkdtempSync(join(tmpdir(), "flowcore-crash-load-"))
    const env = { DATA_DIR: loadDir, ADMIN_USERNAME: "root", ADMIN_PASSWORD: "root-password-1" }
    const first = await startService(env)
    try {
      const token: string = (await send(first.baseUrl, "POST", "/api/v1/auth/login", {
        body: { username: "root", password: "root-password-1" }
      })).ok().token
      const api = (base: string, method: string, path: string, body?: unknown) =>
        send(base, method, `/api/v1${path}`, { token, ...(body === undefined ? {} : { body }) })
      const deployment = (await send(first.baseUrl, "POST", "/api/v1/deployments", {
        token,
        rawBody: fixture("service-task.bpmn"),
        contentType: "application/xml"
      })).ok(201)
      // 16 starters run until the kill; each start that answered 201 is one the service promised to keep.
      const acknowledged: Array<string> = []
      let stopped = false
      let onEnough: () => void = () => {}
      const enough = new Promise<void>((resolve) => (onEnough = resolve))
      const starters = Array.from({ length: 16 }, async (_, s) => {
        for (let i = 0; !stopped; i++) {
          const reply = await api(first.baseUrl, "POST", "/process-instances", {
            deploymentId: deployment.id,
            variables: { starter: s, i }
          }).catch(() => undefined)
          if (reply?.status === 201) {
            acknowledged.push(reply.body.data.id)
            if (acknowledged.length === 60) onEnough()
          } else return
        }
      })
      await enough
      await stopService(first, "SIGKILL")
      stopped = true
      await Promise.all(starters)

      const second = await startService(env)
      try {
        const listed: Array<{ id: string; variables: { starter: number; i: number } }> = []
        for (let page = 0;; page++) {
          const items = (await api(
            second.baseUrl,
            "GET",
            `/process-instances?deploymentId=${deployment.id}&size=200&page=${page}`
          )).ok().items
          listed.push(...items)
          if (items.length < 200) break
        }
        const ids = new Set(listed.map((instance) => instance.id))
        // nothing acknowledged is lost
        expect(acknowledged.filter((id) => !ids.has(id))).toEqual([])
        // nothing is there twice: one instance per (starter, i), and each has exactly one job
        const starts = listed.map((instance) => `${instance.variables.starter}:${instance.variables.i}`)
        expect(new Set(starts).size).toBe(starts.length)
        const jobs: Array<{ processInstanceId: string }> = []
        for (let page = 0;; page++) {
          const items = (await api(second.baseUrl, "GET", `/jobs?type=charge-card&size=200&page=${page}`)).ok().items
          jobs.push(...items)
          if (items.length < 200) break
        }
        const jobsOfThese = jobs.filter((job) => ids.has(job.processInstanceId)).map((job) => job.processInstanceId)
        expect(jobsOfThese.sort()).toEqual([...ids].sort())
        console.log(
          `crash under load: ${acknowledged.length} starts acknowledged, ${listed.length} instances after the restart`
        )
      } finally {
        await stopService(second, "SIGKILL")
      }
    } finally {
      rmSync(loadDir, { recursive: true, force: true })
    }
  }, 120_000)
})
