// Deployments: each is one version of a process definition (versions counted per process key and tenant). New
// instances start from a deployment id; a suspended deployment refuses new starts (and, later, timer fires).
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { CurrentTenant } from "../../auth/CurrentTenant.ts"
import { CurrentPrincipal } from "../../auth/Principal.ts"
import type { ProcessGraph } from "../../bpmn/ProcessGraph.ts"
import { dueAt } from "../../bpmn/Timer.ts"
import { DeploymentStates } from "../../persistence/instances/DeploymentStates.ts"
import { deleteInstances } from "../../persistence/instances/InstanceDeletion.ts"
import { pagedQuery } from "../../persistence/PagedQuery.ts"
import { fromJson, isUniqueViolation, toJson } from "../../persistence/SqlValues.ts"
import { tenantWhere } from "../../persistence/TenantWhere.ts"
import {
  type BusinessError,
  businessError,
  type NotFound,
  notFound,
  type ValidationError
} from "../../schema/ApiErrors.ts"
import type { PageOf, PageRequest } from "../../schema/Common.ts"
import type { Deployment, DeploymentDetail } from "../../schema/Deployments.ts"
import type { DeploymentId } from "../../schema/ResourceIds.ts"
import { newId } from "../Ids.ts"
import { isoFromDb, nowIso } from "../Time.ts"
import { checkDeploymentBinding } from "./DeploymentBindingCheck.ts"
import { type CompiledModel, type ModelNode, ProcessModels } from "./ProcessModels.ts"

interface DeploymentRow {
  readonly id: string
  readonly key: string
  readonly name: string | null
  readonly version: number
  readonly version_tag: string | null
  readonly bundle_id?: string | null
  readonly format: Deployment["format"]
  readonly state: Deployment["state"]
  readonly created_by: string
  readonly created_at: unknown
  readonly updated_at: unknown
  readonly bpmn_xml?: string
  readonly source?: unknown
  readonly graph?: unknown
}

const toDeployment = (row: DeploymentRow): Deployment => ({
  id: row.id,
  key: row.key,
  name: row.name,
  versionTag: row.version_tag ?? null,
  bundleId: row.bundle_id ?? row.id,
  version: Number(row.version),
  format: row.format,
  state: row.state,
  createdBy: row.created_by,
  createdAt: isoFromDb(row.created_at),
  updatedAt: isoFromDb(row.updated_at)
})

const toDetail = (row: DeploymentRow): DeploymentDetail => ({
  ...toDeployment(row),
  bpmnXml: row.bpmn_xml ?? "",
  source: row.source === null || row.source === undefined ? null : fromJson(row.source)
})

export type DeploymentSource =
  | { readonly format: "BPMN_XML"; readonly xml: string }
  | { readonly format: "JSON_GRAPH"; readonly graph: unknown }

/** The deployments of the request's tenant (CurrentTenant). */
export interface DeploymentsShape {
  /** Deploys a new version, recorded as the caller's (CurrentPrincipal). */
  readonly deploy: (
    source: DeploymentSource
  ) => Effect.Effect<Deployment, ValidationError, CurrentTenant | CurrentPrincipal>
  /** Deploys a compiled version as one resource of a multi-resource deployment (DeploymentBundles.ts). */
  readonly deployInBundle: (
    model: CompiledModel,
    source: DeploymentSource,
    bundleId: string
  ) => Effect.Effect<Deployment, never, CurrentTenant | CurrentPrincipal>
  readonly list: (
    filter: { readonly key?: string | undefined },
    page: PageRequest
  ) => Effect.Effect<PageOf<Deployment>, never, CurrentTenant>
  readonly get: (id: DeploymentId) => Effect.Effect<DeploymentDetail, NotFound, CurrentTenant>
  readonly nodes: (id: DeploymentId) => Effect.Effect<ReadonlyArray<ModelNode>, NotFound, CurrentTenant>
  readonly setState: (
    id: DeploymentId,
    state: Deployment["state"]
  ) => Effect.Effect<Deployment, NotFound, CurrentTenant>
  readonly remove: (
    id: DeploymentId,
    includeFinishedInstances: boolean
  ) => Effect.Effect<Deployment, NotFound | BusinessError, CurrentTenant>
  /** The stored executable graph of a deployment (the engine's input). */
  readonly graphOf: (
    id: DeploymentId
  ) => Effect.Effect<{ readonly deployment: Deployment; readonly graph: ProcessGraph }, NotFound, CurrentTenant>
}

const SUMMARY_COLUMNS = "id, key, name, version, graph->>'versionTag' AS version_tag, bundle_id, format, state, " +
  "created_by, created_at, updated_at"

