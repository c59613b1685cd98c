// BPMN XML for a compiled graph (JSON deployments are served as XML too); reading it back compiles to the same graph.
import type { ProcessGraph } from "./ProcessGraph.ts"
import { makeModdle } from "./ReadBpmnXml.ts"

const bpmnType = (type: string) => `bpmn:${type.charAt(0).toUpperCase()}${type.slice(1)}`

export const writeBpmnXml = async (graph: ProcessGraph): Promise<string> => {
  const moddle = makeModdle()
  const process = moddle.create("bpmn:Process", {
    id: graph.key,
    isExecutable: true,
    ...(graph.name === null ? {} : { name: graph.name }),
    ...(graph.versionTag == null ? {} : {
      extensionElements: moddle.create("bpmn:ExtensionElements", {
        values: [moddle.create("zeebe:VersionTag", { value: graph.versionTag })]
      })
    })
  })
  // Each node and flow goes into its container: the process, or the subprocess it belongs to.
  const containerOf = (scope: string | null) => (scope === null ? process : created.get(scope)!).get("flowElements")
  const created = new Map<string, ReturnType<typeof moddle.create>>()
  const messages: Array<ReturnType<typeof moddle.create>> = []
  const signals: Array<ReturnType<typeof moddle.create>> = []
  const errors: Array<ReturnType<typeof moddle.create>> = []
  const escalations: Array<ReturnType<typeof moddle.create>> = []
  const escalationDefinition = (node: ProcessGraph["nodes"][string], code: string | null) => {
    if (code === null) return moddle.create("bpmn:EscalationEventDefinition")
    const escalation = moddle.create("bpmn:Escalation", {
      id: `Escalation_${node.id}`,
      name: code,
      escalationCode: code
    })
    escalations.push(escalation)
    return moddle.create("bpmn:EscalationEventDefinition", { escalationRef: escalation })
  }
  const errorDefinition = (node: ProcessGraph["nodes"][string], code: string | null) => {
    if (code === null) return moddle.create("bpmn:ErrorEventDefinition")
    const error = moddle.create("bpmn:Error", { id: `Error_${node.id}`, name: code, errorCode: code })
    errors.push(error)
    return moddle.create("bpmn:ErrorEventDefinition", { errorRef: error })
  }
  const messageFor = (node: ProcessGraph["nodes"][string]) => {
    const message = moddle.create("bpmn:Message", {
      id: `Message_${node.id}`,
      name: node.message!.name,
      extensionElements: moddle.create("bpmn:ExtensionElements", {
        values: node.message!.correlationKey === ""
          ? []
          : [moddle.create("zeebe:Subscription", { correlationKey: node.message!.correlationKey })]
      })
    })
    messages.push(message)
    return message
  }
  // Subprocesses before their contents: sort by nesting depth.
  const depth = (scope: string | null): number => (scope === null ? 0 : 1 + depth(graph.nodes[scope]?.scope ?? null))
  const ordered = Object.values(graph.nodes).sort((a, b) => depth(a.scope) - depth(b.scope))
  for (const node of ordered) {
    const values: Array<unknown> = []
    if (node.job !== null) {
      values.push(moddle.create("zeebe:TaskDefinition", { type: node.job.type, retries: String(node.job.retries) }))
      const headers = Object.entries(node.job.headers)
      if (headers.length > 0) {
        values.push(
          moddle.create("zeebe:TaskHeaders", {
            values: headers.map(([key, value]) => moddle.create("zeebe:Header", { key, value }))
          })
        )
      }
    }
    if (node.userTask !== null) {
      values.push(moddle.create("zeebe:UserTask"))
      const { assignee, candidateGroups, candidateUsers, formKey } = node.userTask
      if (assignee !== null || candidateGroups.length > 0 || candidateUsers.length > 0) {
        values.push(moddle.create("zeebe:AssignmentDefinition", {
          ...(assignee === null ? {} : { assignee }),
          ...(candidateGroups.length === 0 ? {} : { candidateGroups: candidateGroups.join(",") }),
          ...(candidateUsers.length === 0 ? {} : { candidateUsers: candidateUsers.join(",") })
        }))
      }
      if (formKey !== null) values.push(moddle.create("zeebe:FormDefinition", { formKey }))
      const { priority, dueDate, followUpDate } = node.userTask.schedule
      if (priority !== null) values.push(moddle.create("zeebe:PriorityDefinition", { priority }))
      if (dueDate !== null || followUpDate !== null) {
        values.push(moddle.create("zeebe:TaskSchedule", {
          ...(dueDate === null ? {} : { dueDate }),
          ...(followUpDate === null ? {} : { followUpDate })
        }))
      }
    }
    if (node.script !== null) values.push(moddle.create("zeebe:Script", node.script))
    if (node.decision !== null) values.push(moddle.create("zeebe:CalledDecision", { ...node.decision }))
    if (node.call !== null) {
      values.push(
        moddle.create("zeebe:CalledElement", {
          processId: node.call.processId,
          propagateAllChildVariables: node.call.propagateAllChildVariables,
          ...(node.call.versionTag == null ? {} : { bindingType: "versionTag", versionTag: node.call.versionTag })
        })
      )
    }
    if (node.inputs.length > 0 || node.outputs.length > 0) {
      values.push(moddle.create("zeebe:IoMapping", {
        inputParameters: node.inputs.map((m) => moddle.create("zeebe:Input", { source: m.source, target: m.target })),
        outputParameters: node.outputs.map((m) => moddle.create("zeebe:Output", { source: m.source, target: m.target }))
      }))
    }
    const element = moddle.create(bpmnType(node.type), {
      id: node.id,
      ...(node.name === null ? {} : { name: node.name }),
      ...(values.length === 0 ? {} : { extensionElements: moddle.create("bpmn:ExtensionElements", { values }) }),
      ...(node.multiInstance === null ? {} : {
        loopCharacteristics: moddle.create("bpmn:MultiInstanceLoopCharacteristics", {
          isSequential: node.multiInstance.sequential,
          extensionElements: moddle.create("bpmn:ExtensionElements", {
            values: [moddle.create(
              "zeebe:LoopCharacteristics",
              Object.fromEntries(
                Object.entries({
                  inputCollection: node.multiInstance.inputCollection,
                  inputElement: node.multiInstance.inputElement,
                  outputCollection: node.multiInstance.outputCollection,
                  outputElement: node.multiInstance.outputElement
                }).filter(([, value]) => value !== null)
              )
            )]
          })
        })
      }),
      ...(node.terminate ? { eventDefinitions: [moddle.create("bpmn:TerminateEventDefinition")] } : {}),
      ...(node.message !== null && node.type === "receiveTask" ? { messageRef: messageFor(node) } : {}),
      ...(!(graph.conditionalStarts ?? []).some((c) => c.nodeId === node.id) ? {} : {
        eventDefinitions: [moddle.create("bpmn:ConditionalEventDefinition", {
          condition: moddle.create("bpmn:FormalExpression", {
            body: graph.conditionalStarts.find((c) => c.nodeId === node.id)!.condition
          })
        })]
      }),
      ...(node.errorCatch === null ? {} : { eventDefinitions: [errorDefinition(node, node.errorCatch.errorCode)] }),
      ...(node.errorThrow === null ? {} : { eventDefinitions: [errorDefinition(node, node.errorThrow.errorCode)] }),
      ...(!(graph.timerStarts ?? []).some((t) => t.nodeId === node.id) ? {} : (() => {
        const timer = graph.timerStarts!.find((t) => t.nodeId === node.id)!.timer
        return {
          eventDefinitions: [moddle.create("bpmn:TimerEventDefinition", {
            [timer.kind === "duration" ? "timeDuration" : "timeDate"]: moddle.create("bpmn:FormalExpression", {
              body: timer.expression
            })
          })]
        }
      })()),
      ...(node.timer === null ? {} : {
        eventDefinitions: [moddle.create("bpmn:TimerEventDefinition", {
          [node.timer.kind === "duration" ? "timeDuration" : "timeDate"]: moddle.create("bpmn:FormalExpression", {
            body: node.timer.expression
          })
        })]
      }),
      ...(node.signal === null ? {} : {
        eventDefinitions: [moddle.create("bpmn:SignalEventDefinition", {
          signalRef: (() => {
            const signal = moddle.create("bpmn:Signal", { id: `Signal_${node.id}`, name: node.signal.name })
            signals.push(signal)
            return signal
          })()
        })]
      }),
      ...(node.triggeredByEvent === true ? { triggeredByEvent: true } : {}),
      ...(node.eventStart == null ? {} : { isInterrupting: node.eventStart.interrupting }),
      ...(node.condition == null ? {} : {
        eventDefinitions: [
          moddle.create("bpmn:ConditionalEventDefinition", {
            condition: moddle.create("bpmn:FormalExpression", { body: node.condition })
          })
        ]
      }),
      ...(node.escalationCatch == null
        ? {}
        : { eventDefinitions: [escalationDefinition(node, node.escalationCatch.code)] }),
      ...(node.escalationThrow == null
        ? {}
        : { eventDefinitions: [escalationDefinition(node, node.escalationThrow.code)] }),
      ...(node.link == null
        ? {}
        : { eventDefinitions: [moddle.create("bpmn:LinkEventDefinition", { name: node.link.name })] }),
      ...(node.signalThrow == null ? {} : {
        eventDefinitions: [moddle.create("bpmn:SignalEventDefinition", {
          signalRef: (() => {
            const signal = moddle.create("bpmn:Signal", { id: `Signal_${node.id}`, name: node.signalThrow.name })
            signals.push(signal)
            return signal
          })()
        })]
      }),
      ...(node.message !== null &&
          (node.type === "intermediateCatchEvent" || node.type === "startEvent" || node.type === "boundaryEvent" ||
            node.type === "intermediateThrowEvent" || node.type === "endEvent")
        ? { eventDefinitions: [moddle.create("bpmn:MessageEventDefinition", { messageRef: messageFor(node) })] }
        : {})
    })
    created.set(node.id, element)
    containerOf(node.scope).push(element)
  }
  for (const flow of Object.values(graph.flows)) {
    const element = moddle.create("bpmn:SequenceFlow", {
      id: flow.id,
      sourceRef: created.get(flow.source),
      targetRef: created.get(flow.target),
      ...(flow.condition === null
        ? {}
        : { conditionExpression: moddle.create("bpmn:FormalExpression", { body: flow.condition }) })
    })
    created.set(flow.id, element)
    containerOf(graph.nodes[flow.source]?.scope ?? null).push(element)
  }
  for (const node of Object.values(graph.nodes)) {
    if (node.boundary !== null) {
      const element = created.get(node.id) as unknown as Record<string, unknown>
      element["attachedToRef"] = created.get(node.boundary.attachedTo)
      element["cancelActivity"] = node.boundary.interrupting
    }
    if (node.defaultFlow !== null) {
      ;(created.get(node.id) as unknown as Record<string, unknown>)["default"] = created.get(node.defaultFlow)
    }
  }
  const definitions = moddle.create("bpmn:Definitions", {
    id: `Definitions_${graph.key}`,
    targetNamespace: "http://bpmn.io/schema/bpmn"
  })
  definitions.get("rootElements").push(process, ...messages, ...signals, ...errors, ...escalations)
  return (await moddle.toXML(definitions, { format: true })).xml
}
