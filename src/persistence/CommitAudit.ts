// The audit record of the request being served, offered to the instance commit that carries the request's command, so
// the record is written in that commit instead of a commit of its own after it (at half the maximum publish rate that
// second commit was ~40 % of a publish's median latency). The edge (http/RequestAudit.ts) offers it; InstanceStore
// takes it for the first command it commits on the request's behalf and settles it when that commit has ended. A
// record nobody took, or whose commit failed or wrote nothing, the edge writes on its own as before.
import { Context } from "effect"

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
