// Every projection by event type (events without one write no rows beyond the history).
import type { InstanceEvent } from "../../engine/InstanceState.ts"
import { incidentProjections } from "./Incidents.ts"
import { jobProjections } from "./Jobs.ts"
import { outboxProjections } from "./Outbox.ts"
import type { Projection, Projections } from "./Projection.ts"
import { scopeProjections } from "./Scopes.ts"
import { subscriptionProjections } from "./Subscriptions.ts"
import { userTaskProjections } from "./UserTasks.ts"

export const PROJECTIONS: Projections = {
  ...jobProjections,
  ...userTaskProjections,
  ...subscriptionProjections,
  ...incidentProjections,
  ...scopeProjections,
  ...outboxProjections
}

export const projectionOf = (event: InstanceEvent): Projection<InstanceEvent["type"]> | undefined =>
  PROJECTIONS[event.type] as Projection<InstanceEvent["type"]> | undefined
