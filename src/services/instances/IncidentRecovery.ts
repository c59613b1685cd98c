// Recovering from incidents: each action is a command to the instance's entity, which resolves the incident and
// resumes the token — run the node again, go past it, continue from another node, or first fix the variables
// (patch them, or restore them as they were at a history event). Incidents of the request's tenant (CurrentTenant),
// recovered by the caller (CurrentPrincipal); batches provide both for the batch's tenant and creator.
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { CurrentTenant } from "../../auth/CurrentTenant.ts"
import { CurrentPrincipal } from "../../auth/Principal.ts"
import type { InstanceCommand } from "../../engine/InstanceCommands.ts"
import { type ClientError, conflict, notFound, validationError } from "../../schema/ApiErrors.ts"
import type { IncidentId } from "../../schema/ResourceIds.ts"
import type { Incident } from "../../schema/Work.ts"
import { type IncidentRow, toIncident } from "./IncidentRows.ts"
import { ProcessInstances } from "./ProcessInstances.ts"

export type RecoveryAction =
  | { readonly kind: "retry" }
  | { readonly kind: "skip" }
  | { readonly kind: "restartFromNode"; readonly nodeId: string }
  | { readonly kind: "rollback"; readonly eventSeq: number }
  | { readonly kind: "editVariablesAndRetry"; readonly variables: Readonly<Record<string, unknown>> }

/**
 * restart-from-node is a MoveToken to the request's `nodeId`: a refusal the command names on its `targetNodeId` names
 * the request's field instead.
 */
const asRequestField = (error: ClientError): ClientError => {
  const onTarget = error._tag === "ValidationError"
    ? error.errors.find((detail) => detail.field === "targetNodeId")
    : undefined
  return onTarget === undefined ? error : validationError("nodeId", onTarget.message, onTarget.code)
}

export interface IncidentRecoveryShape {
  readonly recover: (
    incidentId: IncidentId,
    action: RecoveryAction
  ) => Effect.Effect<
    Incident,
    ClientError,
    CurrentTenant | CurrentPrincipal
  >
}

export class IncidentRecovery
  extends Context.Service<IncidentRecovery, IncidentRecoveryShape>()("flowcore/IncidentRecovery")
{
  static readonly layer = Layer.effect(
    IncidentRecovery,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const instances = yield* ProcessInstances

      const incidentById = Effect.fnUntraced(function*(id: IncidentId) {
        const tenantId = yield* CurrentTenant
        const rows = yield* sql<IncidentRow>`SELECT * FROM incidents WHERE tenant_id = ${tenantId} AND id = ${id}`
          .pipe(Effect.orDie)
        if (rows[0] === undefined) return yield* notFound("incident", id)
        return rows[0]
      })

      /** The command to the instance's entity that carries out the action. */
      const commandFor = (
        incidentId: IncidentId,
        incident: IncidentRow,
        action: RecoveryAction
      ): Effect.Effect<InstanceCommand, ClientError, CurrentTenant> => {
        switch (action.kind) {
          case "retry":
          case "skip":
            return Effect.succeed({ type: "ResolveIncident", incidentId, action: action.kind })
          case "editVariablesAndRetry":
            return Effect.succeed({ type: "ResolveIncident", incidentId, action: "retry", variables: action.variables })
          case "rollback":
            // The instance's variables as they were right after that history event.
            return Effect.map(instances.snapshot(incident.instance_id, action.eventSeq), (snapshot) => ({
              type: "ResolveIncident",
              incidentId,
              action: "retry",
              restoreVariables: snapshot.variables
            }))
          case "restartFromNode":
            return Effect.succeed({
              type: "MoveToken",
              sourceNodeId: incident.node_id,
              targetNodeId: action.nodeId,
              ...(incident.element_instance_id === null ? {} : { tokenId: incident.element_instance_id }),
              variables: {}
            })
        }
      }

      return {
        recover: Effect.fnUntraced(function*(incidentId, action) {
          const principal = yield* CurrentPrincipal
          const incident = yield* incidentById(incidentId)
          if (incident.state !== "OPEN") return yield* conflict(`incident ${incidentId} is already resolved`)
          const command = yield* commandFor(incidentId, incident, action)
          yield* instances.command(principal, incident.instance_id, command).pipe(
            Effect.mapError((error) => action.kind === "restartFromNode" ? asRequestField(error) : error)
          )
          return toIncident(yield* incidentById(incidentId))
        })
      }
    })
  )
}
