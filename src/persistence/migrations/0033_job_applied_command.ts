// The writes a job's entity makes to the job's row itself (retry now, a retry policy, a heartbeat) record the id of
// the command that made them, so the command sent again after an interrupted first send is known as applied (the
// commands it forwards to the instance are known by the instance's own record of command ids). Nullable, no default:
// adding it rewrites nothing.
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE jobs ADD COLUMN applied_command_id text`
})
