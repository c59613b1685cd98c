// The job rows that completions (services/work/JobCompletion.ts) and jobs' entities (actors/JobLive.ts: a failure, a
// heartbeat) start by reading, read together: the reads that arrive while earlier ones are under way go to the
// database as one SELECT. Each caller still reads only after its own earlier writes finished, so a read batched with
// others sees what it would see alone. Also the types of an instance's activatable jobs, which an instance resumed
// announces (actors/InstanceHandler.ts): a read of its own, rare, bounded by the instance's jobs (jobs_instance index).
import { Context, Effect, Exit, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { makeGroupCommit } from "../GroupCommit.ts"
import { pgArray } from "../SqlValues.ts"

export interface JobReadsShape {
  /** The job's row, or undefined when the tenant has no such job. */
  readonly read: (tenantId: string, jobId: string) => Effect.Effect<Record<string, unknown> | undefined>
  /**
   * The types of the instance's jobs a worker may take at `now` (ISO 8601: waiting, no backoff past it): an instance
   * resumed announces them, as their creation did (the engine state knows the jobs, not their types).
   */
  readonly activatableTypes: (tenantId: string, instanceId: string, now: string) => Effect.Effect<ReadonlyArray<string>>
}

export class JobReads extends Context.Service<JobReads, JobReadsShape>()("flowcore/JobReads") {
  static readonly layer = Layer.effect(
    JobReads,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const reads = makeGroupCommit<
        { readonly tenantId: string; readonly jobId: string },
        Record<string, unknown> | undefined,
        never
      >({
        maxBatch: 500,
        maxInFlight: 4,
        flush: Effect.fnUntraced(function*(asked) {
          const rows = yield* sql<Record<string, unknown>>`SELECT * FROM jobs
              WHERE id = ANY(${pgArray([...new Set(asked.map((a) => a.jobId))])}::uuid[])`.pipe(Effect.orDie)
          const byId = new Map(rows.map((row) => [String(row["id"]).toLowerCase(), row]))
          return asked.map(({ jobId, tenantId }) => {
            const row = byId.get(jobId.toLowerCase())
            const ofTenant = row !== undefined && String(row["tenant_id"]).toLowerCase() === tenantId.toLowerCase()
            return Exit.succeed(ofTenant ? row : undefined)
          })
        })
      })
      return {
        read: (tenantId, jobId) => reads.submit({ tenantId, jobId }),
        activatableTypes: (tenantId, instanceId, now) =>
          sql<{ type: string }>`SELECT DISTINCT type FROM jobs
              WHERE instance_id = ${instanceId} AND tenant_id = ${tenantId} AND state = 'ACTIVATABLE'
                AND (deadline IS NULL OR deadline <= ${now})`.pipe(
            Effect.map((rows) => rows.map((row) => row.type)),
            Effect.orDie
          )
      }
    })
  )
}
