// Process instances as the HTTP layer sees them: reads come from the projections; every change is a command sent to
// the instance's entity (the only writer), whose reply is the answer.
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import {
  type InstanceSnapshot as EntityReply,
  ProcessInstance as ProcessInstanceEntity
} from "../actors/ProcessInstance.ts"
import type { Principal } from "../auth/Principal.ts"
import type { InstanceCommand } from "../engine/InstanceCommands.ts"
import type { InstanceState } from "../engine/InstanceState.ts"
import { pagedQuery } from "../persistence/PagedQuery.ts"
import { fromJson } from "../persistence/SqlValues.ts"
import {
  type BusinessError,
  businessError,
  type Conflict,
  conflict,
  NotFound,
  notFound,
  ValidationError,
  validationError
} from "../schema/ApiErrors.ts"
import type { PageOf, PageRequest } from "../schema/Common.ts"
import type { EventSubscription, HistoryEvent, InstanceSnapshot, ProcessInstance } from "../schema/ProcessInstances.ts"
import { parseId, ProcessInstanceId } from "../schema/ResourceIds.ts"
import { isUuid, newId } from "./Ids.ts"
import { type CommandError, sendCommand } from "./InstanceCommandSender.ts"
import { type HistoryEvent as EngineHistoryEvent, ProcessEngine, type TokenView } from "./ProcessEngine.ts"
import { queryInstant } from "./QueryInstant.ts"
import { isoFromDb, isoOrNull } from "./Time.ts"

interface InstanceRow {
  readonly id: string
  readonly deployment_id: string
  readonly process_key: string
  readonly version: number
  readonly state: ProcessInstance["state"]
  readonly incident_count: number
  readonly parent_instance_id: string | null
  readonly root_instance_id: string
  readonly variables: unknown
  readonly started_by: string
  readonly started_at: unknown
  readonly ended_at: unknown
  readonly updated_at: unknown
}

const toInstance = (row: InstanceRow): ProcessInstance => ({
  id: row.id,
  deploymentId: row.deployment_id,
  processKey: row.process_key,
  version: Number(row.version),
  state: row.state,
  incidentCount: Number(row.incident_count),
  parentInstanceId: row.parent_instance_id,
  rootInstanceId: row.root_instance_id,
  variables: fromJson(row.variables),
  startedBy: row.started_by,
  startedAt: isoFromDb(row.started_at),
  endedAt: isoOrNull(row.ended_at),
  updatedAt: isoFromDb(row.updated_at)
})

interface HistoryRow {
  readonly event_seq: unknown
  readonly type: string
  readonly node_id: string | null
  readonly token_id: string | null
  readonly payload: unknown
  readonly actor: string | null
  readonly occurred_at: unknown
}

const COLUMNS = `id, deployment_id, process_key, version, state, incident_count, parent_instance_id, root_instance_id,
  variables, started_by, started_at, ended_at, updated_at`

export interface InstanceFilter {
  readonly deploymentId?: string | undefined
  readonly processKey?: string | undefined
  readonly state?: ProcessInstance["state"] | undefined
  readonly hasIncident?: boolean | undefined
  readonly startedAfter?: string | undefined
  readonly startedBefore?: string | undefined
  readonly endedAfter?: string | undefined
  readonly endedBefore?: string | undefined
}

export interface MigrationRequest {
  readonly processInstanceIds: ReadonlyArray<string>
  readonly targetDeploymentId: string
  readonly mappings: ReadonlyArray<{ readonly sourceNodeId: string; readonly targetNodeId: string }>
  readonly mapEqualNodes: boolean
}

export interface MigrationOutcome {
  readonly targetDeploymentId: string
  readonly migratedCount: number
  readonly processInstanceIds: ReadonlyArray<string>
  readonly failed: ReadonlyArray<{ readonly processInstanceId: string; readonly message: string }>
}

export type Delivery = "applied" | "held" | "missed"

