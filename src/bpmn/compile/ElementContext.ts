// What compiling one element sees: its draft and flows, the draft around it, where the process's start events are
// gathered, and where its problems go. Also what every compiled node carries, whatever its type.
import type { Draft, DraftNode } from "../Draft.ts"
import type { DraftIndex } from "../DraftIndex.ts"
import { compileListeners } from "../ExecutionListeners.ts"
import type { ActivityType, GraphFlow, Mapping, MultiInstanceDefinition, NodeType } from "../ProcessGraph.ts"
import type { TimerDefinition } from "../Timer.ts"

/** The process-level start events, gathered while compiling: how instances of the process start. */
export interface Starts {
  readonly none: Array<string>
  readonly message: Array<{ readonly nodeId: string; readonly messageName: string }>
  readonly signal: Array<{ readonly nodeId: string; readonly signalName: string }>
  readonly conditional: Array<{ readonly nodeId: string; readonly condition: string }>
  readonly timer: Array<{ readonly nodeId: string; readonly timer: TimerDefinition }>
}

export interface ElementContext {
  readonly draft: Draft
  readonly node: DraftNode
  readonly id: string
  readonly type: NodeType
  /** The embedded subprocess the element is in (null: the process). */
  readonly scope: string | null
  /** Its event definition (at most one is accepted): message, timer, signal, ... */
  readonly kind: string | null
  readonly incoming: ReadonlyArray<string>
  readonly outgoing: ReadonlyArray<string>
  /** The compiled sequence flows of the process. */
  readonly flows: Readonly<Record<string, GraphFlow>>
  readonly byId: ReadonlyMap<string, DraftNode>
  /** Flows, boundary events and scope members by id (DraftIndex.ts): never scan the draft per element. */
  readonly index: DraftIndex
  readonly starts: Starts
  /** Reports a problem of this element. */
  readonly problem: (message: string) => void
  /** Reports a problem of any element (as the shared compilers of listeners, decisions and ad-hoc take it). */
  readonly report: (elementId: string, message: string) => void
}

/** Inside an ad-hoc subprocess an element may be started with no incoming flow, and a path may end anywhere. */
export const inAdHoc = (ctx: ElementContext): boolean =>
  ctx.scope !== null && ctx.byId.get(ctx.scope)?.type === "adHocSubProcess"

/** What every node carries: its place, flows, mappings, default flow and execution listeners. */
export const nodeBase = <T extends NodeType>(
  ctx: ElementContext,
  type: T,
  mappings: { readonly inputs: ReadonlyArray<Mapping>; readonly outputs: ReadonlyArray<Mapping> },
  defaultFlow: string | null,
  { listeners }: ReturnType<typeof compileListeners> = compileListeners(ctx.node, ctx.report)
) => {
  return {
    id: ctx.id,
    type,
    name: ctx.node.name,
    scope: ctx.scope,
    incoming: ctx.incoming,
    outgoing: ctx.outgoing,
    defaultFlow,
    ...(listeners === undefined ? {} : { listeners }),
    inputs: mappings.inputs,
    outputs: mappings.outputs
  }
}

/** What every activity carries besides: its boundary events and its loop. */
export const activityBase = <T extends ActivityType>(
  ctx: ElementContext,
  type: T,
  mappings: { readonly inputs: ReadonlyArray<Mapping>; readonly outputs: ReadonlyArray<Mapping> },
  closing: { readonly multiInstance: MultiInstanceDefinition | null; readonly defaultFlow: string | null },
  listeners: ReturnType<typeof compileListeners> = compileListeners(ctx.node, ctx.report)
) => ({
  ...nodeBase(ctx, type, mappings, closing.defaultFlow, listeners),
  boundaryIds: ctx.index.boundaries(ctx.id),
  multiInstance: closing.multiInstance
})
