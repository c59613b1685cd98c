// Instance rows read by a message's lookup (MessageTargets), kept for the command that follows it. A published message
// to an instance no longer in memory used to wait on three round trips: the lookup of the waiting subscriptions, the
// instance's row (its load), the commit. The lookup now reads, in its own statement, the rows of the instances it finds
// that last changed more than ENTITY_IDLE_SECONDS ago (so have probably left memory), and the instance's handler takes
// its row from here instead of reading it again. A row not taken (the instance was in memory after all, or lives on
// another node) is dropped unused.
//
// Such a row is as old as the lookup. A commit from it is safe: the commit is guarded by the instance's last event
// sequence (StaleInstanceWrite reloads and applies the command again). A rejection is not guarded, so the handler
// checks a rejection from such a row against a fresh load (actors/InstanceHandler.ts). A row not taken within
// SNAPSHOT_TTL_MILLIS is not used: a load reads the instance as before.
import { Context, Layer } from "effect"
import type { InstanceStatus } from "../../engine/EngineOutcome.ts"

/** An instance's row as a load reads it (process_instances). */
export interface InstanceRow {
  readonly id: string
  readonly tenant_id: string
  readonly deployment_id: string
  readonly process_key: string
  readonly version: number
  readonly state: InstanceStatus
  readonly parent_instance_id: string | null
  /** jsonb, or its text (the lookup reads it as text: parsed only when taken). */
  readonly engine_state: unknown
  readonly last_event_seq: unknown
}

/** A row older than this is not used; the command's load reads the instance again. */
export const SNAPSHOT_TTL_MILLIS = 2_000
/** The most rows kept, and the most characters of state text; beyond either the oldest rows are dropped (rows are taken within milliseconds, or never). */
export const MAX_SNAPSHOTS = 4_096
export const MAX_SNAPSHOT_CHARACTERS = 64 * 1024 * 1024
/** A message's lookup reads the rows of at most this many of its waiting instances... */
export const LOOKUP_ROWS_PER_MESSAGE = 64
/** ...and only states of at most this size as stored (a larger one is loaded by its command as before). */
export const MAX_SNAPSHOT_STATE_BYTES = 256 * 1024

export interface InstanceSnapshotsShape {
  /** Keeps a row the lookup read, for the instance's next load on this node. */
  readonly offer: (row: InstanceRow) => void
  /** The row offered for the instance, once, if it is recent enough. */
  readonly take: (instanceId: string) => InstanceRow | undefined
}

export class InstanceSnapshots
  extends Context.Service<InstanceSnapshots, InstanceSnapshotsShape>()("flowcore/InstanceSnapshots")
{
  static readonly layer = Layer.sync(InstanceSnapshots, () => {
    // Insertion order is age order: the oldest is the first key.
    const rows = new Map<string, { readonly row: InstanceRow; readonly at: number; readonly characters: number }>()
    let characters = 0
    const drop = (instanceId: string) => {
      const kept = rows.get(instanceId)
      if (kept === undefined) return undefined
      rows.delete(instanceId)
      characters -= kept.characters
      return kept
    }
    return InstanceSnapshots.of({
      offer: (row) => {
        drop(row.id)
        const size = typeof row.engine_state === "string" ? row.engine_state.length : 0
        while (rows.size > 0 && (rows.size >= MAX_SNAPSHOTS || characters + size > MAX_SNAPSHOT_CHARACTERS)) {
          drop(rows.keys().next().value!)
        }
        rows.set(row.id, { row, at: performance.now(), characters: size })
        characters += size
      },
      take: (instanceId) => {
        const kept = drop(instanceId)
        return kept !== undefined && performance.now() - kept.at <= SNAPSHOT_TTL_MILLIS ? kept.row : undefined
      }
    })
  })
}
