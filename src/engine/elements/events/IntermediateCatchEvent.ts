// Intermediate catch events and receive tasks: wait for a timer, a signal, a condition or a message (link catch
// events pass through). The correlation key is evaluated when the token arrives and stored with the subscription.
import type { IntermediateCatchEventNode, MessageDefinition, ReceiveTaskNode } from "../../../bpmn/ProcessGraph.ts"
import { dueAt } from "../../../bpmn/Timer.ts"
import { correlationKeyOf } from "../../CorrelationKey.ts"
import type { ActivateElement, Arrival } from "../Element.ts"

export const intermediateCatchEvent: ActivateElement<IntermediateCatchEventNode | ReceiveTaskNode> = (arrival) => {
  const { run, token, node, visible } = arrival
  if (node.type === "receiveTask") return subscribe(arrival, node.message)
  const tokenId = token.id
  if (node.timer !== null) {
    const due = dueAt(node.timer, run.now, visible)
    if (!due.ok) return run.raiseIncident(token, "EXTRACT_VALUE_ERROR", `timer of ${node.id} failed: ${due.message}`)
    run.emit({
      type: "TimerScheduled",
      tokenId,
      nodeId: node.id,
      subscriptionId: run.newId("timer"),
      dueAt: new Date(due.dueAt).toISOString()
    })
    return
  }
  if (node.signal !== null) {
    run.emit({
      type: "SignalSubscriptionOpened",
      tokenId,
      nodeId: node.id,
      subscriptionId: run.newId("subscription"),
      signalName: node.signal.name
    })
    return
  }
  if (node.link != null) return run.leave(token, node, run.takeableFlows(token, node, visible))
  if (node.condition != null) {
    // A condition already true lets the token pass at once; else it waits until a variable change makes it true.
    if (run.conditionHolds(node.condition, run.state, token.scopeId)) {
      return run.leave(token, node, run.takeableFlows(token, node, visible))
    }
    run.emit({ type: "ConditionSubscribed", tokenId, nodeId: node.id })
    return
  }
  if (node.message === null) throw new Error(`intermediate catch event ${node.id} has no event to wait for`)
  return subscribe(arrival, node.message)
}

/** Waits for a message: its correlation key is evaluated now and kept with the subscription. */
const subscribe = ({ run, token, node, visible }: Arrival, message: MessageDefinition) => {
  const tokenId = token.id
  const key = correlationKeyOf(message, visible)
  if (!key.ok) return run.raiseIncident(token, "EXTRACT_VALUE_ERROR", `correlation key of ${node.id} ${key.message}`)
  run.emit({
    type: "MessageSubscriptionOpened",
    tokenId,
    nodeId: node.id,
    subscriptionId: run.newId("subscription"),
    messageName: message.name,
    correlationKey: key.key
  })
}
