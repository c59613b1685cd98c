// The shape of an element's behaviour: what it does when a token arrives at it (after the shared part — boundary
// events armed, multi-instance unfolded, input mappings applied — which Activate.ts does for every element).
import type { GraphNode } from "../../bpmn/ProcessGraph.ts"
import type { Token } from "../InstanceState.ts"
import type { Run } from "../Run.ts"

export type Variables = Readonly<Record<string, unknown>>

export interface Arrival<N extends GraphNode = GraphNode> {
  readonly run: Run
  readonly token: Token
  readonly node: N
  /** What the element sees: the variables of its scopes and the instance, its own, and its input mappings' results. */
  readonly visible: Variables
  /** The input mappings' results alone (the element's local variables). */
  readonly locals: Variables
}

export type ActivateElement<N extends GraphNode = GraphNode> = (arrival: Arrival<N>) => void

/** Leaves along the flows the element may take (conditions on them evaluated). */
export const passThrough: ActivateElement = ({ run, token, node, visible }) =>
  run.leave(token, node, run.takeableFlows(token, node, visible))
