// Process definitions (deployments) and everything a running instance owns. The ProcessInstance entity is the only
// writer of an instance's rows; it writes its history events, its state and these projections in one transaction.
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE deployments (
    tenant_id uuid NOT NULL REFERENCES tenants (tenant_id),
    id uuid PRIMARY KEY,
    key text NOT NULL,
    name text,
    version integer NOT NULL,
    format text NOT NULL,
    bpmn_xml text NOT NULL,
    source jsonb,
    graph jsonb NOT NULL,
    state text NOT NULL,
    created_by text NOT NULL,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    UNIQUE (tenant_id, key, version)
  )`
  yield* sql`CREATE INDEX deployments_tenant_created ON deployments (tenant_id, created_at DESC, id DESC)`
  yield* sql`CREATE TABLE process_instances (
    tenant_id uuid NOT NULL REFERENCES tenants (tenant_id),
    id uuid PRIMARY KEY,
    deployment_id uuid NOT NULL REFERENCES deployments (id),
    process_key text NOT NULL,
    version integer NOT NULL,
    state text NOT NULL,
    parent_instance_id uuid,
    parent_node_id text,
    root_instance_id uuid NOT NULL,
    variables jsonb NOT NULL,
    variables_version integer NOT NULL DEFAULT 0,
    engine_state jsonb NOT NULL,
    last_event_seq bigint NOT NULL DEFAULT 0,
    incident_count integer NOT NULL DEFAULT 0,
    started_by text NOT NULL,
    started_at timestamptz NOT NULL,
    ended_at timestamptz,
    updated_at timestamptz NOT NULL
  )`
  yield* sql`CREATE INDEX process_instances_tenant_started ON process_instances (tenant_id, started_at DESC, id DESC)`
  yield* sql`CREATE INDEX process_instances_deployment ON process_instances (deployment_id, state)`
  yield* sql`CREATE INDEX process_instances_parent ON process_instances (parent_instance_id)`
  // Append-only history, ordered per instance by event_seq; snapshots, rollback and projection rebuilds read it.
  yield* sql`CREATE TABLE instance_events (
    tenant_id uuid NOT NULL,
    instance_id uuid NOT NULL REFERENCES process_instances (id) ON DELETE CASCADE,
    event_seq bigint NOT NULL,
    type text NOT NULL,
    node_id text,
    token_id text,
    payload jsonb NOT NULL,
    actor text,
    occurred_at timestamptz NOT NULL,
    PRIMARY KEY (instance_id, event_seq)
  )`
  // Command ids an instance has applied: a duplicate delivery finds its id here and changes nothing.
  yield* sql`CREATE TABLE instance_commands (
    tenant_id uuid NOT NULL,
    instance_id uuid NOT NULL REFERENCES process_instances (id) ON DELETE CASCADE,
    command_id text NOT NULL,
    reply jsonb NOT NULL,
    processed_at timestamptz NOT NULL,
    PRIMARY KEY (instance_id, command_id)
  )`
  yield* sql`CREATE TABLE jobs (
    tenant_id uuid NOT NULL,
    id uuid PRIMARY KEY,
    instance_id uuid NOT NULL REFERENCES process_instances (id) ON DELETE CASCADE,
    node_id text NOT NULL,
    element_instance_id text NOT NULL,
    type text NOT NULL,
    state text NOT NULL,
    retries integer NOT NULL,
    worker text,
    deadline timestamptz,
    custom_headers jsonb NOT NULL,
    variables jsonb NOT NULL,
    error_message text,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL
  )`
  yield* sql`CREATE INDEX jobs_activatable ON jobs (tenant_id, type, state, created_at)`
  yield* sql`CREATE INDEX jobs_tenant_created ON jobs (tenant_id, created_at DESC, id DESC)`
  yield* sql`CREATE TABLE user_tasks (
    tenant_id uuid NOT NULL,
    id uuid PRIMARY KEY,
    instance_id uuid NOT NULL REFERENCES process_instances (id) ON DELETE CASCADE,
    node_id text NOT NULL,
    element_instance_id text NOT NULL,
    name text,
    state text NOT NULL,
    assignee text,
    candidate_groups jsonb NOT NULL,
    candidate_users jsonb NOT NULL,
    form_key text,
    variables jsonb NOT NULL,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    completed_at timestamptz
  )`
  yield* sql`CREATE INDEX user_tasks_tenant_state ON user_tasks (tenant_id, state, created_at DESC)`
  yield* sql`CREATE TABLE event_subscriptions (
    tenant_id uuid NOT NULL,
    id text NOT NULL,
    instance_id uuid NOT NULL REFERENCES process_instances (id) ON DELETE CASCADE,
    node_id text NOT NULL,
    element_instance_id text NOT NULL,
    kind text NOT NULL,
    name text,
    correlation_key text,
    due_at timestamptz,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (instance_id, id)
  )`
  yield* sql`CREATE INDEX event_subscriptions_message ON event_subscriptions (tenant_id, kind, name, correlation_key)`
  yield* sql`CREATE INDEX event_subscriptions_due ON event_subscriptions (kind, due_at) WHERE due_at IS NOT NULL`
  yield* sql`CREATE TABLE incidents (
    tenant_id uuid NOT NULL,
    id uuid PRIMARY KEY,
    instance_id uuid NOT NULL REFERENCES process_instances (id) ON DELETE CASCADE,
    node_id text NOT NULL,
    element_instance_id text,
    job_id uuid,
    type text NOT NULL,
    message text NOT NULL,
    state text NOT NULL,
    created_at timestamptz NOT NULL,
    resolved_at timestamptz
  )`
  yield* sql`CREATE INDEX incidents_tenant_state ON incidents (tenant_id, state, created_at DESC)`
})
