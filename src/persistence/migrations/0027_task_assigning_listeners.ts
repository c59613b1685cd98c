// A user task whose model has assigning listeners (Camunda 8.8): its assignment (assign, claim, unclaim) goes through
// its instance, where the listeners run before the new assignee takes effect. Tasks of other models keep the direct
// update of their row.
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE user_tasks ADD COLUMN assigning_listeners boolean NOT NULL DEFAULT false`
})
