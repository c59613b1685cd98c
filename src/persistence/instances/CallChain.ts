// The chain of instances that called an instance (call activities), read up its parent_instance_id to the root. Its
// length is the instance's call depth (a root's is 0), known to every instance without storing it: instances stored
// before the limit came are measured the same way. Whether one of them has ended tells that nothing more may start
// below it: a cancel walks down a call tree one level per delivery, and a process calling itself grows it as fast, so
// only a start that looks up the chain stops the growth.
import { Effect } from "effect"
import type { SqlClient } from "effect/sql"

/** The deepest a called instance may be: a root is at depth 0, what it calls at 1, and so on (Zeebe bounds it too). */
export const MAX_CALL_DEPTH = 100

export interface CallChain {
  /** The instance's depth, read up to MAX_CALL_DEPTH (a deeper one reads as MAX_CALL_DEPTH). */
  readonly depth: number
  readonly rootInstanceId: string
  /** An instance of the chain has completed or been canceled, or is gone (deleted): nothing starts below it. */
  readonly ended: boolean
}

interface ChainRow {
  readonly parent_instance_id: string | null
  readonly root_instance_id: string
  readonly state: string
  readonly depth: number
}

export const callChainOf = (sql: SqlClient.SqlClient, instanceId: string) =>
  sql<ChainRow>`WITH RECURSIVE chain (id, parent_instance_id, root_instance_id, state, depth) AS (
      SELECT id, parent_instance_id, root_instance_id, state, 0 FROM process_instances WHERE id = ${instanceId}
      UNION ALL
      SELECT p.id, p.parent_instance_id, p.root_instance_id, p.state, c.depth + 1
        FROM process_instances p JOIN chain c ON p.id = c.parent_instance_id
        WHERE c.depth < ${MAX_CALL_DEPTH}
    )
    SELECT parent_instance_id, root_instance_id, state, depth FROM chain ORDER BY depth`.pipe(
    Effect.map((rows): CallChain => {
      const top = rows[rows.length - 1]
      if (top === undefined) return { depth: 0, rootInstanceId: instanceId, ended: true }
      const depth = rows.length - 1
      // A parent named but not found below the bound was deleted, which only an ended instance can be.
      const gone = top.parent_instance_id !== null && depth < MAX_CALL_DEPTH
      return {
        depth,
        rootInstanceId: rows[0]!.root_instance_id,
        ended: gone || rows.some((row) => row.state === "COMPLETED" || row.state === "CANCELED")
      }
    })
  )
