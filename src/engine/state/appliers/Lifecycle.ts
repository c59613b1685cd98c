// The instance's lifecycle: started, suspended and resumed (with the commands held meanwhile), completed, canceled.
import type { Appliers } from "../Applier.ts"

export const lifecycleAppliers = {
  InstanceStarted: (state, event) => ({
    ...state,
    status: "ACTIVE",
    variables: { ...event.variables },
    variablesVersion: 1,
    ...(event.called === true ? { called: true } : {})
  }),
  CommandDeferred: (state, event) => ({ ...state, deferred: [...state.deferred, event.command] }),
  DeferredCommandsReleased: (state) => ({ ...state, deferred: [] }),
  InstanceSuspended: (state) => ({ ...state, status: "SUSPENDED" }),
  InstanceResumed: (state) => ({ ...state, status: "ACTIVE" }),
  InstanceCompleted: (state) => ({ ...state, status: "COMPLETED", tokens: {}, scopes: {}, boundaries: {} }),
  InstanceCanceled: (state) => ({ ...state, status: "CANCELED", tokens: {}, scopes: {}, boundaries: {} })
} satisfies Partial<Appliers>
