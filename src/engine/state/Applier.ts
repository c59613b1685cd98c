// What an applier is: the change one event makes to an instance's state (Apply.ts folds events through them).
import type { InstanceEvent } from "./Events.ts"
import type { InstanceState } from "./State.ts"

export type Applier<T extends InstanceEvent["type"]> = (
  state: InstanceState,
  event: Extract<InstanceEvent, { readonly type: T }>
) => InstanceState

/** An applier for every event type: a new event does not compile until it has one. */
export type Appliers = { readonly [T in InstanceEvent["type"]]: Applier<T> }
