// A decision's zeebe:versionTag, so a business rule task can bind to the version deployed with that tag.
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE decisions ADD COLUMN version_tag text`
  yield* sql`CREATE INDEX decisions_version_tag ON decisions (tenant_id, key, version_tag) WHERE version_tag IS NOT NULL`
})
