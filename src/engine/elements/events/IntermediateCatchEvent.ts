// Intermediate catch events and receive tasks: wait for a timer, a signal, a condition or a message (link catch
// events pass through). The correlation key is evaluated when the token arrives and stored with the subscription.
import { evaluateFeel } from "../../../bpmn/Expressions.ts"
import { dueAt } from "../../../bpmn/Timer.ts"
import type { ActivateElement } from "../Element.ts"

export const intermediateCatchEvent: ActivateElement = ({ run, token, node, visible }) => {
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
  const message = node.message!
  const key = evaluateFeel(message.correlationKey, visible)
  if (!key.ok) {
    return run.raiseIncident(token, "EXTRACT_VALUE_ERROR", `correlation key of ${node.id} failed: ${key.message}`)
  }
  if (typeof key.value !== "string" && typeof key.value !== "number") {
    return run.raiseIncident(
      token,
      "EXTRACT_VALUE_ERROR",
      `correlation key of ${node.id} must be a string or a number, got ${
        key.value === null ? "null" : typeof key.value
      }`
    )
  }
  run.emit({
    type: "MessageSubscriptionOpened",
    tokenId,
    nodeId: node.id,
    subscriptionId: run.newId("subscription"),
    messageName: message.name,
    correlationKey: String(key.value)
  })
}
