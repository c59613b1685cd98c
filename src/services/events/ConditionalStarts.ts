// POST /conditional-start-events/evaluate: starts an instance of each deployed, non-suspended process (latest version)
// whose conditional start event's FEEL condition holds for the supplied variables.
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import type { Principal } from "../../auth/Principal.ts"
import { evaluateFeel } from "../../bpmn/Expressions.ts"
import { fromJson } from "../../persistence/SqlValues.ts"
import { ProcessInstances } from "../instances/ProcessInstances.ts"

export interface ConditionalStartsShape {
  readonly evaluate: (
    principal: Principal,
    request: {
      readonly variables?: Readonly<Record<string, unknown>> | undefined
      readonly processKey?: string | undefined
    }
  ) => Effect.Effect<
    { readonly correlatedCount: number; readonly startedCount: number; readonly instanceIds: ReadonlyArray<string> }
  >
}

export class ConditionalStarts
  extends Context.Service<ConditionalStarts, ConditionalStartsShape>()("flowcore/ConditionalStarts")
{
  static readonly layer = Layer.effect(
    ConditionalStarts,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const instances = yield* ProcessInstances
      return {
        evaluate: Effect.fnUntraced(function*(principal, request) {
          const variables = request.variables ?? {}
          const latest = yield* sql<{ id: string; state: string; starts: unknown }>`SELECT * FROM (
                SELECT DISTINCT ON (key) id, key, state, graph->'conditionalStarts' AS starts FROM deployments
                WHERE tenant_id = ${principal.tenantId} ${
            request.processKey === undefined ? sql`` : sql`AND key = ${request.processKey}`
          }
                ORDER BY key, version DESC) latest
              WHERE state = 'ACTIVE' AND jsonb_array_length(coalesce(starts, '[]'::jsonb)) > 0`.pipe(Effect.orDie)
          const holding = latest.flatMap((deployment) =>
            fromJson<Array<{ nodeId: string; condition: string }>>(deployment.starts)
              .filter((start) => {
                const outcome = evaluateFeel(
                  start.condition.trimStart().startsWith("=") ? start.condition : `=${start.condition}`,
                  variables
                )
                return outcome.ok && outcome.value === true
              })
              .map((start) => ({ deploymentId: deployment.id, nodeId: start.nodeId }))
          )
          const started = yield* Effect.forEach(
            holding,
            (start) =>
              instances.start(principal, start.deploymentId, variables, start.nodeId).pipe(
                Effect.map((instance) => [instance.id]),
                Effect.catch(() => Effect.succeed([] as Array<string>))
              ),
            { concurrency: 16 }
          )
          const ids = started.flat()
          return { correlatedCount: 0, startedCount: ids.length, instanceIds: ids }
        })
      }
    })
  )
}
