// A form's expressions take at most 2 s together to check or to run (forms/FormSchema.ts): a form of many components,
// each with a costly `conditional.hide`, held the node for as many seconds on every check and playground run.
import { describe, expect, it } from "vitest"
import { givenTenant } from "../support/Scenario.ts"

/** 100 text fields, each hidden by an expression that counts to 900,000 (within one expression's own budget). */
const costlyForm = {
  type: "default",
  components: Array.from({ length: 100 }, (_, i) => ({
    type: "textfield",
    key: `field${i}`,
    id: `f${i}`,
    label: `Field ${i}`,
    conditional: { hide: "= count(for i in 1..900000 return i) < 0" }
  }))
}

describe("a form's expressions", () => {
  it("take at most 2 s together: validating says so, the playground answers not valid", async () => {
    const owner = await (await givenTenant()).owner()
    const created = (await owner.post("/form-definitions", { name: "Costly", schema: costlyForm })).ok(201)
    const validated = (await owner.post(`/form-definitions/${created.id}/validate`)).fails(422, "BUSINESS_ERROR")
    expect(validated.errors[0]).toMatchObject({ field: "schema.components", code: "INVALID_FORM" })
    expect(validated.message).toMatch(/take longer than 2000 ms together/)
    const played = (await owner.post(`/form-definitions/${created.id}/playground`, { data: {} })).ok()
    expect(played).toMatchObject({ valid: false, errors: [{ message: expect.stringMatching(/2000 ms/) }] })
  }, 60_000)
})