export interface ProcessInstancesShape {
  readonly start: (
    principal: Principal,
    deploymentId: string,
    variables: Readonly<Record<string, unknown>>,
    startNodeId?: string,
    /** A deterministic id makes a repeated start (a redelivered broadcast) start nothing new. */
    instanceId?: string
  ) => Effect.Effect<ProcessInstance, CommandError>
  /** Sends a command straight to the instance's entity (no checks of the caller's view): correlations, system work. */
  /** Sends a command that may find its target gone: "applied", "held" (the instance is suspended: applied on resume) or "missed". */
  readonly deliver: (
    principal: Principal,
    id: ProcessInstanceId,
    command: InstanceCommand,
    commandId: string
  ) => Effect.Effect<Delivery>
  readonly list: (
    tenantId: string,
    filter: InstanceFilter,
    page: PageRequest
  ) => Effect.Effect<PageOf<ProcessInstance>, ValidationError>
  readonly get: (tenantId: string, id: ProcessInstanceId) => Effect.Effect<ProcessInstance, NotFound>
  /** Applies a command through the instance's entity, answering the entity's reply. */
  readonly apply: (
    principal: Principal,
    id: ProcessInstanceId,
    command: InstanceCommand,
    commandId: string
  ) => Effect.Effect<EntityReply, CommandError>
  /** Sends a command to the instance's entity; `commandId` makes retries of the same request safe. */
  readonly command: (
    principal: Principal,
    id: ProcessInstanceId,
    command: InstanceCommand,
    commandId?: string
  ) => Effect.Effect<ProcessInstance, CommandError>
  readonly remove: (tenantId: string, id: ProcessInstanceId) => Effect.Effect<ProcessInstance, NotFound | BusinessError>
  /** Checks every instance's migration first (all problems in one 400), then migrates each atomically. */
  readonly migrate: (
    principal: Principal,
    input: MigrationRequest
  ) => Effect.Effect<MigrationOutcome, NotFound | Conflict | ValidationError>
  readonly history: (
    tenantId: string,
    id: ProcessInstanceId,
    page: PageRequest
  ) => Effect.Effect<PageOf<HistoryEvent>, NotFound>
  readonly variables: (
    tenantId: string,
    id: ProcessInstanceId
  ) => Effect.Effect<
    {
      readonly processInstanceId: string
      readonly variables: Readonly<Record<string, unknown>>
      readonly version: number
    },
    NotFound
  >
  readonly tokens: (tenantId: string, id: ProcessInstanceId) => Effect.Effect<ReadonlyArray<TokenView>, NotFound>
  readonly subscriptions: (
    tenantId: string,
    id: ProcessInstanceId
  ) => Effect.Effect<ReadonlyArray<typeof EventSubscription.Type>, NotFound>
  readonly snapshot: (
    tenantId: string,
    id: ProcessInstanceId,
    eventSeq: number
  ) => Effect.Effect<typeof InstanceSnapshot.Type, NotFound>
  readonly nodeVariables: (
    tenantId: string,
    id: ProcessInstanceId
  ) => Effect.Effect<
    ReadonlyArray<{ readonly nodeId: string; readonly variables: Readonly<Record<string, unknown>> }>,
    NotFound
  >
  readonly scopeVariables: (tenantId: string, scopeId: string) => Effect.Effect<ReadonlyArray<ScopedVariable>, NotFound>
  /** The instance that owns a scope (its root scope id is the instance id). */
  readonly instanceOfScope: (tenantId: string, scopeId: string) => Effect.Effect<ProcessInstanceId, NotFound>
}

export interface ScopedVariable {
  readonly name: string
  readonly value: unknown
  readonly scopeId: string
}

