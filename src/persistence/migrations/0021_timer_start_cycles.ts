// Timer start events with a cycle fire more than once: each row counts the occurrences fired so far.
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE timer_start_events ADD COLUMN fired integer NOT NULL DEFAULT 0`
})