export class Deployments extends Context.Service<Deployments, DeploymentsShape>()("flowcore/Deployments") {
  static readonly layer = Layer.effect(
    Deployments,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const deploymentStates = yield* DeploymentStates
      const models = yield* ProcessModels
      const summary = sql.literal(SUMMARY_COLUMNS)

      const insertVersion = (
        tenantId: string,
        actor: string,
        model: CompiledModel,
        source: DeploymentSource,
        bundleId: string | null
      ) =>
        // Its own transaction (a savepoint inside a multi-resource deployment's), so a retry starts clean.
        sql.withTransaction(Effect.gen(function*() {
          const id = yield* newId
          const now = yield* nowIso
          const sourceJson = source.format === "JSON_GRAPH" ? toJson(source.graph) : null
          // The next version is computed in the insert; the unique (tenant, key, version) index turns a concurrent
          // deploy of the same key into a retry instead of a duplicate version.
          const rows = yield* sql<DeploymentRow>`INSERT INTO deployments
              (tenant_id, id, key, name, version, format, bpmn_xml, source, graph, state, created_by, created_at, updated_at,
                bundle_id)
            SELECT ${tenantId}, ${id}, ${model.key}, ${model.name}, coalesce(max(version), 0) + 1, ${source.format},
              ${model.bpmnXml}, ${sourceJson}::jsonb, ${toJson(model.graph)}::jsonb, 'ACTIVE', ${actor}, ${now}, ${now},
              ${bundleId}
            FROM deployments WHERE tenant_id = ${tenantId} AND key = ${model.key}
            RETURNING ${summary}`
          const deployment = toDeployment(rows[0]!)
          yield* activateEventStarts(tenantId, model.key)
          yield* scheduleTimerStarts(tenantId, deployment, model.graph as ProcessGraph, Date.parse(now))
          return deployment
        })).pipe(Effect.retry({ times: 5, while: isUniqueViolation }), Effect.orDie)

      // A new version replaces the pending timer starts of the older ones (as in Camunda 8).
      const scheduleTimerStarts = Effect.fnUntraced(
        function*(tenantId: string, deployment: Deployment, graph: ProcessGraph, deployedAt: number) {
          yield* sql`DELETE FROM timer_start_events WHERE tenant_id = ${tenantId} AND process_key = ${deployment.key}`
          for (const start of graph.timerStarts ?? []) {
            const due = dueAt(start.timer, deployedAt, {})
            if (!due.ok) continue
            yield* sql`INSERT INTO timer_start_events (tenant_id, process_key, deployment_id, node_id, due_at)
              VALUES (${tenantId}, ${deployment.key}, ${deployment.id}, ${start.nodeId}, ${
              new Date(due.dueAt).toISOString()
            })`
          }
        }
      )

      // Only the latest version of a process listens to its message and signal start events (as in Camunda 8).
      const activateEventStarts = Effect.fnUntraced(function*(tenantId: string, key: string) {
        yield* sql`DELETE FROM signal_start_events WHERE tenant_id = ${tenantId} AND process_key = ${key}`
        yield* sql`INSERT INTO signal_start_events (tenant_id, process_key, deployment_id, signal_name, node_id)
            SELECT d.tenant_id, d.key, d.id, m->>'signalName', m->>'nodeId'
            FROM (SELECT * FROM deployments WHERE tenant_id = ${tenantId} AND key = ${key} ORDER BY version DESC LIMIT 1) d,
              jsonb_array_elements(coalesce(d.graph->'signalStarts', '[]'::jsonb)) m`
        yield* sql`DELETE FROM message_start_events WHERE tenant_id = ${tenantId} AND process_key = ${key}`
        yield* sql`INSERT INTO message_start_events (tenant_id, process_key, deployment_id, message_name, node_id)
            SELECT d.tenant_id, d.key, d.id, m->>'messageName', m->>'nodeId'
            FROM (SELECT * FROM deployments WHERE tenant_id = ${tenantId} AND key = ${key} ORDER BY version DESC LIMIT 1) d,
              jsonb_array_elements(coalesce(d.graph->'messageStarts', '[]'::jsonb)) m`
      })

      const getRow = Effect.fnUntraced(function*(tenantId: string, id: DeploymentId, columns: string) {
        const rows = yield* sql<DeploymentRow>`SELECT ${sql.literal(columns)} FROM deployments
            WHERE tenant_id = ${tenantId} AND id = ${id}`.pipe(Effect.orDie)
        if (rows[0] === undefined) return yield* notFound("deployment", id)
        return rows[0]
      })

      return {
        deploy: Effect.fnUntraced(function*(source) {
          const tenantId = yield* CurrentTenant
          const actor = (yield* CurrentPrincipal).sub
          const model = source.format === "BPMN_XML"
            ? yield* models.fromXml(source.xml)
            : yield* models.fromJson(source.graph)
          // Deployed alone, a process holds nothing but itself: bindingType="deployment" can only call itself.
          const alone = { processes: new Set([model.key]), decisions: new Set<string>(), forms: new Set<string>() }
          yield* checkDeploymentBinding([model.graph as ProcessGraph], alone)
          return yield* insertVersion(tenantId, actor, model, source, null)
        }),
        deployInBundle: Effect.fnUntraced(function*(model, source, bundleId) {
          const tenantId = yield* CurrentTenant
          const actor = (yield* CurrentPrincipal).sub
          return yield* insertVersion(tenantId, actor, model, source, bundleId)
        }),
        list: Effect.fnUntraced(function*(filter, page) {
          const where = yield* tenantWhere(sql, [
            ...(filter.key === undefined ? [] : [sql`key = ${filter.key}`])
          ])
          const order = filter.key === undefined ? sql`created_at DESC, id DESC` : sql`version DESC`
          return yield* pagedQuery(sql, {
            select: sql`SELECT ${summary} FROM deployments`,
            countFrom: sql`deployments`,
            where,
            orderBy: order,
            page,
            toItem: toDeployment
          })
        }, Effect.orDie),
        get: (id) =>
          Effect.flatMap(
            CurrentTenant,
            (tenantId) => Effect.map(getRow(tenantId, id, `${SUMMARY_COLUMNS}, bpmn_xml, source`), toDetail)
          ),
        nodes: Effect.fnUntraced(function*(id) {
          const tenantId = yield* CurrentTenant
          const row = yield* getRow(tenantId, id, "id, bpmn_xml, source, format")
          const model = row.format === "JSON_GRAPH"
            ? yield* models.fromJson(fromJson(row.source))
            : yield* models.fromXml(row.bpmn_xml ?? "")
          return model.nodes
        }, Effect.catchTag("ValidationError", Effect.die)),
        setState: Effect.fnUntraced(function*(id, state) {
          const tenantId = yield* CurrentTenant
          yield* getRow(tenantId, id, "id")
          const now = yield* nowIso
          const rows = yield* sql<DeploymentRow>`UPDATE deployments SET state = ${state}, updated_at = ${now}
              WHERE tenant_id = ${tenantId} AND id = ${id} RETURNING ${summary}`.pipe(Effect.orDie)
          deploymentStates.forget(id)
          return toDeployment(rows[0]!)
        }),
        remove: Effect.fnUntraced(function*(id, includeFinishedInstances) {
          const tenantId = yield* CurrentTenant
          const row = yield* getRow(tenantId, id, SUMMARY_COLUMNS)
          return yield* sql.withTransaction(Effect.gen(function*() {
            const instances = yield* sql<{ running: unknown; finished: unknown }>`SELECT
                  count(*) FILTER (WHERE state IN ('ACTIVE', 'SUSPENDED')) AS running,
                  count(*) FILTER (WHERE state NOT IN ('ACTIVE', 'SUSPENDED')) AS finished
                FROM process_instances WHERE tenant_id = ${tenantId} AND deployment_id = ${id}`
            const running = Number(instances[0]?.running ?? 0)
            const finished = Number(instances[0]?.finished ?? 0)
            if (running > 0) {
              return yield* businessError(`deployment ${id} has ${running} running instance(s); cancel them first`, [
                { field: "id", message: `${running} running instance(s)`, code: "HAS_RUNNING_INSTANCES" }
              ])
            }
            if (finished > 0 && !includeFinishedInstances) {
              return yield* businessError(
                `deployment ${id} has ${finished} finished instance(s); pass includeFinishedInstances=true to delete them too`,
                [{
                  field: "includeFinishedInstances",
                  message: `${finished} finished instance(s)`,
                  code: "HAS_FINISHED_INSTANCES"
                }]
              )
            }
            yield* deleteInstances(sql, sql`tenant_id = ${tenantId} AND deployment_id = ${id}`)
            yield* sql`DELETE FROM deployments WHERE tenant_id = ${tenantId} AND id = ${id}`
            deploymentStates.forget(id)
            yield* activateEventStarts(tenantId, row.key)
            return toDeployment(row)
          })).pipe(Effect.catchTag("SqlError", Effect.die))
        }),
        graphOf: (id) =>
          Effect.flatMap(CurrentTenant, (tenantId) =>
            Effect.map(
              getRow(tenantId, id, `${SUMMARY_COLUMNS}, graph`),
              (row) => ({ deployment: toDeployment(row), graph: fromJson<ProcessGraph>(row.graph) })
            ))
      }
    })
  )
}
