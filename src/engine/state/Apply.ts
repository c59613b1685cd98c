// ONE apply: every event type has its applier (appliers/, one file per family), exhaustively — a new event does not
// compile until it has one. The live run and the replay of a history both fold events through it.
import type { Applier, Appliers } from "./Applier.ts"
import { compensationAppliers } from "./appliers/Compensation.ts"
import { lifecycleAppliers } from "./appliers/Lifecycle.ts"
import { recordAppliers } from "./appliers/Records.ts"
import { scopeAppliers } from "./appliers/Scopes.ts"
import { subscriptionAppliers } from "./appliers/Subscriptions.ts"
import { tokenAppliers } from "./appliers/Tokens.ts"
import { variableAppliers } from "./appliers/Variables.ts"
import { workAppliers } from "./appliers/Work.ts"
import type { InstanceEvent } from "./Events.ts"
import type { InstanceState } from "./State.ts"

const APPLIERS: Appliers = {
  ...lifecycleAppliers,
  ...tokenAppliers,
  ...variableAppliers,
  ...scopeAppliers,
  ...workAppliers,
  ...subscriptionAppliers,
  ...recordAppliers,
  ...compensationAppliers
}

export const apply = (state: InstanceState, event: InstanceEvent): InstanceState => ({
  ...(APPLIERS[event.type] as Applier<InstanceEvent["type"]>)(state, event),
  eventCount: state.eventCount + 1
})
