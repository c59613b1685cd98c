// Ad-hoc subprocesses over HTTP, as an AI-agent model uses them: the tools to run are a variable, each tool is a job
// for its worker, every tool's result is collected, and the subprocess ends when the agent says it is done.
import { describe, expect, it } from "vitest"
import { definitions } from "../support/BpmnXml.ts"
import { givenTenant } from "../support/Scenario.ts"

const tool = (id: string) =>
  `<bpmn:serviceTask id="${id}"><bpmn:extensionElements><zeebe:taskDefinition type="tool-${id}" /></bpmn:extensionElements></bpmn:serviceTask>`

const agent = definitions(
  `<bpmn:process id="ad-hoc-agent" isExecutable="true">
    <bpmn:startEvent id="start" />
    <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="tools" />
    <bpmn:adHocSubProcess id="tools">
      <bpmn:extensionElements>
        <zeebe:adHoc activeElementsCollection="=toolsToCall" outputCollection="toolResults" outputElement="=result" />
      </bpmn:extensionElements>
      ${tool("weather")}${tool("calendar")}${tool("email")}
      <bpmn:completionCondition xsi:type="bpmn:tFormalExpression">=finished = true</bpmn:completionCondition>
    </bpmn:adHocSubProcess>
    <bpmn:sequenceFlow id="f2" sourceRef="tools" targetRef="end" />
    <bpmn:endEvent id="end" />
  </bpmn:process>`,
  { xsi: true }
)

describe("ad-hoc subprocesses", () => {
  it("run the tools the variable names, collect their results, and complete when the condition holds", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(agent)
    const instance = await owner.start(deployment.id, { toolsToCall: ["weather", "calendar"] })
    const [weather] = await owner.activateJobs("tool-weather")
    const [calendar] = await owner.activateJobs("tool-calendar")
    expect(await owner.activateJobs("tool-email")).toEqual([])
    await owner.completeJob(weather.id, { result: { temperature: 21 } })
    expect((await owner.instance(instance.id)).state).toBe("ACTIVE")
    await owner.completeJob(calendar.id, { result: { free: true }, finished: true })
    const done = await owner.instance(instance.id)
    expect(done.state).toBe("COMPLETED")
    expect(done.variables.toolResults).toEqual([{ temperature: 21 }, { free: true }])
  })

  it("raise an incident naming the element when asked for a tool that is not in the subprocess", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(agent)
    const instance = await owner.start(deployment.id, { toolsToCall: ["fax"] })
    const incidents = (await owner.get(`/incidents?processInstanceId=${instance.id}`)).ok().items
    expect(incidents).toHaveLength(1)
    expect(incidents[0].message).toMatch(/activeElementsCollection of tools .* got \["fax"\]/)
  })

  it("are refused at deploy, by name, when a job worker implements them and a collection is given too", async () => {
    const owner = await (await givenTenant()).owner()
    const worker = agent.replace(
      "<zeebe:adHoc ",
      `<zeebe:taskDefinition type="agent-loop" /><zeebe:adHoc `
    )
    const reply = await owner.call("POST", "/deployments", { rawBody: worker, contentType: "application/xml" })
    const failure = reply.fails(400, "VALIDATION_ERROR")
    expect(failure.errors).toEqual([
      expect.objectContaining({ field: "tools", message: expect.stringMatching(/job worker/) })
    ])
  })
})

const agentWithWorker = agent
  .replace(`activeElementsCollection="=toolsToCall" `, "")
  .replace("<zeebe:adHoc ", `<zeebe:taskDefinition type="ai-agent" /><zeebe:adHoc `)
  .replace(/<bpmn:completionCondition[^]*?<\/bpmn:completionCondition>/, "")

describe("ad-hoc subprocesses implemented by a job worker (AI agents)", () => {
  it("hand the worker the elements, run what it chooses, ask again after each tool, and end when it says so", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(agentWithWorker)
    const instance = await owner.start(deployment.id, { question: "Plan my day" })
    const [ask] = await owner.activateJobs("ai-agent")
    expect(ask.variables.adHocSubProcessElements.map((e: { elementId: string }) => e.elementId)).toEqual([
      "weather",
      "calendar",
      "email"
    ])
    ;(await owner.post(`/jobs/${ask.id}/complete`, {
      variables: { thinking: "need the weather" },
      result: {
        type: "adHocSubProcess",
        activateElements: [{ elementId: "weather", variables: { city: "Lyon" } }]
      }
    })).ok()
    const [weather] = await owner.activateJobs("tool-weather")
    expect(weather.variables.city).toBe("Lyon")
    await owner.completeJob(weather.id, { result: "sunny" })
    const [again] = await owner.activateJobs("ai-agent")
    expect(again.variables.toolResults).toEqual(["sunny"])
    ;(await owner.post(`/jobs/${again.id}/complete`, { result: { isCompletionConditionFulfilled: true } })).ok()
    const done = await owner.instance(instance.id)
    expect(done.state).toBe("COMPLETED")
    expect(done.variables.toolResults).toEqual(["sunny"])
  })

  it("answer 400 naming result when the worker activates an element the subprocess does not have", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(agentWithWorker)
    await owner.start(deployment.id)
    const [ask] = await owner.activateJobs("ai-agent")
    const reply = await owner.post(`/jobs/${ask.id}/complete`, {
      result: { activateElements: [{ elementId: "fax" }] }
    })
    const failure = reply.fails(400, "VALIDATION_ERROR")
    expect(failure.errors[0].field).toBe("result.activateElements")
    const plain = await owner.deploy(agent)
    await owner.start(plain.id, { toolsToCall: ["email"] })
    const [email] = await owner.activateJobs("tool-email")
    const wrong = await owner.post(`/jobs/${email.id}/complete`, { result: { isCompletionConditionFulfilled: true } })
    expect(wrong.fails(400, "VALIDATION_ERROR").errors[0].field).toBe("result")
  })
})
