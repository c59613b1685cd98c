// Compensation event subprocesses at run time (BPMN 10.5.6): compensating a completed subprocess that has one runs it
// instead of the handlers of the activities completed inside. It runs in the scope of the compensation throw event,
// in a scope of its own holding the subprocess's variables as they were when it completed; the records kept with the
// subprocess are restored into that scope, so a compensation throw event inside compensates them (all, in reverse
// order of completion, or the one its activityRef names). The throw event outside waits for it as for a handler
// (it is `forCompensation`: completing it continues the compensation, Run.leave).
import { openScope } from "../elements/containers/SubProcess.ts"
import type { Compensable, Token } from "../InstanceState.ts"
import type { Run } from "../Run.ts"

/** Starts the compensation event subprocess of the completed subprocess a record is of. */
export function startCompensationSubprocess(run: Run, throwToken: Token, record: Compensable, subprocessId: string) {
  const tokenId = run.newId("token")
  run.emit({ type: "ElementActivated", tokenId, nodeId: subprocessId, scopeId: throwToken.scopeId, viaFlow: null })
  run.work.push(() => enter(run, tokenId, record))
}

const enter = (run: Run, tokenId: string, record: Compensable) => {
  const token = run.state.tokens[tokenId]
  if (token === undefined) return
  const node = run.node(token.nodeId)
  if (node.type !== "subProcess") throw new Error(`graph node ${node.id} is no compensation event subprocess`)
  const scopeId = openScope(run, token, node, record.variables)
  if ((record.inner ?? []).length > 0) {
    run.emit({ type: "CompensableRestored", scopeId, nodeId: node.id, records: record.inner! })
  }
  run.enter(node.startNodeIds[0]!, null, scopeId)
}
