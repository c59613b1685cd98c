// The audit record of one request: one per state-changing call under /api/v1 (written by the edge, so no handler can
// forget it). Offered to the request's first instance commit on this node (persistence/instances/CommitAudit.ts), or to a job
// activation's first lease statement (persistence/jobs/JobLeases.ts): that write carries it with the endpoint's success
// status, and the request waits for no second commit. Otherwise the edge writes it once the handler has answered,
// before the response goes out, in a group commit of its own (AuditLog). When a commit carried it and the response ended
// with another status or names another resource (a later step failed), the record is corrected to say so.
import { Deferred, Effect } from "effect"
import type { RequestStateShape } from "../auth/RequestState.ts"
import { countAuditRecord } from "../observability/Metrics.ts"
import type { CommitAuditShape } from "../persistence/instances/CommitAudit.ts"
import { type AuditLogShape, type AuditRecord, auditRow } from "../services/identity/AuditLog.ts"
import { uuidV7 } from "../services/Ids.ts"

const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"])
// Sign-in changes nothing; it is not audited (and has no tenant before it succeeds).
const NOT_AUDITED = new Set(["/api/v1/auth/login"])

const resourceFromPath = (path: string): { readonly kind: string | null; readonly id: string | null } => {
  const segments = path.replace(/^\/api\/v1\/?/, "").split("/").filter((s) => s !== "")
  const rest = segments[0] === "auth" ? segments.slice(1) : segments
  return { kind: rest[0] ?? null, id: rest[1] ?? null }
}

export interface RequestAudit extends CommitAuditShape {
  /** After the response: writes the record unless a commit did, or corrects the one a commit wrote. */
  readonly finish: (status: number) => Effect.Effect<void>
}

export const makeRequestAudit = (
  log: AuditLogShape,
  method: string,
  path: string,
  state: RequestStateShape
): RequestAudit => {
  const audited = STATE_CHANGING.has(method) && path.startsWith("/api/v1/") && !NOT_AUDITED.has(path)
  const derived = resourceFromPath(path)
  /** open: nobody holds the record; taken: a commit carrying it is under way; written: it committed. */
  let phase: "open" | "taken" | "written" = "open"
  let closing = false
  let written: { readonly id: string; readonly record: AuditRecord } | undefined
  let settled: Deferred.Deferred<void> | undefined

  const recordOf = (status: number, startedInstance?: string): AuditRecord | undefined => {
    const tenantId = state.principal?.tenantId ?? state.tenantId
    if (!audited || tenantId === undefined) return undefined
    return {
      tenantId,
      actor: state.principal?.sub ?? state.actor ?? null,
      method,
      path,
      resourceKind: state.resourceKind ?? derived.kind,
      // A start's resource is the instance it creates (POST /process-instances names none).
      resourceId: state.resourceId ?? derived.id ?? (derived.kind === "process-instances" ? startedInstance : null) ??
        null,
      status,
      correlationId: state.correlationId
    }
  }

  const writeOrCorrect = (status: number): Effect.Effect<void> => {
    const record = recordOf(status)
    if (record === undefined) return Effect.void
    if (phase === "open") return Effect.andThen(log.record(record), countAuditRecord("alone"))
    const carried = written!
    const final = { ...record, resourceId: record.resourceId ?? carried.record.resourceId }
    const changed = carried.record.status !== final.status || carried.record.resourceKind !== final.resourceKind ||
      carried.record.resourceId !== final.resourceId
    return Effect.andThen(
      countAuditRecord("with_command"),
      changed ? Effect.andThen(log.correct(carried.id, final), countAuditRecord("corrected")) : Effect.void
    )
  }

  return {
    take: (tenantId, instanceId, started, now) => {
      if (phase !== "open" || closing || state.successStatus === undefined) return undefined
      const record = recordOf(state.successStatus, started ? instanceId : undefined)
      if (record === undefined || record.tenantId !== tenantId) return undefined
      const id = uuidV7(Date.parse(now))
      phase = "taken"
      written = { id, record }
      return auditRow(record, id, now)
    },
    settle: (committed) => {
      phase = committed ? "written" : "open"
      if (!committed) written = undefined
      if (settled !== undefined) Deferred.doneUnsafe(settled, Effect.void)
    },
    // Combinators: no generator function per request (test/structure/hot-path-generators.test.ts).
    finish: (status) =>
      Effect.suspend(() => {
        closing = true
        // A commit that took the record is still under way (one forked by the handler): its outcome decides.
        if (phase !== "taken") return writeOrCorrect(status)
        settled = Deferred.makeUnsafe<void>()
        return Effect.andThen(Deferred.await(settled), Effect.suspend(() => writeOrCorrect(status)))
      })
  }
}
