// POST /process-instances/{id}/move-token: withdraw what a token waits on and activate another node of its scope.
import type { InstanceCommand } from "../InstanceCommands.ts"
import { Rejected } from "../Rejected.ts"
import type { Run } from "../Run.ts"

/** The node of the process with that id; another id is a faulty input, naming the field it came in. */
const nodeNamed = (run: Run, nodeId: string, field: string) => {
  const node = run.graph.nodes[nodeId]
  if (node === undefined) {
    throw new Rejected("INVALID_ARGUMENT", `${nodeId} is not a node of process ${run.graph.key}`, field)
  }
  return node
}

/**
 * Moves a waiting token (Camunda's process instance modification): what it waits on is withdrawn (job, task,
 * subscriptions, incident, everything inside a subprocess) and the target node is activated in the same scope,
 * with its input mappings, as if a flow had led there.
 */
export function moveToken(run: Run, command: Extract<InstanceCommand, { type: "MoveToken" }>): void {
  const source = nodeNamed(run, command.sourceNodeId, "sourceNodeId")
  const target = nodeNamed(run, command.targetNodeId, "targetNodeId")
  if (
    target.type === "boundaryEvent" || (target.type === "subProcess" && target.triggeredByEvent === true) ||
    (target.type === "startEvent" && target.eventStart != null)
  ) {
    throw new Rejected(
      "INVALID_ARGUMENT",
      `${target.id} is a ${
        target.type === "boundaryEvent" ? "boundary event" : "part of an event subprocess's start"
      }: it is triggered by its event, not by a token`,
      "targetNodeId"
    )
  }
  if (target.scope !== source.scope) {
    throw new Rejected(
      "INVALID_ARGUMENT",
      `${target.id} is in ${target.scope ?? "the process"}, the token in ${
        source.scope ?? "the process"
      }: a token moves within its scope`,
      "targetNodeId"
    )
  }
  const candidates = Object.values(run.state.tokens).filter((t) =>
    t.nodeId === source.id && (t.loop ?? null) === null && (command.tokenId === undefined || t.id === command.tokenId)
  )
  if (candidates.length === 0) {
    throw new Rejected(
      "INVALID_STATE",
      command.tokenId === undefined ? `no token is at ${source.id}` : `token ${command.tokenId} is not at ${source.id}`
    )
  }
  if (candidates.length > 1) {
    throw new Rejected(
      "INVALID_ARGUMENT",
      `${candidates.length} tokens are at ${source.id}; say which one to move`,
      "tokenId"
    )
  }
  const token = candidates[0]!
  run.emit({ type: "TokenMoved", tokenId: token.id, nodeId: source.id, targetNodeId: target.id })
  run.interrupt(token)
  if (Object.keys(command.variables).length > 0) {
    run.emit({ type: "VariablesSet", nodeId: target.id, scopeId: token.scopeId, variables: command.variables })
  }
  run.enter(target.id, null, token.scopeId)
}
