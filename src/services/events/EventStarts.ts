// Starting instances at message and signal start events: one per start node of an ACTIVE deployment, each with an id
// derived from the delivery's key, so a re-delivered message or broadcast starts nothing twice. A start that fails
// (the deployment was suspended meanwhile, say) is skipped, not the whole delivery.
import { Effect } from "effect"
import type { SqlClient } from "effect/sql"
import type { Principal } from "../../auth/Principal.ts"
import { derivedId } from "../../engine/Execute.ts"
import type { EventStartRow as EventStart } from "../../persistence/instances/MessageTargets.ts"
import { forEachConcurrently } from "../Concurrently.ts"
import type { ProcessInstancesShape } from "../instances/ProcessInstances.ts"

type StartKind = "message-start" | "signal-start"

/** The signal start events of that name in the tenant's ACTIVE deployments (a publish reads its message start events
 * with its waiting subscriptions, in persistence/instances/MessageTargets.ts). */
const signalStarts = (sql: SqlClient.SqlClient, tenantId: string, name: string) =>
  sql<EventStart>`SELECT s.deployment_id, s.node_id
    FROM signal_start_events s JOIN deployments d ON d.id = s.deployment_id
    WHERE s.tenant_id = ${tenantId} AND s.signal_name = ${name} AND d.state = 'ACTIVE'`.pipe(Effect.orDie)

/** The ids of the instances a broadcast started (or an earlier delivery of the same broadcast already started). */
export const startAtSignalStarts = (
  sql: SqlClient.SqlClient,
  instances: ProcessInstancesShape,
  principal: Principal,
  signalName: string,
  variables: Readonly<Record<string, unknown>>,
  broadcastId: string
): Effect.Effect<ReadonlyArray<string>> =>
  Effect.flatMap(
    signalStarts(sql, principal.tenantId, signalName),
    (starts) => startAt(instances, principal, "signal-start", starts, variables, broadcastId)
  )

/** Starts an instance at each of the start events, its id derived from the delivery's key and the start event. */
export const startAt = (
  instances: ProcessInstancesShape,
  principal: Principal,
  kind: StartKind,
  starts: ReadonlyArray<EventStart>,
  variables: Readonly<Record<string, unknown>>,
  deliveryKey: string
): Effect.Effect<ReadonlyArray<string>> =>
  forEachConcurrently(starts, (start) =>
    instances.start(
      principal,
      start.deployment_id,
      variables,
      start.node_id,
      derivedId(deliveryKey, `${kind}:${start.deployment_id}:${start.node_id}`)
    ).pipe(
      Effect.map((instance) => [instance.id]),
      Effect.catch(() => Effect.succeed([] as Array<string>))
    ), 16).pipe(Effect.map((ids) => ids.flat()))
