// Schema migrations, run at start before anything else touches the database. Append new files; never edit old ones.
import { Effect, Layer } from "effect"
import { Migrator, SqlClient } from "effect/sql"
import foundation from "./migrations/0001_foundation.ts"
import processEngine from "./migrations/0002_process_engine.ts"
import instanceScopes from "./migrations/0003_instance_scopes.ts"
import instanceOutbox from "./migrations/0004_instance_outbox.ts"
import messageStartEvents from "./migrations/0005_message_start_events.ts"
import bufferedMessages from "./migrations/0006_buffered_messages.ts"
import signalStartEvents from "./migrations/0007_signal_start_events.ts"
import decisions from "./migrations/0008_decisions.ts"
import timerStartEvents from "./migrations/0009_timer_start_events.ts"
import instanceRowIndexes from "./migrations/0010_instance_row_indexes.ts"
import batchOperations from "./migrations/0012_batch_operations.ts"
import jobRetries from "./migrations/0013_job_retries.ts"
import taskWork from "./migrations/0014_task_work.ts"
import connections from "./migrations/0015_connections.ts"
import modeling from "./migrations/0016_modeling.ts"
import forms from "./migrations/0017_forms.ts"
import idempotentRequests from "./migrations/0018_idempotent_requests.ts"
import tenantSubjects from "./migrations/0019_tenant_subjects.ts"
import jobLockExpiries from "./migrations/0020_job_lock_expiries.ts"
import timerStartCycles from "./migrations/0021_timer_start_cycles.ts"
import userTaskSchedule from "./migrations/0022_user_task_schedule.ts"
import instancesNotActive from "./migrations/0023_instances_not_active.ts"
import taskCompletionDenials from "./migrations/0024_task_completion_denials.ts"
import decisionVersionTags from "./migrations/0025_decision_version_tags.ts"
import taskFormVersionTags from "./migrations/0026_task_form_version_tags.ts"
import taskAssigningListeners from "./migrations/0027_task_assigning_listeners.ts"
import deploymentBinding from "./migrations/0028_deployment_binding.ts"
import batchCheck from "./migrations/0029_batch_check.ts"
import historyWithoutForeignKeys from "./migrations/0030_history_without_foreign_keys.ts"
import claimsCheck from "./migrations/0031_claims_check.ts"
import historyOneRowPerCommit from "./migrations/0032_history_one_row_per_commit.ts"
import jobAppliedCommand from "./migrations/0033_job_applied_command.ts"

/** Every migration by name, in order (a test runs a prefix of them to check the next one on data of the old shape). */
export const MIGRATIONS = {
  "0001_foundation": foundation,
  "0002_process_engine": processEngine,
  "0003_instance_scopes": instanceScopes,
  "0004_instance_outbox": instanceOutbox,
  "0005_message_start_events": messageStartEvents,
  "0006_buffered_messages": bufferedMessages,
  "0007_signal_start_events": signalStartEvents,
  "0008_decisions": decisions,
  "0009_timer_start_events": timerStartEvents,
  "0010_instance_row_indexes": instanceRowIndexes,
  "0012_batch_operations": batchOperations,
  "0013_job_retries": jobRetries,
  "0014_task_work": taskWork,
  "0015_connections": connections,
  "0016_modeling": modeling,
  "0017_forms": forms,
  "0018_idempotent_requests": idempotentRequests,
  "0019_tenant_subjects": tenantSubjects,
  "0020_job_lock_expiries": jobLockExpiries,
  "0021_timer_start_cycles": timerStartCycles,
  "0022_user_task_schedule": userTaskSchedule,
  "0023_instances_not_active": instancesNotActive,
  "0024_task_completion_denials": taskCompletionDenials,
  "0025_decision_version_tags": decisionVersionTags,
  "0026_task_form_version_tags": taskFormVersionTags,
  "0027_task_assigning_listeners": taskAssigningListeners,
  "0028_deployment_binding": deploymentBinding,
  "0029_batch_check": batchCheck,
  "0030_history_without_foreign_keys": historyWithoutForeignKeys,
  "0031_claims_check": claimsCheck,
  "0032_history_one_row_per_commit": historyOneRowPerCommit,
  "0033_job_applied_command": jobAppliedCommand
} as const

/** Runs the named migrations not yet applied (the table schema_migrations records which were). */
export const migrateWith = (migrations: Record<string, Effect.Effect<void, unknown, SqlClient.SqlClient>>) =>
  Migrator.make({})({ loader: Migrator.fromRecord(migrations), table: "schema_migrations" })

const migrate = migrateWith(MIGRATIONS)

// Nodes of a cluster start at the same time on one database: a transaction-scoped advisory lock lets one of them
// migrate while the others wait, then find nothing left to do. (The migrations' own transactions nest as savepoints.)
const MIGRATION_LOCK = 7_276_001

export const MigrationsLive = Layer.effectDiscard(
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql.withTransaction(Effect.andThen(sql`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`, migrate))
  })
)
