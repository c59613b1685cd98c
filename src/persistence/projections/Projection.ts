// The rows kept in step with an instance (jobs, user tasks, subscriptions, incidents, scopes, the outbox), written
// from the instance's events themselves in the transaction of the command that emitted them. One module per family;
// Registry.ts maps each event type to what it writes.
import type { Effect } from "effect"
import type { SqlClient, SqlError } from "effect/sql"
import type { InstanceEvent } from "../../engine/InstanceState.ts"
import type { OutboxMessage } from "./OutboxMessage.ts"

export interface ProjectionContext {
  readonly sql: SqlClient.SqlClient
  readonly tenantId: string
  readonly instanceId: string
  readonly parentInstanceId: string | null
  readonly actor: string
  readonly now: string
  /** Writes a message another instance (or this one) is owed after the commit; the relay delivers it. */
  readonly outbox: (target: string, message: OutboxMessage) => Effect.Effect<void, SqlError.SqlError>
}

export type Projection<T extends InstanceEvent["type"]> = (
  ctx: ProjectionContext,
  event: Extract<InstanceEvent, { readonly type: T }>
) => Effect.Effect<void, SqlError.SqlError>

export type Projections = { readonly [T in InstanceEvent["type"]]?: Projection<T> }
