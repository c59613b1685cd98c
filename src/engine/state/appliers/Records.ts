// Incidents, and events that only record what happened (errors and escalations thrown, nodes skipped or retried).
import type { Appliers } from "../Applier.ts"
import { withEntry, withoutEntry } from "../IdKeyed.ts"
import { waiting } from "../StateChanges.ts"

export const recordAppliers = {
  ErrorCaught: (state) => state,
  NodeSkipped: (state) => state,
  NodeRetried: (state, event) => waiting(state, event.tokenId, null),
  SignalThrown: (state) => state,
  EscalationThrown: (state) => state,
  ErrorPropagated: (state) => state,
  EscalationPropagated: (state) => state,
  IncidentRaised: (state, event) => ({
    ...waiting(state, event.tokenId, { kind: "incident", incidentId: event.incidentId }),
    incidents: withEntry(state.incidents, event.incidentId, {
      id: event.incidentId,
      tokenId: event.tokenId,
      nodeId: event.nodeId,
      type: event.incidentType,
      message: event.message,
      ...(event.jobId === undefined ? {} : { jobId: event.jobId })
    })
  }),
  IncidentResolved: (state, event) => ({ ...state, incidents: withoutEntry(state.incidents, event.incidentId) })
} satisfies Partial<Appliers>
