// A user task's completing listeners may deny a completion (the task stays open). The count of denials makes each new
// completion attempt a command of its own (complete-task:<id>:<denials>), while a retried request stays idempotent.
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE user_tasks ADD COLUMN completion_denials integer NOT NULL DEFAULT 0`
})
