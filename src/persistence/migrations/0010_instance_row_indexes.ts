// The rows an instance owns (jobs, tasks, incidents) are looked up by instance: listing them with
// ?processInstanceId=, and updating them when the instance migrates to another version.
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE INDEX jobs_instance ON jobs (instance_id)`
  yield* sql`CREATE INDEX user_tasks_instance ON user_tasks (instance_id)`
  yield* sql`CREATE INDEX incidents_instance ON incidents (instance_id)`
})
