// SQL of the ProcessInstance entity: load an instance, and commit one applied command — history events, the new
// state, the projections (jobs, tasks, subscriptions, incidents) and the command id — in ONE transaction, so a crash
// leaves either all of it or none of it.
import { Array as Arr, Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import type { EngineOutcome, InstanceStatus, ProjectionChange } from "../engine/EngineOutcome.ts"
import { fromJson, toJson } from "./SqlValues.ts"

export interface StoredInstance {
  readonly id: string
  readonly tenantId: string
  readonly parentInstanceId: string | null
  readonly deploymentId: string
  readonly processKey: string
  readonly version: number
  readonly status: InstanceStatus
  readonly engineState: unknown
  readonly lastEventSeq: number
  readonly graph: unknown
}

export type OutboxKind =
  | "START_CHILD"
  | "CANCEL_CHILD"
  | "CHILD_COMPLETED"
  | "CHILD_ERROR"
  | "CHILD_ESCALATION"
  | "EVALUATE_DECISION"
  | "CORRELATE_MESSAGE"
  | "BROADCAST_SIGNAL"

export interface NewInstance {
  readonly id: string
  readonly tenantId: string
  readonly deploymentId: string
  readonly processKey: string
  readonly version: number
  readonly startedBy: string
  readonly parentInstanceId: string | null
  readonly parentNodeId: string | null
  readonly rootInstanceId: string
}

export interface DeploymentForStart {
  readonly id: string
  readonly key: string
  readonly version: number
  readonly state: "ACTIVE" | "SUSPENDED"
  readonly graph: unknown
}

export interface InstanceStoreShape {
  readonly load: (instanceId: string) => Effect.Effect<StoredInstance | undefined>
  readonly deploymentForStart: (tenantId: string, deploymentId: string) => Effect.Effect<DeploymentForStart | undefined>
  /** The reply recorded for a command id, if it was applied before. */
  readonly recordedReply: (instanceId: string, commandId: string) => Effect.Effect<unknown | undefined>
  readonly commit: (input: {
    readonly instance: StoredInstance
    /** Present when the command started the instance: its row is inserted. */
    readonly created: NewInstance | undefined
    readonly outcome: EngineOutcome
    readonly commandId: string
    readonly reply: unknown
    readonly actor: string
    readonly now: string
    /** undefined: the command id was applied before (nothing is written; read its recorded reply). */
  }) => Effect.Effect<StoredInstance | undefined>
}

interface InstanceRow {
  readonly id: string
  readonly tenant_id: string
  readonly deployment_id: string
  readonly process_key: string
  readonly version: number
  readonly state: InstanceStatus
  readonly parent_instance_id: string | null
  readonly engine_state: unknown
  readonly last_event_seq: unknown
  readonly graph: unknown
}

const FINAL: ReadonlySet<InstanceStatus> = new Set(["COMPLETED", "CANCELED"])

export class InstanceStore extends Context.Service<InstanceStore, InstanceStoreShape>()("flowcore/InstanceStore") {
  static readonly layer = Layer.effect(
    InstanceStore,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient

      const outbox = (tenantId: string, source: string, target: string, kind: OutboxKind, payload: unknown, actor: string, now: string) =>
        sql`INSERT INTO instance_outbox (tenant_id, source_instance_id, target_instance_id, kind, payload, actor, created_at)
          VALUES (${tenantId}, ${source}, ${target}, ${kind}, ${toJson(payload)}::jsonb, ${actor}, ${now})`

      const project = (tenantId: string, instanceId: string, parentInstanceId: string | null, change: ProjectionChange, now: string, actor: string) => {
        switch (change.kind) {
          case "JobCreated":
            return sql`INSERT INTO jobs (tenant_id, id, instance_id, node_id, element_instance_id, type, state, retries,
                worker, deadline, custom_headers, variables, error_message, created_at, updated_at)
              VALUES (${tenantId}, ${change.jobId}, ${instanceId}, ${change.nodeId}, ${change.elementInstanceId}, ${change.jobType},
                'ACTIVATABLE', ${change.retries}, NULL, NULL, ${toJson(change.headers)}::jsonb, ${toJson(change.variables)}::jsonb,
                NULL, ${now}, ${now})`
          case "JobClosed":
            return sql`UPDATE jobs SET state = ${change.state}, updated_at = ${now} WHERE id = ${change.jobId} AND tenant_id = ${tenantId}`
          case "JobFailed":
            // Each failure is recorded (its worker is the one holding the job); with retries left the job is
            // activatable again once retryAt has passed (the deadline column holds it).
            return Effect.andThen(sql`INSERT INTO job_failures (tenant_id, job_id, attempt, worker, error_message, retries_left, retry_at, failed_at)
                SELECT tenant_id, id, (SELECT count(*) + 1 FROM job_failures WHERE job_id = ${change.jobId}), worker, ${change.errorMessage},
                  ${change.retries}, ${change.retryAt}, ${now}
                FROM jobs WHERE id = ${change.jobId} AND tenant_id = ${tenantId}`, sql`UPDATE jobs SET state = ${change.retries > 0 ? "ACTIVATABLE" : "FAILED"}, retries = ${change.retries}, worker = NULL,
                deadline = ${change.retryAt}, error_message = ${change.errorMessage}, updated_at = ${now}
              WHERE id = ${change.jobId} AND tenant_id = ${tenantId}`)
          case "JobRetriesUpdated":
            // A locked job keeps its worker and lock; any other becomes claimable at once.
            return sql`UPDATE jobs SET retries = ${change.retries},
                state = CASE WHEN state = 'FAILED' THEN 'ACTIVATABLE' ELSE state END,
                worker = CASE WHEN state = 'ACTIVATED' THEN worker ELSE NULL END,
                deadline = CASE WHEN state = 'ACTIVATED' THEN deadline ELSE NULL END, updated_at = ${now}
              WHERE id = ${change.jobId} AND tenant_id = ${tenantId}`
          case "UserTaskCreated":
            return sql`INSERT INTO user_tasks (tenant_id, id, instance_id, node_id, element_instance_id, name, state, assignee,
                candidate_groups, candidate_users, form_key, variables, created_at, updated_at, completed_at)
              VALUES (${tenantId}, ${change.taskId}, ${instanceId}, ${change.nodeId}, ${change.elementInstanceId}, ${change.name},
                'CREATED', ${change.assignee}, ${toJson(change.candidateGroups)}::jsonb, ${toJson(change.candidateUsers)}::jsonb,
                ${change.formKey}, ${toJson(change.variables)}::jsonb, ${now}, ${now}, NULL)`
          case "UserTaskClosed":
            return sql`UPDATE user_tasks SET state = ${change.state}, updated_at = ${now},
                completed_at = ${change.state === "COMPLETED" ? now : null}
              WHERE id = ${change.taskId} AND tenant_id = ${tenantId}`
          case "SubscriptionOpened":
            return Effect.gen(function*() {
              yield* sql`INSERT INTO event_subscriptions (tenant_id, id, instance_id, node_id, element_instance_id, kind, name,
                  correlation_key, due_at, created_at)
                VALUES (${tenantId}, ${change.subscriptionId}, ${instanceId}, ${change.nodeId}, ${change.elementInstanceId},
                  ${change.subscriptionKind}, ${change.name}, ${change.correlationKey}, ${change.dueAt}, ${now})`
              if (change.subscriptionKind !== "MESSAGE") return
              // A buffered message nobody awaited when it was published: the first subscription within its time to
              // live takes it, claimed in this same transaction so no other instance can.
              const claimed = yield* sql<{ id: string; variables: unknown }>`DELETE FROM buffered_messages WHERE id = (
                  SELECT id FROM buffered_messages
                  WHERE tenant_id = ${tenantId} AND name = ${change.name} AND correlation_key = ${change.correlationKey}
                    AND state = 'BUFFERED' AND expires_at > ${now}
                  ORDER BY created_at, id LIMIT 1 FOR UPDATE SKIP LOCKED)
                RETURNING id, variables`
              const message = claimed[0]
              if (message !== undefined) {
                yield* outbox(tenantId, instanceId, instanceId, "CORRELATE_MESSAGE", {
                  subscriptionId: change.subscriptionId,
                  messageKey: message.id,
                  variables: fromJson(message.variables)
                }, actor, now)
              }
            })
          case "SubscriptionClosed":
            return sql`DELETE FROM event_subscriptions WHERE instance_id = ${instanceId} AND id = ${change.subscriptionId}`
          case "IncidentRaised":
            return sql`INSERT INTO incidents (tenant_id, id, instance_id, node_id, element_instance_id, job_id, type, message,
                state, created_at, resolved_at)
              VALUES (${tenantId}, ${change.incidentId}, ${instanceId}, ${change.nodeId}, ${change.elementInstanceId}, ${change.jobId},
                ${change.incidentType}, ${change.message}, 'OPEN', ${now}, NULL)`
          case "IncidentResolved":
            return sql`UPDATE incidents SET state = 'RESOLVED', resolved_at = ${now} WHERE id = ${change.incidentId} AND tenant_id = ${tenantId}`
          case "ScopeOpened":
            return sql`INSERT INTO instance_scopes (tenant_id, scope_id, instance_id, node_id, parent_scope_id, created_at)
              VALUES (${tenantId}, ${change.scopeId}, ${instanceId}, ${change.nodeId}, ${change.parentScopeId}, ${now})`
          case "ScopeClosed":
            return sql`DELETE FROM instance_scopes WHERE scope_id = ${change.scopeId} AND tenant_id = ${tenantId}`
          case "ChildStartRequested":
            return outbox(tenantId, instanceId, change.childInstanceId, "START_CHILD", {
              processKey: change.processKey,
              parentNodeId: change.nodeId,
              variables: change.variables
            }, actor, now)
          case "ChildCancelRequested":
            return outbox(tenantId, instanceId, change.childInstanceId, "CANCEL_CHILD", {}, actor, now)
          case "DecisionRequested":
            // The instance asks itself: evaluate, then answer with DecisionEvaluated / DecisionFailed.
            return outbox(tenantId, instanceId, instanceId, "EVALUATE_DECISION", {
              evaluationId: change.evaluationId,
              decisionId: change.decisionId,
              variables: change.variables
            }, actor, now)
          case "ElementMigrated":
            return Effect.all([
              sql`UPDATE jobs SET node_id = ${change.nodeId} WHERE instance_id = ${instanceId} AND element_instance_id = ${change.elementInstanceId} AND node_id = ${change.sourceNodeId}`,
              sql`UPDATE user_tasks SET node_id = ${change.nodeId} WHERE instance_id = ${instanceId} AND element_instance_id = ${change.elementInstanceId} AND node_id = ${change.sourceNodeId}`,
              sql`UPDATE event_subscriptions SET node_id = ${change.nodeId} WHERE instance_id = ${instanceId} AND element_instance_id = ${change.elementInstanceId} AND node_id = ${change.sourceNodeId}`,
              sql`UPDATE incidents SET node_id = ${change.nodeId} WHERE instance_id = ${instanceId} AND element_instance_id = ${change.elementInstanceId} AND node_id = ${change.sourceNodeId}`,
              sql`UPDATE instance_scopes SET node_id = ${change.nodeId} WHERE instance_id = ${instanceId} AND node_id = ${change.sourceNodeId}`
            ], { discard: true })
          case "CallerNotified":
            return parentInstanceId === null ? Effect.void : outbox(tenantId, instanceId, parentInstanceId, change.notification, change.payload, actor, now)
          case "SignalBroadcastRequested":
            return outbox(tenantId, instanceId, instanceId, "BROADCAST_SIGNAL", {
              broadcastId: change.broadcastId,
              signalName: change.signalName,
              variables: change.variables
            }, actor, now)
        }
      }

      const commit: InstanceStoreShape["commit"] = ({ instance, created, outcome, commandId, reply, actor, now }) =>
        sql.withTransaction(Effect.gen(function*() {
          const tenantId = instance.tenantId
          const ended = FINAL.has(outcome.status) ? now : null
          const lastEventSeq = instance.lastEventSeq + outcome.events.length
          if (created !== undefined) {
            yield* sql`INSERT INTO process_instances (tenant_id, id, deployment_id, process_key, version, state,
                parent_instance_id, parent_node_id, root_instance_id, variables, variables_version, engine_state,
                last_event_seq, incident_count, started_by, started_at, ended_at, updated_at)
              VALUES (${tenantId}, ${created.id}, ${created.deploymentId}, ${created.processKey}, ${created.version},
                ${outcome.status}, ${created.parentInstanceId}, ${created.parentNodeId}, ${created.rootInstanceId},
                ${toJson(outcome.variables)}::jsonb, ${outcome.variablesVersion}, ${toJson(outcome.state)}::jsonb, ${lastEventSeq},
                ${outcome.openIncidents},
                ${created.startedBy}, ${now}, ${ended}, ${now})`
            yield* sql`INSERT INTO instance_commands (tenant_id, instance_id, command_id, reply, processed_at)
              VALUES (${tenantId}, ${instance.id}, ${commandId}, ${toJson(reply)}::jsonb, ${now})`
          } else {
            // Claiming the command id first makes a duplicate delivery write nothing (and costs no extra lookup).
            const claimed = yield* sql`INSERT INTO instance_commands (tenant_id, instance_id, command_id, reply, processed_at)
              VALUES (${tenantId}, ${instance.id}, ${commandId}, ${toJson(reply)}::jsonb, ${now})
              ON CONFLICT DO NOTHING RETURNING command_id`
            if (claimed.length === 0) return undefined
            // The guard on last_event_seq makes a stale writer (a second runner that still believes it owns the
            // entity) fail instead of overwriting newer state.
            // deployment_id and version change only by a migration.
            const updated = yield* sql`UPDATE process_instances SET state = ${outcome.status},
                deployment_id = ${instance.deploymentId}, version = ${instance.version},
                variables = ${toJson(outcome.variables)}::jsonb, variables_version = ${outcome.variablesVersion},
                engine_state = ${toJson(outcome.state)}::jsonb, last_event_seq = ${lastEventSeq}, incident_count = ${outcome.openIncidents},
                ended_at = coalesce(ended_at, ${ended}), updated_at = ${now}
              WHERE id = ${instance.id} AND last_event_seq = ${instance.lastEventSeq} RETURNING id`
            if (updated.length === 0) return yield* Effect.die(new Error(`instance ${instance.id} was changed by another writer`))
          }
          const eventRows: Array<Record<string, unknown>> = outcome.events.map((event, index) => ({
              tenant_id: tenantId,
              instance_id: instance.id,
              event_seq: instance.lastEventSeq + index + 1,
              type: event.type,
              node_id: event.nodeId,
              token_id: event.tokenId,
              payload: toJson(event.payload),
              actor,
              occurred_at: now
          }))
          if (Arr.isArrayNonEmpty(eventRows)) yield* sql`INSERT INTO instance_events ${sql.insert(eventRows)}`
          for (const change of outcome.changes) yield* project(tenantId, instance.id, instance.parentInstanceId, change, now, actor)
          // A called instance that completes tells its parent, which waits at the call activity.
          if (outcome.status === "COMPLETED" && instance.status !== "COMPLETED" && instance.parentInstanceId !== null) {
            yield* outbox(tenantId, instance.id, instance.parentInstanceId, "CHILD_COMPLETED", { variables: outcome.variables }, actor, now)
          }
          return { ...instance, status: outcome.status, engineState: outcome.state, lastEventSeq }
        })).pipe(Effect.orDie)

      return {
        load: (instanceId) =>
          sql<InstanceRow>`SELECT i.id, i.tenant_id, i.deployment_id, i.process_key, i.version, i.state, i.parent_instance_id, i.engine_state,
              i.last_event_seq, d.graph
            FROM process_instances i JOIN deployments d ON d.id = i.deployment_id WHERE i.id = ${instanceId}`.pipe(
            Effect.map((rows) => {
              const row = rows[0]
              if (row === undefined) return undefined
              return {
                id: row.id,
                tenantId: row.tenant_id,
                parentInstanceId: row.parent_instance_id,
                deploymentId: row.deployment_id,
                processKey: row.process_key,
                version: Number(row.version),
                status: row.state,
                engineState: fromJson(row.engine_state),
                lastEventSeq: Number(row.last_event_seq),
                graph: fromJson(row.graph)
              }
            }),
            Effect.orDie
          ),
        deploymentForStart: (tenantId, deploymentId) =>
          sql<{ id: string; key: string; version: number; state: "ACTIVE" | "SUSPENDED"; graph: unknown }>`SELECT id, key,
              version, state, graph FROM deployments WHERE tenant_id = ${tenantId} AND id = ${deploymentId}`.pipe(
            Effect.map((rows) => rows[0] === undefined ? undefined : { ...rows[0], version: Number(rows[0].version), graph: fromJson(rows[0].graph) }),
            Effect.orDie
          ),
        recordedReply: (instanceId, commandId) =>
          sql<{ reply: unknown }>`SELECT reply FROM instance_commands WHERE instance_id = ${instanceId} AND command_id = ${commandId}`.pipe(
            Effect.map((rows) => (rows[0] === undefined ? undefined : fromJson(rows[0].reply))),
            Effect.orDie
          ),
        commit
      }
    })
  )
}
