// A form definition's past: a version per saved change (listed, compared, restored as a new draft), the lineage of
// restores, and the governance trail of every edit and transition. Within the request's tenant (CurrentTenant).
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { CurrentTenant } from "../../auth/CurrentTenant.ts"
import { CurrentPrincipal } from "../../auth/Principal.ts"
import { diffForms } from "../../forms/FormSchema.ts"
import { contentOf, fromJson } from "../../persistence/SqlValues.ts"
import { type BusinessError, type Conflict, type NotFound, notFound } from "../../schema/ApiErrors.ts"
import type { FormDefinition } from "../../schema/Forms.ts"
import type { FormDefinitionId } from "../../schema/ResourceIds.ts"
import { isoFromDb, nowMillis } from "../Time.ts"
import { type FormState, makeDefinitionRows } from "./FormDefinitionRows.ts"

type Restored = Effect.Effect<FormDefinition, NotFound | Conflict | BusinessError, CurrentTenant | CurrentPrincipal>

export interface FormDefinitionVersionsShape {
  readonly versions: (
    id: FormDefinitionId
  ) => Effect.Effect<
    ReadonlyArray<{ version: number; name: string; schema: unknown; author: string; createdAt: string }>,
    NotFound,
    CurrentTenant
  >
  readonly diff: (
    id: FormDefinitionId,
    from: number | undefined,
    to: number | undefined
  ) => Effect.Effect<{ from: number; to: number } & ReturnType<typeof diffForms>, NotFound, CurrentTenant>
  /** A version restored as a new draft of the same key (by the caller, CurrentPrincipal). */
  readonly restore: (id: FormDefinitionId, version: number) => Restored
  readonly lineage: (
    id: FormDefinitionId
  ) => Effect.Effect<
    {
      formId: string
      restoredFrom: Array<{ formId: string; version: number }>
      restoredInto: Array<{ formId: string; version: number }>
    },
    NotFound,
    CurrentTenant
  >
  readonly audit: (
    id: FormDefinitionId
  ) => Effect.Effect<
    ReadonlyArray<{
      seq: number
      action: string
      fromState: FormState | null
      toState: FormState | null
      actor: string
      detail: string | null
      occurredAt: string
    }>,
    NotFound,
    CurrentTenant
  >
}

/** The versions of the definitions `create` makes (a restore creates a new definition). */
export const makeFormDefinitionVersions = (
  create: (
    input: { readonly name: string; readonly key: string; readonly schema: unknown },
    restoredFrom: { formId: string; version: number }
  ) => Restored
) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const { record, row } = yield* makeDefinitionRows

    const versionRow = (id: string, version: number) =>
      Effect.flatMap(
        sql<
          { version: number; name: string; schema: unknown; author: string; created_at: unknown }
        >`SELECT * FROM form_definition_versions
            WHERE form_id = ${id} AND version = ${version}`.pipe(Effect.orDie),
        (rows) => (rows[0] === undefined
          ? Effect.fail(notFound("form version", `${version} of form definition ${id}`))
          : Effect.succeed(rows[0]))
      )

    const versions: FormDefinitionVersionsShape = {
      versions: Effect.fnUntraced(function*(id) {
        yield* row(id)
        const rows = yield* sql<
          { version: number; name: string; schema: unknown; author: string; created_at: unknown }
        >`SELECT * FROM form_definition_versions
              WHERE form_id = ${id} ORDER BY version DESC`.pipe(Effect.orDie)
        return rows.map((r) => ({
          version: Number(r.version),
          name: r.name,
          schema: contentOf(r.schema),
          author: r.author,
          createdAt: isoFromDb(r.created_at)
        }))
      }),
      diff: Effect.fnUntraced(function*(id, fromVersion, toVersion) {
        const current = yield* row(id)
        const to = toVersion ?? Number(current.version)
        const from = fromVersion ?? Math.max(1, to - 1)
        const a = yield* versionRow(id, from)
        const b = yield* versionRow(id, to)
        return { from, to, ...diffForms(contentOf(a.schema), contentOf(b.schema)) }
      }),
      restore: Effect.fnUntraced(function*(id, version) {
        const principal = yield* CurrentPrincipal
        const current = yield* row(id)
        const old = yield* versionRow(id, version)
        const restored = yield* create({
          name: old.name,
          key: current.key,
          schema: contentOf(old.schema)
        }, { formId: id, version })
        const now = new Date(yield* nowMillis).toISOString()
        yield* record(
          id,
          principal.sub,
          "RESTORED_INTO",
          null,
          null,
          `version ${version} restored as ${restored.id}`,
          now
        ).pipe(Effect.orDie)
        return restored
      }),
      lineage: Effect.fnUntraced(function*(id) {
        const tenantId = yield* CurrentTenant
        let current = yield* row(id)
        const restoredFrom: Array<{ formId: string; version: number }> = []
        for (let hops = 0; current.restored_from !== null && hops < 100; hops++) {
          const source = fromJson<{ formId: FormDefinitionId; version: number }>(current.restored_from)
          restoredFrom.push(source)
          const next = yield* Effect.option(row(source.formId))
          if (next._tag === "None") break
          current = next.value
        }
        const into = yield* sql<
          { id: string; restored_from: unknown }
        >`SELECT id, restored_from FROM form_definitions
              WHERE tenant_id = ${tenantId} AND restored_from ->> 'formId' = ${id} ORDER BY created_at, id`.pipe(
          Effect.orDie
        )
        return {
          formId: id,
          restoredFrom,
          restoredInto: into.map((r) => ({
            formId: r.id,
            version: fromJson<{ version: number }>(r.restored_from).version
          }))
        }
      }),
      audit: Effect.fnUntraced(function*(id) {
        yield* row(id)
        const rows = yield* sql<
          {
            seq: number
            action: string
            from_state: FormState | null
            to_state: FormState | null
            actor: string
            detail: string | null
            occurred_at: unknown
          }
        >`SELECT
                * FROM form_definition_audit WHERE form_id = ${id} ORDER BY seq`.pipe(Effect.orDie)
        return rows.map((r) => ({
          seq: Number(r.seq),
          action: r.action,
          fromState: r.from_state,
          toState: r.to_state,
          actor: r.actor,
          detail: r.detail,
          occurredAt: isoFromDb(r.occurred_at)
        }))
      })
    }
    return versions
  })
