// Jobs whose lock keeps running out (a worker that crashes on them) are counted, so they can be dead-lettered instead
// of handed out for ever; each expiry is one row of the job's retry history, told apart from failures by its kind.
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE jobs ADD COLUMN lock_expiries integer NOT NULL DEFAULT 0`
  yield* sql`ALTER TABLE job_failures ADD COLUMN kind text NOT NULL DEFAULT 'FAILED'`
})
