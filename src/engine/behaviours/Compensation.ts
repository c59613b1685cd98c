// Compensation at run time. An activity with a compensation handler is recorded when it completes, with the
// variables it saw. A compensation throw event (intermediate or end) compensates the recorded activities of its
// scope — all of them, or the one it names — in reverse order of completion: each handler runs in turn with the
// variables its activity had, and the throw event goes on once the last one has completed. Each activity is undone
// at most once. A completed embedded subprocess hands its records to the enclosing scope: compensating it there (all,
// or by its id) runs the handlers of the activities completed inside it too, after its own handler if it has one (it
// completed last). A subprocess with a compensation event subprocess keeps its records instead: compensating it runs
// that event subprocess (CompensationSubprocesses.ts). A multi-instance activity is recorded once per completed inner
// instance (MultiInstance.ts finishIteration), each undone on its own. At most MAX_COMPENSABLE records are kept per
// instance (those kept inside a subprocess's count): beyond, the oldest is dropped.
import { isActivity } from "../../bpmn/GraphNodes.ts"
import type { ActivityNode } from "../../bpmn/ProcessGraph.ts"
import { finishEndEvent } from "../elements/events/EndEventCompletion.ts"
import { type Compensable, MAX_COMPENSABLE, type Scope, type Token, visibleVariables } from "../InstanceState.ts"
import type { Run } from "../Run.ts"
import { startCompensationSubprocess } from "./CompensationSubprocesses.ts"
import { endListenersPending } from "./Listeners.ts"

/** How many records a list holds, those kept inside subprocess records included. */
const countOf = (list: ReadonlyArray<Compensable>): number => list.reduce((n, c) => n + 1 + countOf(c.inner ?? []), 0)

/** Room for one more record: the oldest are dropped while the records are at their limit. */
const makeRoom = (run: Run) => {
  for (let list = run.state.compensable ?? []; list.length > 0 && countOf(list) >= MAX_COMPENSABLE;) {
    run.emit({ type: "CompensableDropped", nodeId: list[0]!.nodeId, scopeId: list[0]!.scopeId, limit: MAX_COMPENSABLE })
    list = run.state.compensable ?? []
  }
}

/** Records a completed activity that has a compensation handler. */
export function recordCompensable(run: Run, token: Token, node: ActivityNode): void {
  if (node.compensation === undefined) return
  makeRoom(run)
  run.emit({
    type: "CompensableCompleted",
    tokenId: token.id,
    nodeId: node.id,
    scopeId: token.scopeId,
    variables: { ...visibleVariables(run.state, token.scopeId), ...token.locals }
  })
}

/**
 * A subprocess's scope completed: its compensation records move to the enclosing scope — with a compensation event
 * subprocess, inside one record of the subprocess with its variables. A compensation event subprocess's own records
 * end with it (ScopeClosed).
 */
export function liftCompensable(run: Run, scope: Scope): void {
  const node = run.node(scope.nodeId)
  if (isActivity(node) && node.forCompensation === true) return
  const kept = node.type === "subProcess" && node.compensationSubprocessId !== undefined
  if (!kept && !(run.state.compensable ?? []).some((c) => c.scopeId === scope.id)) return
  if (kept) makeRoom(run)
  const own = run.state.scopes[scope.id]?.variables ?? scope.variables
  // In a multi-instance subprocess, the iteration's scope (inputElement, loopCounter) is part of what it saw.
  const parent = run.state.scopes[scope.parentId]
  const iteration = parent !== undefined && run.state.tokens[parent.tokenId]?.loop != null ? parent.variables : {}
  const variables = { ...iteration, ...own }
  run.emit({
    type: "CompensableScopeCompleted",
    scopeId: scope.id,
    parentScopeId: scope.parentId,
    nodeId: scope.nodeId,
    ...(kept ? { subprocessRecord: { variables } } : {})
  })
}

/**
 * Multi-instance: an iteration's records (its own completion, and what completed inside it) move to the body's scope
 * when the iteration completes, and from there to the activity's scope when the body completes — so a multi-instance
 * body that is terminated takes the records of its completed iterations with it (ScopeClosed), as a subprocess does.
 */
export function liftIterationCompensable(run: Run, fromScopeId: string, toScopeId: string): void {
  if (!(run.state.compensable ?? []).some((c) => c.scopeId === fromScopeId)) return
  const scope = run.state.scopes[fromScopeId]!
  run.emit({ type: "CompensableScopeCompleted", scopeId: fromScopeId, parentScopeId: toScopeId, nodeId: scope.nodeId })
}

const runHandler = (run: Run, throwToken: Token, record: Compensable) => {
  const activity = run.node(record.nodeId)
  if (activity.type === "subProcess" && activity.compensationSubprocessId !== undefined) {
    return startCompensationSubprocess(run, throwToken, record, activity.compensationSubprocessId)
  }
  // Only activities with a handler are recorded (recordCompensable).
  const handlerId = isActivity(activity) ? activity.compensation?.handlerId : undefined
  if (handlerId === undefined) throw new Error(`graph node ${record.nodeId} has no compensation handler`)
  const tokenId = run.newId("token")
  run.emit({
    type: "ElementActivated",
    tokenId,
    nodeId: handlerId,
    scopeId: throwToken.scopeId,
    viaFlow: null,
    variables: record.variables
  })
  run.work.push(() => run.activate(tokenId))
}

/** A compensation throw event arrived: true while it waits for handlers (false: nothing to compensate). */
export function startCompensation(run: Run, token: Token, nodeId: string, target: string | null): boolean {
  const compensating = (run.state.compensable ?? [])
    .filter((c) =>
      c.scopeId === token.scopeId && (target === null || c.nodeId === target || (c.within ?? []).includes(target))
    )
    .reverse()
  if (compensating.length === 0) return false
  run.emit({ type: "CompensationStarted", tokenId: token.id, nodeId, compensating })
  runHandler(run, token, compensating[0]!)
  return true
}

/** A handler completed: the next one runs, or the throw event that waits for them goes on. */
export function handlerCompleted(run: Run, handler: Token): void {
  const thrower = Object.values(run.state.tokens).find((t) =>
    t.scopeId === handler.scopeId && t.wait?.kind === "compensation"
  )
  if (thrower === undefined || thrower.wait?.kind !== "compensation") return
  const next = thrower.wait.pending[0]
  run.emit({ type: "CompensationContinued", tokenId: thrower.id, nodeId: thrower.nodeId })
  if (next !== undefined) return runHandler(run, thrower, next)
  const node = run.node(thrower.nodeId)
  const current = run.state.tokens[thrower.id]!
  if (node.type === "endEvent") {
    return endListenersPending(run, current, node, [])
      ? undefined
      : finishEndEvent(run, current, node)
  }
  run.leave(current, node, run.takeableFlows(current, node, visibleVariables(run.state, current.scopeId)))
}
