// The rows kept in step with an instance (jobs, user tasks, subscriptions, incidents, scopes, the outbox), written
// from the instance's events themselves in the transaction of the command that emitted them. One module per family;
// Registry.ts maps each event type to what it writes. A projection only gathers its rows (BatchWrites): the
// transaction writes the rows of all the commands of its batch together.
import type { InstanceEvent } from "../../engine/InstanceState.ts"
import type { BatchWrites } from "../BatchWrites.ts"
import type { OutboxMessage } from "./OutboxMessage.ts"

export interface ProjectionContext {
  readonly writes: BatchWrites
  readonly tenantId: string
  readonly instanceId: string
  readonly parentInstanceId: string | null
  readonly actor: string
  readonly now: string
  /** The lease a job this command creates is committed with, when a waiting worker takes it at once (job push). */
  readonly leaseOf: (jobId: string) => { readonly worker: string; readonly deadline: string } | undefined
  /** Writes a message another instance (or this one) is owed after the commit; the relay delivers it. */
  readonly outbox: (target: string, message: OutboxMessage) => void
}

export type Projection<T extends InstanceEvent["type"]> = (
  ctx: ProjectionContext,
  event: Extract<InstanceEvent, { readonly type: T }>
) => void

export type Projections = { readonly [T in InstanceEvent["type"]]?: Projection<T> }
