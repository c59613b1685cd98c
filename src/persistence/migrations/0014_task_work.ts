// Working on human tasks: delegation (the owner a delegated task returns to), comment threads, saved task filters.
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE user_tasks ADD COLUMN owner text`
  yield* sql`ALTER TABLE user_tasks ADD COLUMN delegation_state text`
  yield* sql`CREATE TABLE task_comments (
    tenant_id uuid NOT NULL,
    id uuid PRIMARY KEY,
    task_id uuid NOT NULL REFERENCES user_tasks (id) ON DELETE CASCADE,
    author text NOT NULL,
    message text NOT NULL,
    created_at timestamptz NOT NULL
  )`
  yield* sql`CREATE INDEX task_comments_task ON task_comments (task_id, created_at)`
  yield* sql`CREATE TABLE task_filters (
    tenant_id uuid NOT NULL,
    id uuid PRIMARY KEY,
    name text NOT NULL,
    owner text NOT NULL,
    shared boolean NOT NULL,
    query jsonb NOT NULL,
    created_at timestamptz NOT NULL
  )`
  yield* sql`CREATE INDEX task_filters_tenant ON task_filters (tenant_id, owner)`
})
