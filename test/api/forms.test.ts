// Forms through HTTP: form-designer definitions (lifecycle, checks, playground, versions, lineage, audit, locales),
// legacy forms with migration, and the form of a user task.
import { describe, expect, it } from "vitest"
import { givenTenant } from "../support/Scenario.ts"

const form = (extra: ReadonlyArray<Record<string, unknown>> = []) => ({
  type: "default",
  id: "invoice-form",
  schemaVersion: 16,
  components: [
    { type: "textfield", key: "customer", id: "c1", label: "Customer", validate: { required: true, minLength: 3 } },
    { type: "number", key: "amount", id: "c2", label: "Amount", validate: { min: 1, max: 1000 } },
    {
      type: "textfield",
      key: "reason",
      id: "c3",
      label: "Reason",
      conditional: { hide: "= amount < 500" },
      validate: { required: true }
    },
    {
      type: "group",
      id: "g",
      label: "Contact",
      components: [{ type: "textfield", key: "email", id: "c4", label: "Email", validate: { validationType: "email" } }]
    },
    ...extra
  ]
})

describe("form definitions", () => {
  it("goes DRAFT -> VALIDATED -> PUBLISHED -> DEPLOYED -> RETIRED, editable only as DRAFT, with an audit trail", async () => {
    const owner = await (await givenTenant()).owner("designer")
    const created = (await owner.post("/form-definitions", { name: "Invoice", schema: form() })).ok(201)
    expect(created).toMatchObject({ key: "invoice-form", state: "DRAFT", version: 1 })
    expect((await owner.put(`/form-definitions/${created.id}`, { name: "Invoice form" })).ok().version).toBe(2)
    const validated = (await owner.post(`/form-definitions/${created.id}/validate`)).ok()
    expect(validated.definition.state).toBe("VALIDATED")
    ;(await owner.put(`/form-definitions/${created.id}`, { name: "x" })).fails(409, "CONFLICT")
    ;(await owner.delete(`/form-definitions/${created.id}`)).fails(409, "CONFLICT")
    ;(await owner.post(`/form-definitions/${created.id}/deploy`)).fails(409, "CONFLICT")
    ;(await owner.post(`/form-definitions/${created.id}/publish`)).ok()
    expect((await owner.post(`/form-definitions/${created.id}/deploy`)).ok().definition.state).toBe("DEPLOYED")
    ;(await owner.post(`/form-definitions/${created.id}/return-to-draft`)).fails(409, "CONFLICT")
    ;(await owner.post(`/form-definitions/${created.id}/retire`)).ok()
    expect((await owner.post(`/form-definitions/${created.id}/return-to-draft`)).ok().definition.state).toBe("DRAFT")
    const audit = (await owner.get(`/form-definitions/${created.id}/audit`)).ok()
    expect(audit.map((a: { action: string; toState: string | null }) => `${a.action}:${a.toState}`)).toEqual([
      "CREATED:DRAFT",
      "EDITED:DRAFT",
      "VALIDATE:VALIDATED",
      "PUBLISH:PUBLISHED",
      "DEPLOY:DEPLOYED",
      "RETIRE:RETIRED",
      "RETURNTODRAFT:DRAFT"
    ])
    expect(audit[0].actor).toBe("designer")
  })

  it("validation lists every problem by path; warnings do not block", async () => {
    const owner = await (await givenTenant()).owner()
    const bad = (await owner.post("/form-definitions", {
      name: "Bad",
      schema: form([{ type: "slider", id: "x" }, { type: "textfield", id: "nokey" }, {
        type: "number",
        key: "amount",
        id: "dup"
      }, { type: "text", id: "t", text: "hi", label: "L", conditional: { hide: "= (" } }])
    })).ok(201)
    const reply = (await owner.post(`/form-definitions/${bad.id}/validate`)).fails(422, "BUSINESS_ERROR")
    expect(reply.errors.map((e: { field: string }) => e.field)).toEqual([
      "schema.components[4].type",
      "schema.components[5].key",
      "schema.components[6].key",
      "schema.components[7].conditional.hide"
    ])
    const ok = (await owner.post("/form-definitions", {
      name: "Ok",
      schema: form([{ type: "text", id: "t", text: "hi", label: "L" }])
    })).ok(201)
    const validated = (await owner.post(`/form-definitions/${ok.id}/validate`)).ok()
    expect(validated.warnings).toEqual([{
      path: "components[4].label",
      message: "text components have no label in the form-js schema"
    }])
    ;(await owner.post("/form-definitions", { name: "Not a form", schema: "text" })).fails(422, "BUSINESS_ERROR")
  })

  it("the playground hides by FEEL and validates what shows", async () => {
    const owner = await (await givenTenant()).owner()
    const created = (await owner.post("/form-definitions", { name: "Invoice", schema: form() })).ok(201)
    const small = (await owner.post(`/form-definitions/${created.id}/playground`, {
      data: { customer: "Al", amount: 100, email: "nope" }
    })).ok()
    expect(small.valid).toBe(false)
    expect(small.errors).toEqual([{ key: "customer", message: "needs at least 3 characters" }, {
      key: "email",
      message: "is not an email address"
    }])
    expect(small.visibleComponents).not.toContain("reason")
    const big =
      (await owner.post(`/form-definitions/${created.id}/playground`, { data: { customer: "Alice", amount: 5000 } }))
        .ok()
    expect(big.errors).toEqual([{ key: "amount", message: "must be at most 1000" }, {
      key: "reason",
      message: "is required"
    }])
  })

  it("versions, diff, restore into a new draft with lineage, and locales with fallback", async () => {
    const owner = await (await givenTenant()).owner()
    const created = (await owner.post("/form-definitions", { name: "Invoice", schema: form() })).ok(201)
    const changed = form([{ type: "checkbox", key: "urgent", id: "c5", label: "Urgent" }])
    ;(changed.components[0] as Record<string, unknown>)["label"] = "Client"
    ;(await owner.put(`/form-definitions/${created.id}`, { schema: changed })).ok()
    expect(
      (await owner.get(`/form-definitions/${created.id}/versions`)).ok().map((v: { version: number }) => v.version)
    ).toEqual([2, 1])
    expect((await owner.get(`/form-definitions/${created.id}/versions/diff?from=1&to=2`)).ok()).toEqual({
      from: 1,
      to: 2,
      added: ["urgent"],
      removed: [],
      changed: [{ key: "customer", properties: ["label"] }]
    })
    const restored = (await owner.post(`/form-definitions/${created.id}/versions/1/restore`)).ok(201)
    expect(restored).toMatchObject({
      state: "DRAFT",
      key: "invoice-form",
      restoredFrom: { formId: created.id, version: 1 }
    })
    expect((await owner.get(`/form-definitions/${restored.id}/lineage`)).ok().restoredFrom).toEqual([{
      formId: created.id,
      version: 1
    }])
    expect((await owner.get(`/form-definitions/${created.id}/lineage`)).ok().restoredInto).toEqual([{
      formId: restored.id,
      version: 1
    }])
    ;(await owner.put(`/form-definitions/${created.id}/locales/de`, {
      labels: { customer: "Kunde", amount: "Betrag" }
    })).ok()
    ;(await owner.put(`/form-definitions/${created.id}/locales/de-CH`, { labels: { customer: "Chund" } })).ok()
    const resolved = (await owner.get(`/form-definitions/${created.id}/locales/de-CH/resolved`)).ok()
    expect(resolved.labels).toMatchObject({ customer: "Chund", amount: "Betrag", reason: "Reason" })
    expect(resolved.sources).toMatchObject({ customer: "locale", amount: "language", reason: "default" })
    expect((await owner.get(`/form-definitions/${created.id}/locales`)).ok().map((l: { locale: string }) => l.locale))
      .toEqual(["de", "de-CH"])
    ;(await owner.delete(`/form-definitions/${created.id}/locales/de-CH`)).ok()
    ;(await owner.delete(`/form-definitions/${created.id}/locales/fr`)).fails(404, "RESOURCE_NOT_FOUND")
    ;(await owner.put(`/form-definitions/${created.id}/locales/not a locale`, { labels: {} })).fails(
      422,
      "BUSINESS_ERROR"
    )
    ;(await (await (await givenTenant()).owner()).get(`/form-definitions/${created.id}`)).fails(
      404,
      "RESOURCE_NOT_FOUND"
    )
  })
})

