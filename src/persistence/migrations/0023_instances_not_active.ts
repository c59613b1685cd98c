// Job activation skips the jobs of instances that are not active (suspended): it asks a small partial index instead of
// joining every instance row. Ready jobs are walked in creation order, locked ones by deadline (to find expired
// locks), each by its own partial index, so activation costs what it hands out, not the backlog.
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE INDEX process_instances_not_active ON process_instances (id) WHERE state <> 'ACTIVE'`
  yield* sql`CREATE INDEX jobs_ready ON jobs (tenant_id, type, created_at, id) WHERE state = 'ACTIVATABLE'`
  yield* sql`CREATE INDEX jobs_locked ON jobs (tenant_id, type, deadline) WHERE state = 'ACTIVATED'`
})
