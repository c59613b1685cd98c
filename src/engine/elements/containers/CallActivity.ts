// Call activities: the child is an instance of the latest version of the called process (or the latest with the
// version tag it binds to, or the version deployed together with the caller's); it gets the parent's visible
// variables (with the input mappings), and the parent waits until it ends.
import type { CallActivityNode } from "../../../bpmn/ProcessGraph.ts"
import type { ActivateElement } from "../Element.ts"

export const callActivity: ActivateElement<CallActivityNode> = ({ run, token, node, visible }) => {
  const call = node.call
  run.emit({
    type: "ChildInstanceRequested",
    tokenId: token.id,
    nodeId: node.id,
    childInstanceId: run.newId("child"),
    processKey: call.processId,
    ...(call.versionTag ? { versionTag: call.versionTag } : {}),
    ...(call.binding === undefined ? {} : { binding: call.binding }),
    variables: visible
  })
}
