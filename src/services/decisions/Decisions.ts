// Decision models and decisions: deploy a JSON decision table (stored as the DMN XML it generates) or import a DMN
// file with many decisions; every decision is the next version of its key. Parsed models are cached by id.
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { CurrentTenant } from "../../auth/CurrentTenant.ts"
import { CurrentPrincipal } from "../../auth/Principal.ts"
import { pagedQuery } from "../../persistence/PagedQuery.ts"
import { fromJson, isUniqueViolation, toJson } from "../../persistence/SqlValues.ts"
import { type BusinessError, type NotFound, notFound, type ValidationError } from "../../schema/ApiErrors.ts"
import type { PageOf, PageRequest } from "../../schema/Common.ts"
import type { Decision, DecisionModel } from "../../schema/Decisions.ts"
import type { DecisionModelId } from "../../schema/ResourceIds.ts"
import { newId } from "../Ids.ts"
import { isoFromDb, nowIso } from "../Time.ts"
import {
  decisionByRef,
  DecisionEngine,
  type Evaluation,
  type EvaluationOptions,
  type ParsedDecisionModel,
  serviceByRef
} from "./DecisionEngine.ts"
import { linkImports } from "./DecisionImports.ts"
import { type DecisionRow, findDecision, toDecision } from "./DecisionRows.ts"

interface ModelRow {
  readonly id: string
  readonly name: string | null
  readonly namespace: string | null
  readonly format: Decision["format"]
  readonly dmn_xml: string
  readonly created_by: string
  readonly created_at: unknown
  readonly decision_count?: unknown
}

export interface EvaluatedDecision extends Evaluation {
  readonly decisionId: string
  readonly decisionKey: string
  readonly version: number | null
  /** The output column's name when the decision has exactly one (business rule tasks name the variable after it). */
  readonly outputName: string | null
}

type EvaluateError = NotFound | BusinessError | ValidationError

/** The decisions of the request's tenant (CurrentTenant). */
export interface DecisionsShape {
  /** Deploys into the request's tenant (CurrentTenant), recorded as the caller's (CurrentPrincipal). */
  readonly deployTable: (table: unknown) => Effect.Effect<Decision, ValidationError, CurrentTenant | CurrentPrincipal>
  /** A DMN model; with a bundle id, deployed by POST /deployments together with the processes using it. */
  readonly importXml: (
    xml: string,
    bundleId?: string
  ) => Effect.Effect<DecisionModel, ValidationError, CurrentTenant | CurrentPrincipal>
  readonly list: (
    filter: { readonly key?: string | undefined },
    page: PageRequest
  ) => Effect.Effect<PageOf<Decision>, never, CurrentTenant>
  readonly get: (id: string) => Effect.Effect<
    {
      readonly decision: Decision
      readonly requiredDecisions: ReadonlyArray<string>
      readonly requiredInputs: ReadonlyArray<string>
      readonly table: unknown
    },
    NotFound,
    CurrentTenant
  >
  readonly xmlOf: (id: string) => Effect.Effect<string, NotFound, CurrentTenant>
  readonly evaluate: (
    id: string,
    variables: Readonly<Record<string, unknown>>,
    options: EvaluationOptions
  ) => Effect.Effect<EvaluatedDecision, EvaluateError, CurrentTenant>
  /** The latest version of a decision key (business rule tasks). */
  readonly evaluateLatest: (
    key: string,
    variables: Readonly<Record<string, unknown>>,
    binding?: DecisionBinding
  ) => Effect.Effect<EvaluatedDecision, EvaluateError, CurrentTenant>
  readonly listModels: (
    page: PageRequest
  ) => Effect.Effect<
    PageOf<Omit<DecisionModel, "decisions" | "decisionServices" | "inputs"> & { readonly decisionCount: number }>,
    never,
    CurrentTenant
  >
  readonly getModel: (id: DecisionModelId) => Effect.Effect<DecisionModel, NotFound, CurrentTenant>
  readonly modelXml: (id: DecisionModelId) => Effect.Effect<string, NotFound, CurrentTenant>
  readonly evaluateInModel: (
    modelId: DecisionModelId,
    /** The decision's key, DMN id or name. */
    decisionRef: string,
    variables: Readonly<Record<string, unknown>>,
    options?: { readonly typed?: boolean | undefined }
  ) => Effect.Effect<EvaluatedDecision, EvaluateError, CurrentTenant>
  readonly evaluateService: (
    modelId: DecisionModelId,
    /** The service's DMN id or name. */
    serviceRef: string,
    variables: Readonly<Record<string, unknown>>,
    options?: { readonly typed?: boolean | undefined }
  ) => Effect.Effect<EvaluatedDecision, EvaluateError, CurrentTenant>
}

