// Forms: form-designer definitions with their lifecycle, versions, locales, governance trail and lineage; and the
// legacy simple forms, versioned per key.
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE form_definitions (
    tenant_id uuid NOT NULL,
    id uuid PRIMARY KEY,
    key text NOT NULL,
    name text NOT NULL,
    state text NOT NULL,
    schema jsonb NOT NULL,
    version integer NOT NULL,
    restored_from jsonb,
    created_by text NOT NULL,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL
  )`
  yield* sql`CREATE INDEX form_definitions_key ON form_definitions (tenant_id, key, state)`
  yield* sql`CREATE TABLE form_definition_versions (
    form_id uuid NOT NULL REFERENCES form_definitions (id) ON DELETE CASCADE,
    version integer NOT NULL,
    name text NOT NULL,
    schema jsonb NOT NULL,
    author text NOT NULL,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (form_id, version)
  )`
  yield* sql`CREATE TABLE form_definition_audit (
    form_id uuid NOT NULL REFERENCES form_definitions (id) ON DELETE CASCADE,
    seq integer NOT NULL,
    action text NOT NULL,
    from_state text,
    to_state text,
    actor text NOT NULL,
    detail text,
    occurred_at timestamptz NOT NULL,
    PRIMARY KEY (form_id, seq)
  )`
  yield* sql`CREATE TABLE form_definition_locales (
    form_id uuid NOT NULL REFERENCES form_definitions (id) ON DELETE CASCADE,
    locale text NOT NULL,
    labels jsonb NOT NULL,
    updated_at timestamptz NOT NULL,
    PRIMARY KEY (form_id, locale)
  )`
  yield* sql`CREATE TABLE legacy_forms (
    tenant_id uuid NOT NULL,
    id uuid PRIMARY KEY,
    key text NOT NULL,
    version integer NOT NULL,
    schema jsonb NOT NULL,
    created_by text NOT NULL,
    created_at timestamptz NOT NULL
  )`
  yield* sql`CREATE UNIQUE INDEX legacy_forms_key_version ON legacy_forms (tenant_id, key, version)`
})
