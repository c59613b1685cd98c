// A long path parameter reaches its endpoint, whose own validation answers for it (400 naming the parameter, or the
// 404 of an id that names nothing), never the router's misleading 404 "no route"; only a request line over Node's
// header limit is refused before routing (431).
import { describe, expect, it } from "vitest"
import { oneTaskModel } from "../support/OneTaskModel.ts"
import { givenTenant } from "../support/Scenario.ts"
import { testApp } from "../support/TestApp.ts"

const form = {
  type: "default",
  id: "long-params-form",
  schemaVersion: 16,
  components: [{ type: "textfield", key: "customer", id: "c1", label: "Customer" }]
}

/** A locale tag of exactly `length` characters that the locale check accepts (de-abcdefgh-abcdefgh-...). */
const localeOf = (length: number) =>
  `de${"-abcdefgh".repeat(Math.ceil(length / 9))}`.slice(0, length).replace(/-$/, "x")

describe("variable names in bodies", () => {
  it("a new variable named longer than a path may address is a 400 naming variables; the instance is as it was", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(oneTaskModel("long-body-names"))
    const tooLong = "n".repeat(201)
    const refused = (await owner.post("/process-instances", {
      deploymentId: deployment.id,
      variables: { [tooLong]: 1 }
    })).fails(400, "VALIDATION_ERROR")
    expect(refused.errors[0]).toMatchObject({ field: "variables" })
    expect(refused.message).toMatch(/at most 200 characters, not 201/)
    const instance = await owner.start(deployment.id, { ["v".repeat(200)]: 1 })
    ;(await owner.put(`/process-instances/${instance.id}/variables`, { variables: { [tooLong]: 2 } }))
      .fails(400, "VALIDATION_ERROR")
    const [job] = await owner.activateJobs("long-body-names-work")
    ;(await owner.post(`/jobs/${job.id}/complete`, { variables: { [tooLong]: 3 } })).fails(400, "VALIDATION_ERROR")
    expect((await owner.instance(instance.id)).variables).toEqual({ ["v".repeat(200)]: 1 })
  })
})

describe("long path parameters", () => {
  it("a variable name over the limit is a 400 naming the parameter; up to the limit the variable is found", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(oneTaskModel("long-names"))
    const atLimit = "v".repeat(200)
    const instance = await owner.start(deployment.id, { [atLimit]: 1, ["w".repeat(150)]: 2 })
    const scope = `/scopes/${instance.id}/variables`
    expect((await owner.get(`${scope}/${atLimit}`)).ok()).toMatchObject({ name: atLimit, value: 1 })
    expect((await owner.get(`${scope}/${"w".repeat(150)}`)).ok()).toMatchObject({ value: 2 })
    expect((await owner.put(`${scope}/${atLimit}`, { value: 3 })).ok()).toMatchObject({ value: 3 })
    const tooLong = "n".repeat(3000)
    for (
      const refused of [
        await owner.get(`${scope}/${tooLong}`),
        await owner.put(`${scope}/${tooLong}`, { value: 1 }),
        await owner.delete(`${scope}/${tooLong}`),
        await owner.get(`${scope}/${"v".repeat(201)}`)
      ]
    ) {
      const error = refused.fails(400, "VALIDATION_ERROR")
      expect(error.errors).toEqual([expect.objectContaining({ field: "name" })])
      expect(error.message).not.toMatch(/no route/)
    }
    expect(Object.keys((await owner.instance(instance.id)).variables).sort()).toEqual([atLimit, "w".repeat(150)])
  })

  it("a locale over the limit is a 400 naming the parameter; a long one within it is saved and resolved", async () => {
    const owner = await (await givenTenant()).owner()
    const created = (await owner.post("/form-definitions", { name: "Long locales", schema: form })).ok(201)
    const locales = `/form-definitions/${created.id}/locales`
    const tooLong = localeOf(300)
    for (
      const refused of [
        await owner.get(`${locales}/${tooLong}/resolved`),
        await owner.put(`${locales}/${tooLong}`, { labels: { customer: "Kunde" } }),
        await owner.delete(`${locales}/${tooLong}`)
      ]
    ) {
      const error = refused.fails(400, "VALIDATION_ERROR")
      expect(error.errors).toEqual([expect.objectContaining({ field: "locale" })])
    }
    const long = localeOf(100)
    expect(long).toHaveLength(100)
    ;(await owner.put(`${locales}/${long}`, { labels: { customer: "Kunde" } })).ok()
    expect((await owner.get(`${locales}/${long}/resolved`)).ok()).toMatchObject({ locale: long })
  })

  it("a long id or decision reference is the 404 of what it names, not a missing route", async () => {
    const owner = await (await givenTenant()).owner()
    const instance = (await owner.get(`/process-instances/${"x".repeat(300)}`)).fails(404, "RESOURCE_NOT_FOUND")
    expect(instance.message).toMatch(/^process instance x+ not found/)
    const decision = (await owner.post(`/decisions/${"d".repeat(300)}/evaluate`, { variables: {} })).fails(
      404,
      "RESOURCE_NOT_FOUND"
    )
    expect(decision.message).toMatch(/^decision d+ not found/)
  })

  it("a path over Node's header size limit is still refused before routing, with the failure envelope", async () => {
    const app = await testApp()
    const { token } = await (await givenTenant()).owner()
    const response = await fetch(`${app.baseUrl}/api/v1/scopes/x/variables/${"n".repeat(20_000)}`, {
      headers: { authorization: `Bearer ${token}` }
    })
    expect(response.status).toBe(431)
    expect(await response.json()).toMatchObject({ success: false, errorCode: "BAD_REQUEST" })
  })
})