describe("legacy forms and task forms", () => {
  it("versions per key, migrate to a form-designer draft, and the form a user task shows", async () => {
    const owner = await (await givenTenant()).owner()
    const v1 = (await owner.post("/forms", {
      key: "leave-request",
      schema: {
        fields: [{ id: "days", type: "number", required: true }, {
          id: "kind",
          type: "enum",
          values: ["paid", "unpaid"]
        }]
      }
    })).ok(201)
    expect(v1.version).toBe(1)
    const v2 = (await owner.put(`/forms/${v1.id}`, { schema: { fields: [{ id: "days", type: "number" }] } })).ok()
    expect(v2).toMatchObject({ key: "leave-request", version: 2 })
    expect((await owner.get("/forms?key=leave-request")).ok().items.map((f: { version: number }) => f.version)).toEqual(
      [2, 1]
    )
    ;(await owner.post("/forms", { key: "x", schema: { fields: [{ id: "a", type: "color" }] } })).fails(
      400,
      "VALIDATION_ERROR"
    )
    const migrated = (await owner.post(`/forms/${v1.id}/migrate-to-v1`)).ok(201)
    expect(migrated).toMatchObject({
      state: "DRAFT",
      key: "leave-request",
      restoredFrom: { formId: v1.id, version: 1 }
    })
    expect(migrated.schema.components.map((c: { type: string; key: string }) => `${c.type}:${c.key}`)).toEqual([
      "number:days",
      "select:kind"
    ])

    const deployment = await owner.deploy({
      id: "leave",
      nodes: [{ id: "s", type: "startEvent" }, {
        id: "ask",
        type: "userTask",
        properties: { formKey: "leave-request" }
      }, { id: "e", type: "endEvent" }],
      flows: [{ id: "f1", source: "s", target: "ask" }, { id: "f2", source: "ask", target: "e" }]
    })
    const instance = await owner.start(deployment.id)
    const [task] = await owner.tasks(`?processInstanceId=${instance.id}`)
    expect((await owner.get(`/tasks/${task.id}/form`)).ok()).toMatchObject({ source: "LEGACY_FORM", sourceId: v2.id })
    ;(await owner.get(`/tasks/${task.id}/form-definition`)).fails(404, "RESOURCE_NOT_FOUND")
    for (const step of ["validate", "publish", "deploy"]) {
      ;(await owner.post(`/form-definitions/${migrated.id}/${step}`)).ok()
    }
    expect((await owner.get(`/tasks/${task.id}/form`)).ok()).toMatchObject({
      source: "FORM_DEFINITION",
      sourceId: migrated.id
    })
    expect((await owner.get(`/tasks/${task.id}/form-definition`)).ok().id).toBe(migrated.id)
    ;(await owner.delete(`/forms/${v2.id}`)).ok()
    ;(await owner.get(`/forms/${v2.id}`)).fails(404, "RESOURCE_NOT_FOUND")
  })
})