/** A business rule task's bindingType: none is the latest version. */
export interface DecisionBinding {
  /** bindingType="versionTag": the latest version deployed with this zeebe:versionTag. */
  readonly versionTag?: string | null | undefined
  /** bindingType="deployment": the version deployed together with this instance's process version. */
  readonly deploymentOfInstance?: string | undefined
}

const MODEL_CACHE_SIZE = 500

export class Decisions extends Context.Service<Decisions, DecisionsShape>()("flowcore/Decisions") {
  static readonly layer = Layer.effect(
    Decisions,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const engine = yield* DecisionEngine
      const cache = new Map<string, ParsedDecisionModel>()

      const modelRow = Effect.fnUntraced(function*(tenantId: string, id: DecisionModelId) {
        const rows = yield* sql<ModelRow>`SELECT * FROM decision_models WHERE tenant_id = ${tenantId} AND id = ${id}`
          .pipe(Effect.orDie)
        if (rows[0] === undefined) return yield* notFound("decision model", id)
        return rows[0]
      })

      /** A stored model loads: it was validated when it was stored. */
      const parsed = Effect.fnUntraced(function*(row: ModelRow) {
        const hit = cache.get(row.id)
        if (hit !== undefined) return hit
        const model = yield* engine.load(row.dmn_xml).pipe(Effect.orDie)
        if (cache.size >= MODEL_CACHE_SIZE) cache.delete(cache.keys().next().value!)
        cache.set(row.id, model)
        return model
      })

      /** The model with its imports linked to the tenant's latest model of each imported namespace. */
      const linked = (tenantId: string, model: ParsedDecisionModel) =>
        linkImports(
          engine,
          model,
          Effect.fnUntraced(function*(namespace) {
            const rows = yield* sql<ModelRow>`SELECT * FROM decision_models
              WHERE tenant_id = ${tenantId} AND namespace = ${namespace}
              ORDER BY created_at DESC, id DESC LIMIT 1`.pipe(Effect.orDie)
            return rows[0] === undefined ? undefined : yield* parsed(rows[0])
          })
        )

      const decisionRow = (tenantId: string, id: string) => findDecision(sql, tenantId, id)

      const store = (
        tenantId: string,
        actor: string,
        xml: string,
        model: ParsedDecisionModel,
        format: Decision["format"],
        table: unknown,
        bundleId: string | null = null
      ) =>
        sql.withTransaction(Effect.gen(function*() {
          const modelId = yield* newId
          const now = yield* nowIso
          yield* sql`INSERT INTO decision_models
              (tenant_id, id, name, namespace, format, dmn_xml, created_by, created_at, bundle_id)
            VALUES (${tenantId}, ${modelId}, ${model.name}, ${model.namespace}, ${format}, ${xml}, ${actor}, ${now},
              ${bundleId})`
          const decisions: Array<Decision> = []
          for (const decision of model.decisions) {
            const id = yield* newId
            const rows = yield* sql<DecisionRow>`INSERT INTO decisions
                (tenant_id, id, decision_model_id, key, name, version, kind, hit_policy, source, created_by, created_at,
                  version_tag)
              SELECT ${tenantId}, ${id}, ${modelId}, ${decision.key}, ${decision.name}, coalesce(max(version), 0) + 1,
                ${decision.kind}, ${decision.hitPolicy}, ${
              table === undefined ? null : toJson(table)
            }::jsonb, ${actor}, ${now}, ${decision.versionTag ?? null}
              FROM decisions WHERE tenant_id = ${tenantId} AND key = ${decision.key}
              RETURNING *, ${format}::text AS format`
            decisions.push(toDecision(rows[0]!))
          }
          cache.set(modelId, model)
          return { modelId, decisions, now }
        })).pipe(Effect.retry({ times: 5, while: isUniqueViolation }), Effect.orDie)

      const toModel = (
        row: ModelRow,
        model: ParsedDecisionModel,
        decisions: ReadonlyArray<Decision>
      ): DecisionModel => ({
        id: row.id,
        name: row.name,
        namespace: row.namespace,
        format: row.format,
        decisions,
        decisionServices: model.services,
        inputs: model.inputs,
        createdBy: row.created_by,
        createdAt: isoFromDb(row.created_at)
      })

      const decisionsOfModel = (tenantId: string, modelId: string) =>
        sql<DecisionRow>`SELECT d.*, m.format FROM decisions d JOIN decision_models m ON m.id = d.decision_model_id
          WHERE d.tenant_id = ${tenantId} AND d.decision_model_id = ${modelId} ORDER BY d.key`.pipe(
          Effect.map((rows) => rows.map(toDecision)),
          Effect.orDie
        )

      const evaluateRow = Effect.fnUntraced(function*(
        tenantId: string,
        row: DecisionRow,
        variables: Readonly<Record<string, unknown>>,
        options: EvaluationOptions
      ) {
        const model = yield* linked(tenantId, yield* parsed(yield* modelRow(tenantId, row.decision_model_id)))
        const evaluation = yield* engine.evaluate(model, row.key, variables, options)
        const summary = model.decisions.find((d) => d.key === row.key)
        return {
          ...evaluation,
          decisionId: row.id,
          decisionKey: row.key,
          version: Number(row.version),
          outputName: summary?.outputNames.length === 1 ? summary.outputNames[0]! : null
        }
      })

      return {
        deployTable: Effect.fnUntraced(function*(table) {
          const tenantId = yield* CurrentTenant
          const actor = (yield* CurrentPrincipal).sub
          const generated = yield* engine.fromTable(table)
          const model = yield* engine.parse(generated.xml)
          const stored = yield* store(tenantId, actor, generated.xml, model, "JSON_TABLE", table)
          return stored.decisions.find((d) => d.key === generated.decisionId) ?? stored.decisions[0]!
        }),
        importXml: Effect.fnUntraced(function*(xml, bundleId) {
          const tenantId = yield* CurrentTenant
          const actor = (yield* CurrentPrincipal).sub
          const model = yield* engine.parse(xml)
          const stored = yield* store(tenantId, actor, xml, model, "DMN_XML", undefined, bundleId ?? null)
          return toModel(
            {
              id: stored.modelId,
              name: model.name,
              namespace: model.namespace,
              format: "DMN_XML",
              dmn_xml: xml,
              created_by: actor,
              created_at: stored.now
            },
            model,
            stored.decisions
          )
        }),
        list: Effect.fnUntraced(function*(filter, page) {
          const tenantId = yield* CurrentTenant
          const where = sql.and([
            sql`d.tenant_id = ${tenantId}`,
            ...(filter.key === undefined ? [] : [sql`d.key = ${filter.key}`])
          ])
          const order = filter.key === undefined ? sql`d.created_at DESC, d.id DESC` : sql`d.version DESC`
          return yield* pagedQuery(sql, {
            select: sql`SELECT d.*, m.format FROM decisions d JOIN decision_models m ON m.id = d.decision_model_id`,
            countFrom: sql`decisions d`,
            where,
            orderBy: order,
            page,
            toItem: toDecision
          })
        }, Effect.orDie),
        get: Effect.fnUntraced(function*(id) {
          const tenantId = yield* CurrentTenant
          const row = yield* decisionRow(tenantId, id)
          const model = yield* parsed(yield* modelRow(tenantId, row.decision_model_id))
          const summary = model.decisions.find((d) => d.key === row.key)
          return {
            decision: toDecision(row),
            requiredDecisions: summary?.requiredDecisions ?? [],
            requiredInputs: summary?.requiredInputs ?? [],
            table: row.source === null ? null : fromJson(row.source)
          }
        }),
        xmlOf: Effect.fnUntraced(function*(id) {
          const tenantId = yield* CurrentTenant
          const row = yield* decisionRow(tenantId, id)
          return (yield* modelRow(tenantId, row.decision_model_id)).dmn_xml
        }),
        evaluate: (id, variables, options) =>
          Effect.flatMap(
            CurrentTenant,
            (tenantId) =>
              Effect.flatMap(decisionRow(tenantId, id), (row) => evaluateRow(tenantId, row, variables, options))
          ),
        evaluateLatest: Effect.fnUntraced(function*(key, variables, binding = {}) {
          const tenantId = yield* CurrentTenant
          const { versionTag, deploymentOfInstance } = binding
          const tagged = versionTag == null ? sql`true` : sql`d.version_tag = ${versionTag}`
          const together = deploymentOfInstance === undefined ? sql`true` : sql`m.bundle_id = (
              SELECT coalesce(p.bundle_id, p.id) FROM process_instances i JOIN deployments p ON p.id = i.deployment_id
              WHERE i.tenant_id = ${tenantId} AND i.id = ${deploymentOfInstance})`
          const rows = yield* sql<
            DecisionRow
          >`SELECT d.*, m.format FROM decisions d JOIN decision_models m ON m.id = d.decision_model_id
              WHERE d.tenant_id = ${tenantId} AND d.key = ${key} AND ${tagged} AND ${together}
              ORDER BY d.version DESC LIMIT 1`.pipe(Effect.orDie)
          if (rows[0] === undefined) {
            return yield* notFound(
              "decision",
              deploymentOfInstance !== undefined
                ? `${key} in the deployment of the process version (bindingType deployment)`
                : versionTag == null
                ? key
                : `${key} with version tag ${versionTag}`
            )
          }
          return yield* evaluateRow(tenantId, rows[0], variables, { trace: false })
        }),
        listModels: Effect.fnUntraced(function*(page) {
          const tenantId = yield* CurrentTenant
          return yield* pagedQuery(sql, {
            select: sql`SELECT m.id, m.name, m.namespace, m.format, m.created_by, m.created_at,
                  (SELECT count(*) FROM decisions d WHERE d.decision_model_id = m.id) AS decision_count
                FROM decision_models m`,
            countFrom: sql`decision_models m`,
            where: sql`m.tenant_id = ${tenantId}`,
            orderBy: sql`m.created_at DESC, m.id DESC`,
            page,
            toItem: (row: ModelRow) => ({
              id: row.id,
              name: row.name,
              namespace: row.namespace,
              format: row.format,
              decisionCount: Number(row.decision_count ?? 0),
              createdBy: row.created_by,
              createdAt: isoFromDb(row.created_at)
            })
          })
        }, Effect.orDie),
        getModel: Effect.fnUntraced(function*(id) {
          const tenantId = yield* CurrentTenant
          const row = yield* modelRow(tenantId, id)
          return toModel(row, yield* parsed(row), yield* decisionsOfModel(tenantId, id))
        }),
        modelXml: (id) =>
          Effect.flatMap(CurrentTenant, (tenantId) => Effect.map(modelRow(tenantId, id), (row) => row.dmn_xml)),
        evaluateInModel: Effect.fnUntraced(function*(modelId, decisionRef, variables, options) {
          const tenantId = yield* CurrentTenant
          const row = yield* modelRow(tenantId, modelId)
          const model = yield* linked(tenantId, yield* parsed(row))
          const summary = decisionByRef(model, decisionRef)
          if (summary === undefined) return yield* notFound("decision", decisionRef)
          const evaluation = yield* engine.evaluate(model, summary.key, variables, {
            trace: false,
            typed: options?.typed
          })
          const stored = (yield* decisionsOfModel(tenantId, modelId)).find((d) => d.key === summary.key)
          return {
            ...evaluation,
            decisionId: stored?.id ?? summary.key,
            decisionKey: summary.key,
            version: stored?.version ?? null,
            outputName: null
          }
        }),
        evaluateService: Effect.fnUntraced(function*(modelId, serviceRef, variables, options) {
          const tenantId = yield* CurrentTenant
          const model = yield* linked(tenantId, yield* parsed(yield* modelRow(tenantId, modelId)))
          const service = serviceByRef(model, serviceRef)
          if (service === undefined) return yield* notFound("decision service", serviceRef)
          const evaluation = yield* engine.evaluateService(model, service.key, variables, options)
          return { ...evaluation, decisionId: service.key, decisionKey: service.key, version: null, outputName: null }
        })
      }
    })
  )
}
