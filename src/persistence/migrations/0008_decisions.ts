// Decision models (a DMN file, imported or generated from a JSON decision table) and their decisions, versioned per
// decision key (the DMN decision id) within a tenant; evaluation by key uses the latest version.
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE decision_models (
    tenant_id uuid NOT NULL REFERENCES tenants (tenant_id),
    id uuid PRIMARY KEY,
    name text,
    namespace text,
    format text NOT NULL,
    dmn_xml text NOT NULL,
    created_by text NOT NULL,
    created_at timestamptz NOT NULL
  )`
  yield* sql`CREATE INDEX decision_models_tenant_created ON decision_models (tenant_id, created_at DESC, id DESC)`
  yield* sql`CREATE TABLE decisions (
    tenant_id uuid NOT NULL REFERENCES tenants (tenant_id),
    id uuid PRIMARY KEY,
    decision_model_id uuid NOT NULL REFERENCES decision_models (id) ON DELETE CASCADE,
    key text NOT NULL,
    name text,
    version integer NOT NULL,
    kind text NOT NULL,
    hit_policy text,
    source jsonb,
    created_by text NOT NULL,
    created_at timestamptz NOT NULL,
    UNIQUE (tenant_id, key, version)
  )`
  yield* sql`CREATE INDEX decisions_tenant_created ON decisions (tenant_id, created_at DESC, id DESC)`
})
