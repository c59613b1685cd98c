// The audit record of the request being served, offered to the instance commit that carries the request's command, so
// the record is written in that commit instead of a commit of its own after it (at half the maximum publish rate that
// second commit was ~40 % of a publish's median latency). The edge (http/RequestAudit.ts) offers it; InstanceStore
// takes it for the first command it commits on the request's behalf and settles it when that commit has ended; a job
// activation's first lease statement takes it the same way (services/work/JobActivation.ts). A record nobody took, or whose commit failed or wrote nothing, the edge writes on its own as before.
import { Context, Effect } from "effect"

export interface CommitAuditShape {
  /**
   * The record's audit_events row, for a commit of `instanceId`'s command (`started`: the command starts it) at `now`
   * (ISO 8601), once: undefined when it was taken before, the request has nothing to record, or the instance is
   * another tenant's. Whoever takes it must call `settle` when the commit has ended.
   */
  readonly take: (
    tenantId: string,
    instanceId: string,
    started: boolean,
    now: string
  ) => Record<string, unknown> | undefined
  /** The commit that took the record has ended: `written` when it committed the row. */
  readonly settle: (written: boolean) => void
}

export const CommitAudit = Context.Reference<CommitAuditShape | undefined>("flowcore/CommitAudit", {
  defaultValue: () => undefined
})

/**
 * Commits with the audit records offered to the commit of one instance's command: the request's (CommitAudit) and
 * `also` (the workers its jobs are leased to). `commit` gets the rows taken (undefined: none); each offer taken is
 * settled with the outcome — written when the commit answered a value, handed back when it failed or answered
 * undefined (a duplicate, nothing written).
 */
export const withOfferedAudits = <A, E>(
  about: { readonly tenantId: string; readonly instanceId: string; readonly started: boolean },
  now: string,
  also: ReadonlyArray<CommitAuditShape> | undefined,
  commit: (rows: ReadonlyArray<Record<string, unknown>> | undefined) => Effect.Effect<A | undefined, E>
): Effect.Effect<A | undefined, E> =>
  Effect.flatMap(CommitAudit, (offered) => {
    const offers = offered === undefined ? also ?? [] : [offered, ...(also ?? [])]
    const taken: Array<CommitAuditShape> = []
    const rows: Array<Record<string, unknown>> = []
    for (const offer of offers) {
      const row = offer.take(about.tenantId, about.instanceId, about.started, now)
      if (row === undefined) continue
      taken.push(offer)
      rows.push(row)
    }
    if (taken.length === 0) return commit(undefined)
    return commit(rows).pipe(
      Effect.onExit((exit) =>
        Effect.sync(() => {
          const written = exit._tag === "Success" && exit.value !== undefined
          for (const offer of taken) offer.settle(written)
        })
      )
    )
  })
