// bindingType="deployment": what one POST /deployments deployed together shares a bundle id (a process version's own
// id when it was deployed alone: coalesce(bundle_id, id)), so a call activity, a business rule task or a user task form
// resolves to the resource deployed with its process version. A task keeps that its form binds so.
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE deployments ADD COLUMN bundle_id uuid`
  yield* sql`CREATE INDEX deployments_bundle ON deployments (tenant_id, bundle_id, key) WHERE bundle_id IS NOT NULL`
  yield* sql`ALTER TABLE decision_models ADD COLUMN bundle_id uuid`
  yield* sql`CREATE INDEX decision_models_bundle ON decision_models (tenant_id, bundle_id) WHERE bundle_id IS NOT NULL`
  yield* sql`ALTER TABLE legacy_forms ADD COLUMN bundle_id uuid`
  yield* sql`CREATE INDEX legacy_forms_bundle ON legacy_forms (tenant_id, bundle_id, key) WHERE bundle_id IS NOT NULL`
  yield* sql`ALTER TABLE user_tasks ADD COLUMN form_binding text`
})
