// Modeling and collaboration: projects with members and folders, models with revisions and an editing lock, each
// user's drafts, and process templates.
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE projects (
    tenant_id uuid NOT NULL,
    id uuid PRIMARY KEY,
    name text NOT NULL,
    description text,
    created_by text NOT NULL,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL
  )`
  yield* sql`CREATE INDEX projects_tenant ON projects (tenant_id, lower(name))`
  yield* sql`CREATE TABLE project_members (
    project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    user_id text NOT NULL,
    role text NOT NULL,
    added_at timestamptz NOT NULL,
    PRIMARY KEY (project_id, user_id)
  )`
  yield* sql`CREATE TABLE project_folders (
    tenant_id uuid NOT NULL,
    id uuid PRIMARY KEY,
    project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    parent_folder_id uuid REFERENCES project_folders (id) ON DELETE CASCADE,
    name text NOT NULL,
    created_at timestamptz NOT NULL
  )`
  yield* sql`CREATE TABLE models (
    tenant_id uuid NOT NULL,
    id uuid PRIMARY KEY,
    project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    folder_id uuid REFERENCES project_folders (id) ON DELETE SET NULL,
    name text NOT NULL,
    kind text NOT NULL,
    revision integer NOT NULL,
    content text NOT NULL,
    lock_holder text,
    lock_expires_at timestamptz,
    created_by text NOT NULL,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL
  )`
  yield* sql`CREATE INDEX models_project ON models (tenant_id, project_id)`
  yield* sql`CREATE TABLE model_revisions (
    model_id uuid NOT NULL REFERENCES models (id) ON DELETE CASCADE,
    revision integer NOT NULL,
    content text NOT NULL,
    author text NOT NULL,
    note text,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (model_id, revision)
  )`
  yield* sql`CREATE TABLE drafts (
    tenant_id uuid NOT NULL,
    id uuid PRIMARY KEY,
    owner text NOT NULL,
    kind text NOT NULL,
    name text NOT NULL,
    content jsonb NOT NULL,
    promoted_to jsonb,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL
  )`
  yield* sql`CREATE INDEX drafts_owner ON drafts (tenant_id, owner)`
  yield* sql`CREATE TABLE templates (
    tenant_id uuid NOT NULL,
    id uuid PRIMARY KEY,
    name text NOT NULL,
    description text,
    content jsonb NOT NULL,
    process_key text NOT NULL,
    created_by text NOT NULL,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL
  )`
})
