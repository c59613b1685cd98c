// The batch runner as the services see it: told that a batch was created (actors/BatchRunnerLive.ts works the
// batches off, in a cluster loop).
import { Context } from "effect"
import type { PendingWork } from "./ClusterLoop.ts"

/** What a batch was created with (stored as its parameters). */
export interface BatchParameters {
  readonly variables?: Readonly<Record<string, unknown>> | undefined
  readonly retries?: number | undefined
  readonly migration?: {
    readonly targetDeploymentId: string
    readonly mappings: ReadonlyArray<{ readonly sourceNodeId: string; readonly targetNodeId: string }>
    readonly mapEqualNodes: boolean
  } | undefined
}

export class BatchRunner extends Context.Service<BatchRunner, PendingWork>()("flowcore/BatchRunner") {}