export class ProcessInstances
  extends Context.Service<ProcessInstances, ProcessInstancesShape>()("flowcore/ProcessInstances")
{
  static readonly layer = Layer.effect(
    ProcessInstances,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const client = yield* ProcessInstanceEntity.client
      const engine = yield* ProcessEngine
      const columns = sql.literal(COLUMNS)

      const get: ProcessInstancesShape["get"] = (tenantId, id) =>
        Effect.gen(function*() {
          const rows = yield* sql<
            InstanceRow
          >`SELECT ${columns} FROM process_instances WHERE tenant_id = ${tenantId} AND id = ${id}`.pipe(Effect.orDie)
          if (rows[0] === undefined) return yield* notFound("process instance", id)
          return toInstance(rows[0])
        })

      const engineState = (tenantId: string, id: ProcessInstanceId) =>
        Effect.gen(function*() {
          const rows = yield* sql<{ engine_state: unknown }>`SELECT engine_state FROM process_instances
            WHERE tenant_id = ${tenantId} AND id = ${id}`.pipe(Effect.orDie)
          if (rows[0] === undefined) return yield* notFound("process instance", id)
          return fromJson<InstanceState>(rows[0].engine_state)
        })

      const instanceOfScope = (tenantId: string, scopeId: string) =>
        Effect.gen(function*() {
          const rows = yield* sql<{ instance_id: ProcessInstanceId }>`SELECT id AS instance_id FROM process_instances
              WHERE tenant_id = ${tenantId} AND id::text = ${scopeId}
            UNION ALL SELECT instance_id FROM instance_scopes WHERE tenant_id = ${tenantId} AND scope_id = ${scopeId}`
            .pipe(Effect.orDie)
          if (rows[0] === undefined) return yield* notFound("scope", scopeId)
          return rows[0].instance_id
        })

      const send = sendCommand(client)

      return {
        start: (principal, deploymentId, variables, startNodeId, instanceId) =>
          Effect.gen(function*() {
            if (!isUuid(deploymentId)) return yield* notFound("deployment", deploymentId)
            const id = ProcessInstanceId.make(instanceId ?? (yield* newId))
            const command = {
              type: "StartInstance" as const,
              variables,
              ...(startNodeId === undefined ? {} : { startNodeId })
            }
            const reply = yield* send(principal, id, "start", command, deploymentId, instanceId === undefined)
            // The instance as its start committed it: no need to read it back (a repeated start's reply lacks it).
            const started = reply.started
            if (started === undefined) return yield* get(principal.tenantId, id)
            return { id, ...started, state: reply.state, updatedAt: started.startedAt } satisfies ProcessInstance
          }),
        deliver: (principal, id, command, commandId) =>
          send(principal, id, commandId, command).pipe(
            Effect.map((reply): Delivery => (reply.state === "SUSPENDED" ? "held" : "applied")),
            Effect.catch(() => Effect.succeed<Delivery>("missed"))
          ),
        list: (tenantId, filter, page) =>
          Effect.gen(function*() {
            const startedAfter = yield* queryInstant("startedAfter", filter.startedAfter)
            const startedBefore = yield* queryInstant("startedBefore", filter.startedBefore)
            const endedAfter = yield* queryInstant("endedAfter", filter.endedAfter)
            const endedBefore = yield* queryInstant("endedBefore", filter.endedBefore)
            const where = sql.and([
              sql`tenant_id = ${tenantId}`,
              ...(filter.deploymentId === undefined
                ? []
                : [isUuid(filter.deploymentId) ? sql`deployment_id = ${filter.deploymentId}` : sql`false`]),
              ...(filter.processKey === undefined ? [] : [sql`process_key = ${filter.processKey}`]),
              ...(filter.state === undefined ? [] : [sql`state = ${filter.state}`]),
              ...(filter.hasIncident === undefined
                ? []
                : [filter.hasIncident ? sql`incident_count > 0` : sql`incident_count = 0`]),
              ...(startedAfter === undefined ? [] : [sql`started_at >= ${startedAfter}`]),
              ...(startedBefore === undefined ? [] : [sql`started_at < ${startedBefore}`]),
              ...(endedAfter === undefined ? [] : [sql`ended_at >= ${endedAfter}`]),
              ...(endedBefore === undefined ? [] : [sql`ended_at < ${endedBefore}`])
            ])
            return yield* pagedQuery(sql, {
              select: sql`SELECT ${columns} FROM process_instances`,
              countFrom: sql`process_instances`,
              where,
              orderBy: sql`started_at DESC, id DESC`,
              page,
              toItem: toInstance
            }).pipe(Effect.orDie)
          }),
        get,
        apply: (principal, id, command, commandId) => send(principal, id, commandId, command),
        command: (principal, id, command, commandId) =>
          Effect.gen(function*() {
            const instance = command.type === "CancelInstance" ? yield* get(principal.tenantId, id) : undefined
            // A called instance belongs to its caller's call tree: it ends with its root (as in Camunda 8).
            if (instance !== undefined && instance.parentInstanceId !== null) {
              return yield* businessError(
                `process instance ${id} was started by a call activity of ${instance.parentInstanceId}; cancel the root instance ${instance.rootInstanceId}`,
                [{ field: "id", message: "a called instance cannot be canceled on its own", code: "CALLED_INSTANCE" }]
              )
            }
            yield* send(principal, id, commandId ?? (yield* newId), command)
            return yield* get(principal.tenantId, id)
          }),
        migrate: (principal, input) =>
          Effect.gen(function*() {
            const tenantId = principal.tenantId
            if (!isUuid(input.targetDeploymentId)) return yield* notFound("deployment", input.targetDeploymentId)
            const [target] = yield* sql<
              { id: string; key: string; graph: unknown }
            >`SELECT id, key, graph FROM deployments
              WHERE tenant_id = ${tenantId} AND id = ${input.targetDeploymentId}`.pipe(Effect.orDie)
            if (target === undefined) return yield* notFound("deployment", input.targetDeploymentId)
            const mappings: Record<string, string> = {}
            for (const mapping of input.mappings) {
              if (mapping.sourceNodeId in mappings) {
                return yield* validationError("mappings", `${mapping.sourceNodeId} is mapped twice`)
              }
              mappings[mapping.sourceNodeId] = mapping.targetNodeId
            }
            // Ids from the body: one that is not a UUID names no instance.
            const ids = yield* Effect.forEach([...new Set(input.processInstanceIds)], parseId(ProcessInstanceId))
            const rows = yield* sql<
              { id: string; process_key: string; state: string; engine_state: unknown; graph: unknown }
            >`SELECT i.id,
                i.process_key, i.state, i.engine_state, d.graph
              FROM process_instances i JOIN deployments d ON d.id = i.deployment_id
              WHERE i.tenant_id = ${tenantId} AND ${sql.in("i.id", ids)}`.pipe(Effect.orDie)
            const missing = ids.find((id) => !rows.some((row) => row.id === id))
            if (missing !== undefined) return yield* notFound("process instance", missing)
            const ended = rows.filter((row) => row.state === "COMPLETED" || row.state === "CANCELED")
            if (ended.length > 0) {
              return yield* conflict(
                `only running instances can be migrated: ${ended.map((row) => `${row.id} is ${row.state}`).join(", ")}`,
                ended.map((row) => ({
                  field: "processInstanceIds",
                  message: `${row.id} is ${row.state}`,
                  code: "NOT_RUNNING"
                }))
              )
            }
            // Up front, for every instance: the same process, and every active node mapped to a compatible node.
            const problems: Array<{ field: string; message: string; code: string }> = []
            const plans = new Map<string, Readonly<Record<string, string>>>()
            for (const row of rows) {
              if (row.process_key !== target.key) {
                problems.push({
                  field: "targetDeploymentId",
                  message: `${row.id} runs process ${row.process_key}, the target deployment is process ${target.key}`,
                  code: "OTHER_PROCESS"
                })
                continue
              }
              const plan = engine.planMigration({
                source: fromJson(row.graph),
                target: fromJson(target.graph),
                state: fromJson(row.engine_state),
                mappings,
                mapEqualNodes: input.mapEqualNodes
              })
              if (plan.ok) plans.set(row.id, { ...mappings, ...plan.mapping })
              else {problems.push(
                  ...plan.problems.map((message) => ({
                    field: "mappings",
                    message: `instance ${row.id}: ${message}`,
                    code: "UNMAPPED"
                  }))
                )}
            }
            if (problems.length > 0) {
              return yield* new ValidationError({
                message: `the migration cannot be applied: ${problems.map((p) => p.message).join("; ")}`,
                errors: problems
              })
            }
            const migrationId = yield* newId
            const results = yield* Effect.forEach(ids, (id) =>
              send(principal, id, `migrate:${migrationId}`, {
                type: "MigrateInstance",
                targetDeploymentId: target.id,
                mappings: plans.get(id)!
              }).pipe(
                Effect.as({ id, message: null as string | null }),
                Effect.catch((error) => Effect.succeed({ id, message: error.message }))
              ), { concurrency: 8 })
            return {
              targetDeploymentId: target.id,
              migratedCount: results.filter((r) => r.message === null).length,
              processInstanceIds: results.filter((r) => r.message === null).map((r) => r.id),
              failed: results.flatMap((
                r
              ) => (r.message === null ? [] : [{ processInstanceId: r.id, message: r.message }]))
            }
          }),
        remove: (tenantId, id) =>
          Effect.gen(function*() {
            const instance = yield* get(tenantId, id)
            if (instance.state === "ACTIVE" || instance.state === "SUSPENDED") {
              return yield* businessError(
                `process instance ${id} is ${instance.state.toLowerCase()}: only finished instances can be deleted; cancel it first`,
                [
                  { field: "id", message: `instance is ${instance.state}`, code: "NOT_FINISHED" }
                ]
              )
            }
            yield* sql`DELETE FROM process_instances WHERE tenant_id = ${tenantId} AND id = ${id}`.pipe(Effect.orDie)
            return instance
          }),
        variables: (tenantId, id) =>
          Effect.gen(function*() {
            yield* get(tenantId, id)
            const rows = yield* sql<
              { variables: unknown; variables_version: number }
            >`SELECT variables, variables_version
              FROM process_instances WHERE tenant_id = ${tenantId} AND id = ${id}`.pipe(Effect.orDie)
            return {
              processInstanceId: id,
              variables: fromJson<Record<string, unknown>>(rows[0]!.variables),
              version: Number(rows[0]!.variables_version)
            }
          }),
        tokens: (tenantId, id) =>
          Effect.gen(function*() {
            yield* get(tenantId, id)
            const rows = yield* sql<{ engine_state: unknown }>`SELECT engine_state FROM process_instances
              WHERE tenant_id = ${tenantId} AND id = ${id}`.pipe(Effect.orDie)
            return engine.tokens(fromJson(rows[0]!.engine_state))
          }),
        subscriptions: (tenantId, id) =>
          Effect.gen(function*() {
            yield* get(tenantId, id)
            const rows = yield* sql<
              {
                id: string
                node_id: string
                kind: "MESSAGE" | "TIMER" | "SIGNAL"
                name: string | null
                correlation_key: string | null
                due_at: unknown
                created_at: unknown
              }
            >`
              SELECT id, node_id, kind, name, correlation_key, due_at, created_at FROM event_subscriptions
              WHERE tenant_id = ${tenantId} AND instance_id = ${id} ORDER BY created_at, id`.pipe(Effect.orDie)
            return rows.map((row) => ({
              id: row.id,
              nodeId: row.node_id,
              kind: row.kind,
              name: row.name,
              correlationKey: row.correlation_key,
              dueAt: isoOrNull(row.due_at),
              createdAt: isoFromDb(row.created_at)
            }))
          }),
        nodeVariables: (tenantId, id) =>
          Effect.map(
            engineState(tenantId, id),
            (state) => Object.entries(engine.nodeVariables(state)).map(([nodeId, variables]) => ({ nodeId, variables }))
          ),
        scopeVariables: (tenantId, scopeId) =>
          Effect.gen(function*() {
            const instanceId = yield* instanceOfScope(tenantId, scopeId)
            const variables = engine.scopeVariables(yield* engineState(tenantId, instanceId), scopeId)
            if (variables === undefined) return yield* notFound("scope", scopeId)
            return variables
          }),
        instanceOfScope: (tenantId, scopeId) => instanceOfScope(tenantId, scopeId),
        snapshot: (tenantId, id, eventSeq) =>
          Effect.gen(function*() {
            const instance = yield* get(tenantId, id)
            const rows = yield* sql<
              { type: string; node_id: string | null; token_id: string | null; payload: unknown }
            >`
              SELECT type, node_id, token_id, payload FROM instance_events
              WHERE tenant_id = ${tenantId} AND instance_id = ${id} AND event_seq <= ${eventSeq} ORDER BY event_seq`
              .pipe(Effect.orDie)
            if (eventSeq < 1 || rows.length < eventSeq) {
              return yield* notFound("history event", `${eventSeq} of process instance ${instance.id}`)
            }
            const history: Array<EngineHistoryEvent> = rows.map((row) => ({
              type: row.type,
              nodeId: row.node_id,
              tokenId: row.token_id,
              payload: fromJson<Record<string, unknown>>(row.payload)
            }))
            const snapshot = engine.snapshot(id, history)
            return {
              processInstanceId: id,
              eventSeq,
              state: snapshot.status,
              variables: snapshot.variables,
              activeNodes: snapshot.activeNodes
            }
          }),
        history: (tenantId, id, page) =>
          Effect.gen(function*() {
            yield* get(tenantId, id)
            return yield* pagedQuery(sql, {
              select: sql`SELECT event_seq, type, node_id, token_id, payload, actor, occurred_at FROM instance_events`,
              countFrom: sql`instance_events`,
              where: sql`tenant_id = ${tenantId} AND instance_id = ${id}`,
              orderBy: sql`event_seq`,
              page,
              toItem: (row: HistoryRow) => ({
                eventSeq: Number(row.event_seq),
                type: row.type,
                nodeId: row.node_id,
                tokenId: row.token_id,
                data: fromJson<Record<string, unknown>>(row.payload),
                sub: row.actor,
                occurredAt: isoFromDb(row.occurred_at)
              })
            }).pipe(Effect.orDie)
          })
      }
    })
  )
}
