// What a start needs of its deployment besides the graph — its key, version and state (a SUSPENDED one refuses new
// starts) — kept for a moment, so that a burst of starts reads it once instead of once per start. The node that
// suspends, resumes or removes a deployment forgets it at once; the other nodes of a cluster go on using what they
// read for at most FRESH_FOR_MS (docs/scaling.md).
import { Context, Layer } from "effect"

export interface DeploymentState {
  readonly tenantId: string
  readonly id: string
  readonly key: string
  readonly version: number
  readonly state: "ACTIVE" | "SUSPENDED"
}

export interface DeploymentStatesShape {
  /** The state read less than FRESH_FOR_MS ago, if any. */
  readonly fresh: (tenantId: string, deploymentId: string) => DeploymentState | undefined
  readonly remember: (state: DeploymentState) => void
  /** The deployment changed (or is gone): the next start reads it again. */
  readonly forget: (deploymentId: string) => void
}

export const FRESH_FOR_MS = 500
/** Deployments kept at most (the oldest read goes first). */
const MAX_KEPT = 10_000

export class DeploymentStates extends Context.Service<DeploymentStates, DeploymentStatesShape>()(
  "flowcore/DeploymentStates"
) {
  static readonly layer = Layer.sync(DeploymentStates, () => {
    const kept = new Map<string, { readonly state: DeploymentState; readonly readAt: number }>()
    return {
      fresh: (tenantId, deploymentId) => {
        const entry = kept.get(deploymentId)
        if (entry === undefined || entry.state.tenantId !== tenantId) return undefined
        return performance.now() - entry.readAt < FRESH_FOR_MS ? entry.state : undefined
      },
      remember: (state) => {
        kept.delete(state.id)
        if (kept.size >= MAX_KEPT) kept.delete(kept.keys().next().value as string)
        kept.set(state.id, { state, readAt: performance.now() })
      },
      forget: (deploymentId) => void kept.delete(deploymentId)
    }
  })
}
