// An instance's history events and applied commands no longer carry a foreign key to process_instances. They are most
// of the rows an instance writes (a message correlation writes six events and a command row beside its instance's
// row), each checked against its instance by the key's trigger: at 64 publishes in flight, dropping the two keys took
// PostgreSQL's CPU per correlation from a median of 0.37 to 0.31 ms (docs/scaling.md, session 15). The commit keeps
// them consistent without it: a batch writes an instance's rows only in the statement that creates the instance's row
// or updates it from the version it read (OneStatementCommit's check undoes the batch otherwise), and they leave with
// their instance in one statement (persistence/instances/InstanceDeletion.ts). The runtime rows (jobs, user tasks,
// subscriptions, incidents, scopes) keep their keys and cascade.
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE instance_events DROP CONSTRAINT IF EXISTS instance_events_instance_id_fkey`
  yield* sql`ALTER TABLE instance_commands DROP CONSTRAINT IF EXISTS instance_commands_instance_id_fkey`
})
