// Starting instances at message and signal start events: one per start node of an ACTIVE deployment, each with an id
// derived from the delivery's key, so a re-delivered message or broadcast starts nothing twice. A start that fails
// (the deployment was suspended meanwhile, say) is skipped, not the whole delivery.
import { Effect } from "effect"
import type { SqlClient } from "effect/sql"
import type { Principal } from "../auth/Principal.ts"
import { derivedId } from "../engine/Execute.ts"
import type { EventStartRow as EventStart } from "../persistence/MessageTargets.ts"
import type { ProcessInstancesShape } from "./ProcessInstances.ts"

type StartKind = "message-start" | "signal-start"

/** The start events of that kind and name in the tenant's ACTIVE deployments. */
const startEvents = (sql: SqlClient.SqlClient, tenantId: string, kind: StartKind, name: string) =>
  (kind === "message-start"
    ? sql<EventStart>`SELECT m.deployment_id, m.node_id
        FROM message_start_events m JOIN deployments d ON d.id = m.deployment_id
        WHERE m.tenant_id = ${tenantId} AND m.message_name = ${name} AND d.state = 'ACTIVE'`
    : sql<EventStart>`SELECT s.deployment_id, s.node_id
        FROM signal_start_events s JOIN deployments d ON d.id = s.deployment_id
        WHERE s.tenant_id = ${tenantId} AND s.signal_name = ${name} AND d.state = 'ACTIVE'`).pipe(Effect.orDie)

/** The ids of the instances started (or already started by an earlier delivery of the same key). */
export const startAtEventStarts = (
  sql: SqlClient.SqlClient,
  instances: ProcessInstancesShape,
  principal: Principal,
  event: { readonly kind: StartKind; readonly name: string },
  variables: Readonly<Record<string, unknown>>,
  deliveryKey: string
): Effect.Effect<ReadonlyArray<string>> =>
  Effect.flatMap(
    startEvents(sql, principal.tenantId, event.kind, event.name),
    (starts) => startAt(instances, principal, event.kind, starts, variables, deliveryKey)
  )

/** startAtEventStarts with the start events already read (a publish reads them with its waiting subscriptions). */
export const startAt = (
  instances: ProcessInstancesShape,
  principal: Principal,
  kind: StartKind,
  starts: ReadonlyArray<EventStart>,
  variables: Readonly<Record<string, unknown>>,
  deliveryKey: string
): Effect.Effect<ReadonlyArray<string>> =>
  Effect.forEach(starts, (start) =>
    instances.start(
      principal,
      start.deployment_id,
      variables,
      start.node_id,
      derivedId(deliveryKey, `${kind}:${start.deployment_id}:${start.node_id}`)
    ).pipe(
      Effect.map((instance) => [instance.id]),
      Effect.catch(() => Effect.succeed([] as Array<string>))
    ), { concurrency: 16 }).pipe(Effect.map((ids) => ids.flat()))
