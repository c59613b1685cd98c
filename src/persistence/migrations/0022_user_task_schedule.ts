// User tasks carry a priority (0..100, Camunda's default 50) and optional due and follow-up dates, filterable and
// sortable in GET /tasks.
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE user_tasks ADD COLUMN priority integer NOT NULL DEFAULT 50`
  yield* sql`ALTER TABLE user_tasks ADD COLUMN due_date timestamptz`
  yield* sql`ALTER TABLE user_tasks ADD COLUMN follow_up_date timestamptz`
  yield* sql`CREATE INDEX user_tasks_tenant_due ON user_tasks (tenant_id, due_date) WHERE due_date IS NOT NULL`
})
