// A user task whose zeebe:formDefinition binds by version tag keeps the tag: GET /tasks/{id}/form serves the latest
// version of the form carrying that versionTag.
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE user_tasks ADD COLUMN form_version_tag text`
})
