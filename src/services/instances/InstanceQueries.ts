// Process instances as read from the projections: the instance, lists of them, and what one holds — its history and
// the state replayed up to one of its events, its tokens, event subscriptions and variables (per node and per scope).
// All within the request's tenant (CurrentTenant): another tenant's instance is not found.
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { CurrentTenant } from "../../auth/CurrentTenant.ts"
import type { InstanceState } from "../../engine/InstanceState.ts"
import { pagedQuery } from "../../persistence/PagedQuery.ts"
import { fromJson, toJson } from "../../persistence/SqlValues.ts"
import { type NotFound, notFound, type ValidationError } from "../../schema/ApiErrors.ts"
import type { PageOf, PageRequest } from "../../schema/Common.ts"
import type {
  EventSubscription,
  HistoryEvent,
  InstanceSnapshot,
  ProcessInstance
} from "../../schema/ProcessInstances.ts"
import type { ProcessInstanceId } from "../../schema/ResourceIds.ts"
import { isUuid } from "../Ids.ts"
import { queryInstant } from "../QueryInstant.ts"
import { isoFromDb, isoOrNull } from "../Time.ts"
import { type HistoryEvent as EngineHistoryEvent, ProcessEngine, type TokenView } from "./ProcessEngine.ts"
import { variableFilter } from "./VariableFilter.ts"

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
  /** With variableValue (JSON, else a string): instances whose root-scope variables hold it (VariableFilter.ts). */
  readonly variableName?: string | undefined
  readonly variableValue?: string | undefined
}

export interface ScopedVariable {
  readonly name: string
  readonly value: unknown
  readonly scopeId: string
}

/** The reads of the request's tenant (CurrentTenant). */
export interface InstanceQueriesShape {
  readonly list: (
    filter: InstanceFilter,
    page: PageRequest
  ) => Effect.Effect<PageOf<ProcessInstance>, ValidationError, CurrentTenant>
  readonly get: (id: ProcessInstanceId) => Effect.Effect<ProcessInstance, NotFound, CurrentTenant>
  readonly history: (
    id: ProcessInstanceId,
    page: PageRequest
  ) => Effect.Effect<PageOf<HistoryEvent>, NotFound, CurrentTenant>
  readonly variables: (
    id: ProcessInstanceId
  ) => Effect.Effect<
    {
      readonly processInstanceId: string
      readonly variables: Readonly<Record<string, unknown>>
      readonly version: number
    },
    NotFound,
    CurrentTenant
  >
  readonly tokens: (id: ProcessInstanceId) => Effect.Effect<ReadonlyArray<TokenView>, NotFound, CurrentTenant>
  readonly subscriptions: (
    id: ProcessInstanceId
  ) => Effect.Effect<ReadonlyArray<typeof EventSubscription.Type>, NotFound, CurrentTenant>
  readonly snapshot: (
    id: ProcessInstanceId,
    eventSeq: number
  ) => Effect.Effect<typeof InstanceSnapshot.Type, NotFound, CurrentTenant>
  readonly nodeVariables: (
    id: ProcessInstanceId
  ) => Effect.Effect<
    ReadonlyArray<{ readonly nodeId: string; readonly variables: Readonly<Record<string, unknown>> }>,
    NotFound,
    CurrentTenant
  >
  readonly scopeVariables: (scopeId: string) => Effect.Effect<ReadonlyArray<ScopedVariable>, NotFound, CurrentTenant>
  /** The instance that owns a scope (its root scope id is the instance id). */
  readonly instanceOfScope: (scopeId: string) => Effect.Effect<ProcessInstanceId, NotFound, CurrentTenant>
}

