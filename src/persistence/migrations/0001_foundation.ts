// Tenants, identity and access administration, the audit log, and installation settings.
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // A tenant row is its own scope: its primary key is the tenant_id every other row refers to.
  yield* sql`CREATE TABLE tenants (
    tenant_id uuid PRIMARY KEY,
    name text NOT NULL UNIQUE,
    created_at timestamptz NOT NULL
  )`
  // Installation-wide settings (the generated token-signing secret). The only table without tenant_id: its rows
  // belong to the installation, not to any tenant, and are never exposed through the API.
  yield* sql`CREATE TABLE installation_settings (
    key text PRIMARY KEY,
    value text NOT NULL,
    created_at timestamptz NOT NULL
  )`
  // Usernames are unique across the installation because POST /auth/login names no tenant.
  yield* sql`CREATE TABLE users (
    tenant_id uuid NOT NULL REFERENCES tenants (tenant_id),
    id uuid PRIMARY KEY,
    username text NOT NULL,
    email text,
    password_hash text NOT NULL,
    roles jsonb NOT NULL,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL
  )`
  yield* sql`CREATE UNIQUE INDEX users_username_key ON users (lower(username))`
  yield* sql`CREATE INDEX users_tenant_created ON users (tenant_id, created_at)`
  yield* sql`CREATE TABLE user_groups (
    tenant_id uuid NOT NULL REFERENCES tenants (tenant_id),
    id uuid PRIMARY KEY,
    name text NOT NULL,
    description text,
    created_at timestamptz NOT NULL
  )`
  yield* sql`CREATE UNIQUE INDEX user_groups_name_key ON user_groups (tenant_id, lower(name))`
  yield* sql`CREATE TABLE group_members (
    tenant_id uuid NOT NULL REFERENCES tenants (tenant_id),
    group_id uuid NOT NULL REFERENCES user_groups (id) ON DELETE CASCADE,
    user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    added_at timestamptz NOT NULL,
    PRIMARY KEY (group_id, user_id)
  )`
  yield* sql`CREATE INDEX group_members_user ON group_members (tenant_id, user_id)`
  yield* sql`CREATE TABLE resource_authorizations (
    tenant_id uuid NOT NULL REFERENCES tenants (tenant_id),
    id uuid PRIMARY KEY,
    resource_type text NOT NULL,
    resource_id text NOT NULL,
    permissions jsonb NOT NULL,
    user_id uuid REFERENCES users (id) ON DELETE CASCADE,
    group_id uuid REFERENCES user_groups (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL,
    CHECK ((user_id IS NULL) <> (group_id IS NULL))
  )`
  yield* sql`CREATE INDEX resource_authorizations_resource ON resource_authorizations (tenant_id, resource_type, resource_id)`
  yield* sql`CREATE TABLE invitations (
    tenant_id uuid NOT NULL REFERENCES tenants (tenant_id),
    id uuid PRIMARY KEY,
    email text NOT NULL,
    roles jsonb NOT NULL,
    token_hash text NOT NULL UNIQUE,
    state text NOT NULL,
    invited_by text NOT NULL,
    expires_at timestamptz NOT NULL,
    accepted_user_id uuid,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL
  )`
  yield* sql`CREATE INDEX invitations_tenant_state ON invitations (tenant_id, state, created_at)`
  yield* sql`CREATE TABLE audit_events (
    tenant_id uuid NOT NULL REFERENCES tenants (tenant_id),
    id uuid PRIMARY KEY,
    occurred_at timestamptz NOT NULL,
    actor text,
    method text NOT NULL,
    path text NOT NULL,
    resource_kind text,
    resource_id text,
    status integer NOT NULL,
    correlation_id text NOT NULL
  )`
  yield* sql`CREATE INDEX audit_events_tenant_time ON audit_events (tenant_id, occurred_at DESC, id DESC)`
})
