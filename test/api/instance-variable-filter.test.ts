// GET /process-instances?variableName=&variableValue=: the instances whose own variables hold a name, or that value
// (JSON, else a string; objects by containment); bounded and named when wrong; another tenant's instances never match.
import { describe, expect, it } from "vitest"
import { oneTaskModel } from "../support/OneTaskModel.ts"
import { givenTenant } from "../support/Scenario.ts"

describe("the instance list filtered by a variable", () => {
  it("by name, by a JSON or plain value, by containment; updates count; other tenants never match", async () => {
    const owner = await (await givenTenant()).owner()
    const stranger = await (await givenTenant()).owner()
    const deployment = await owner.deploy(oneTaskModel("vf"))
    const open = await owner.start(deployment.id, { status: "open", amount: 42, customer: { id: "c-1", tier: "gold" } })
    const closed = await owner.start(deployment.id, { status: "closed", amount: 7, note: null })
    await owner.start(deployment.id, { other: true })
    const theirs = await stranger.deploy(oneTaskModel("vf"))
    await stranger.start(theirs.id, { status: "open" })

    const ids = async (query: string) =>
      (await owner.get(`/process-instances?deploymentId=${deployment.id}&${query}`)).ok().items
        .map((i: { id: string }) => i.id).sort()
    expect(await ids("variableName=status")).toEqual([open.id, closed.id].sort())
    expect(await ids(`variableName=status&variableValue=${encodeURIComponent("\"open\"")}`)).toEqual([open.id])
    expect(await ids("variableName=status&variableValue=open")).toEqual([open.id])
    expect(await ids("variableName=amount&variableValue=42")).toEqual([open.id])
    expect(await ids("variableName=amount&variableValue=%2242%22")).toEqual([])
    expect(await ids(`variableName=customer&variableValue=${encodeURIComponent("{\"tier\":\"gold\"}")}`)).toEqual([
      open.id
    ])
    expect(await ids("variableName=note")).toEqual([closed.id])
    expect(await ids("variableName=note&variableValue=null")).toEqual([closed.id])
    expect(await ids("variableName=missing")).toEqual([])
    ;(await owner.put(`/process-instances/${closed.id}/variables`, { variables: { status: "open" } })).ok()
    expect(await ids("variableName=status&variableValue=open")).toEqual([open.id, closed.id].sort())
    const all = (await owner.get("/process-instances?variableName=status&variableValue=open")).ok()
    expect(all.totalItems).toBe(2)
  })

  it("a value without a name, or either too long, is a 400 naming the field", async () => {
    const owner = await (await givenTenant()).owner()
    const noName = await owner.get("/process-instances?variableValue=1")
    expect(noName.status).toBe(400)
    expect(noName.body.errors[0].field).toBe("variableName")
    const longName = await owner.get(`/process-instances?variableName=${"n".repeat(201)}`)
    expect(longName.status).toBe(400)
    expect(longName.body.errors[0].field).toBe("variableName")
    const longValue = await owner.get(`/process-instances?variableName=n&variableValue=${"v".repeat(4097)}`)
    expect(longValue.status).toBe(400)
    expect(longValue.body.errors[0].field).toBe("variableValue")
    // JSON a jsonb cannot hold (an escaped NUL, nesting past the budget) is refused, not sent to the database.
    for (const value of ["\"a\\u0000b\"", "[".repeat(2000) + "]".repeat(2000)]) {
      const refused = await owner.get(`/process-instances?variableName=n&variableValue=${encodeURIComponent(value)}`)
      expect(refused.status).toBe(400)
      expect(refused.body.errors[0].field).toBe("variableValue")
    }
  })
})
