// A signal thrown by an end or intermediate throw event: recorded with the event's local variables, broadcast by the
// host after the commit (the outbox).
import type { Token } from "../InstanceState.ts"
import type { Run } from "../Run.ts"

export const throwSignal = (
  run: Run,
  token: Token,
  node: { readonly id: string; readonly signalThrow?: { readonly name: string } | null | undefined },
  locals: Readonly<Record<string, unknown>>
): void => {
  if (node.signalThrow == null) return
  run.emit({
    type: "SignalThrown",
    tokenId: token.id,
    nodeId: node.id,
    signalName: node.signalThrow.name,
    variables: locals
  })
}