export const makeInstanceQueries: Effect.Effect<InstanceQueriesShape, never, SqlClient.SqlClient | ProcessEngine> =
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const engine = yield* ProcessEngine
    const columns = sql.literal(COLUMNS)

    const get: InstanceQueriesShape["get"] = Effect.fnUntraced(function*(id) {
      const tenantId = yield* CurrentTenant
      const rows = yield* sql<
        InstanceRow
      >`SELECT ${columns} FROM process_instances WHERE tenant_id = ${tenantId} AND id = ${id}`.pipe(Effect.orDie)
      if (rows[0] === undefined) return yield* notFound("process instance", id)
      return toInstance(rows[0])
    })

    const engineState = Effect.fnUntraced(function*(id: ProcessInstanceId) {
      const tenantId = yield* CurrentTenant
      const rows = yield* sql<{ engine_state: unknown }>`SELECT engine_state FROM process_instances
            WHERE tenant_id = ${tenantId} AND id = ${id}`.pipe(Effect.orDie)
      if (rows[0] === undefined) return yield* notFound("process instance", id)
      return fromJson<InstanceState>(rows[0].engine_state)
    })

    const instanceOfScope: InstanceQueriesShape["instanceOfScope"] = Effect.fnUntraced(function*(scopeId) {
      const tenantId = yield* CurrentTenant
      const rows = yield* sql<{ instance_id: ProcessInstanceId }>`SELECT id AS instance_id FROM process_instances
              WHERE tenant_id = ${tenantId} AND id::text = ${scopeId}
            UNION ALL SELECT instance_id FROM instance_scopes WHERE tenant_id = ${tenantId} AND scope_id = ${scopeId}`
        .pipe(Effect.orDie)
      if (rows[0] === undefined) return yield* notFound("scope", scopeId)
      return rows[0].instance_id
    })

    return {
      list: Effect.fnUntraced(function*(filter, page) {
        const tenantId = yield* CurrentTenant
        const startedAfter = yield* queryInstant("startedAfter", filter.startedAfter)
        const startedBefore = yield* queryInstant("startedBefore", filter.startedBefore)
        const endedAfter = yield* queryInstant("endedAfter", filter.endedAfter)
        const endedBefore = yield* queryInstant("endedBefore", filter.endedBefore)
        const variable = yield* variableFilter(filter.variableName, filter.variableValue)
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
          ...(endedBefore === undefined ? [] : [sql`ended_at < ${endedBefore}`]),
          ...(variable === undefined
            ? []
            : "value" in variable
            ? [sql`variables @> ${toJson({ [variable.name]: variable.value })}::jsonb`]
            : [sql`(variables -> ${variable.name}) IS NOT NULL`])
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
      variables: Effect.fnUntraced(function*(id) {
        const tenantId = yield* CurrentTenant
        yield* get(id)
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
      tokens: Effect.fnUntraced(function*(id) {
        const tenantId = yield* CurrentTenant
        yield* get(id)
        const rows = yield* sql<{ engine_state: unknown }>`SELECT engine_state FROM process_instances
              WHERE tenant_id = ${tenantId} AND id = ${id}`.pipe(Effect.orDie)
        return engine.tokens(fromJson(rows[0]!.engine_state))
      }),
      subscriptions: Effect.fnUntraced(function*(id) {
        const tenantId = yield* CurrentTenant
        yield* get(id)
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
      nodeVariables: (id) =>
        Effect.map(
          engineState(id),
          (state) => Object.entries(engine.nodeVariables(state)).map(([nodeId, variables]) => ({ nodeId, variables }))
        ),
      scopeVariables: Effect.fnUntraced(function*(scopeId) {
        const instanceId = yield* instanceOfScope(scopeId)
        const variables = engine.scopeVariables(yield* engineState(instanceId), scopeId)
        if (variables === undefined) return yield* notFound("scope", scopeId)
        return variables
      }),
      instanceOfScope,
      snapshot: Effect.fnUntraced(function*(id, eventSeq) {
        const tenantId = yield* CurrentTenant
        const instance = yield* get(id)
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
      history: Effect.fnUntraced(function*(id, page) {
        const tenantId = yield* CurrentTenant
        yield* get(id)
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
