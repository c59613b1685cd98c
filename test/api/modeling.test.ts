// Modeling and collaboration through HTTP: projects with members and folders, models with revisions and the editing
// lock, drafts promoted to deployments, decisions and form definitions, process templates.
import { describe, expect, it } from "vitest"
import { fixture, givenTenant } from "../support/Scenario.ts"

const graph = (id: string) => ({
  id,
  nodes: [{ id: "s", type: "startEvent" }, { id: "t", type: "userTask" }, { id: "e", type: "endEvent" }],
  flows: [{ id: "f1", source: "s", target: "t" }, { id: "f2", source: "t", target: "e" }]
})

describe("projects", () => {
  it("the creator owns the project; members, folders and roles are enforced", async () => {
    const tenant = await givenTenant()
    const ann = await tenant.owner("ann")
    const ben = await tenant.owner("ben")
    const project = (await ann.post("/projects", { name: "Orders", description: "order handling" })).ok(201)
    expect((await ann.get(`/projects/${project.id}/members`)).ok()).toMatchObject([{ userId: "ann", role: "OWNER" }])
    ;(await ben.patch(`/projects/${project.id}`, { name: "Mine now" })).fails(422, "BUSINESS_ERROR")
    expect((await ann.post(`/projects/${project.id}/members`, { userId: "ben", role: "EDITOR" })).ok(201))
      .toMatchObject({ userId: "ben", role: "EDITOR" })
    // nobody of this tenant: neither a local user nor a subject that has called the API here
    expect(
      (await ann.post(`/projects/${project.id}/members`, { userId: "nobody-here", role: "EDITOR" })).fails(
        404,
        "RESOURCE_NOT_FOUND"
      ).errors[0].field
    )
      .toBe("userId")
    const foreign = await (await givenTenant()).owner("stranger-elsewhere")
    ;(await foreign.get("/projects")).ok()
    ;(await ann.post(`/projects/${project.id}/members`, { userId: "stranger-elsewhere", role: "EDITOR" })).fails(
      404,
      "RESOURCE_NOT_FOUND"
    )
    const folder = (await ben.post(`/projects/${project.id}/folders`, { name: "Billing" })).ok(201)
    const nested = (await ben.post(`/projects/${project.id}/folders`, { name: "Refunds", parentFolderId: folder.id }))
      .ok(201)
    expect(nested.parentFolderId).toBe(folder.id)
    expect((await ann.get(`/projects/${project.id}/folders`)).ok().map((f: { name: string }) => f.name)).toEqual([
      "Billing",
      "Refunds"
    ])
    ;(await ann.delete(`/projects/${project.id}/members/ann`)).fails(409, "CONFLICT")
    expect((await ann.patch(`/projects/${project.id}`, { name: "Order handling" })).ok().name).toBe("Order handling")
    ;(await ann.delete(`/projects/${project.id}/members/ben`)).ok()
    ;(await ben.post(`/projects/${project.id}/folders`, { name: "No longer" })).fails(422, "BUSINESS_ERROR")
    ;(await (await (await givenTenant()).owner()).get(`/projects/${project.id}`)).fails(404, "RESOURCE_NOT_FOUND")
    ;(await (await tenant.taskUser()).post("/projects", { name: "x" })).fails(403, "FORBIDDEN")
    expect((await ann.delete(`/projects/${project.id}`)).ok().id).toBe(project.id)
    ;(await ann.get(`/projects/${project.id}`)).fails(404, "RESOURCE_NOT_FOUND")
  })
})

describe("models", () => {
  it("saves revisions, restores one, and refuses a stale base revision", async () => {
    const tenant = await givenTenant()
    const ann = await tenant.owner("ann")
    const project = (await ann.post("/projects", { name: "P" })).ok(201)
    const model =
      (await ann.post("/models", { projectId: project.id, name: "Order flow", kind: "BPMN", content: "<v1/>" })).ok(201)
    expect(model).toMatchObject({ revision: 1, content: "<v1/>", lock: null })
    expect((await ann.put(`/models/${model.id}/content`, { content: "<v2/>", baseRevision: 1 })).ok().revision).toBe(2)
    ;(await ann.put(`/models/${model.id}/content`, { content: "<v3?/>", baseRevision: 1 })).fails(409, "CONFLICT")
    const restored = (await ann.post(`/models/${model.id}/restore`, { revision: 1 })).ok()
    expect(restored).toMatchObject({ revision: 3, content: "<v1/>" })
    expect(
      (await ann.get(`/models/${model.id}/revisions`)).ok().map((
        r: { revision: number; note: string | null }
      ) => [r.revision, r.note])
    ).toEqual([
      [3, "restored revision 1"],
      [2, null],
      [1, "created"]
    ])
    expect((await ann.get(`/models?projectId=${project.id}&kind=BPMN`)).ok().items).toHaveLength(1)
    ;(await ann.post(`/models/${model.id}/restore`, { revision: 9 })).fails(404, "RESOURCE_NOT_FOUND")
  })

  it("the editing lock: only its holder saves; it lapses after 5 minutes, is renewed, taken over by an OWNER, released", async () => {
    const tenant = await givenTenant()
    const ann = await tenant.owner("ann")
    const ben = await tenant.owner("ben")
    ;(await ben.get("/projects")).ok() // ben has called the API in this tenant: a known subject
    const project = (await ann.post("/projects", { name: "P" })).ok(201)
    ;(await ann.post(`/projects/${project.id}/members`, { userId: "ben", role: "EDITOR" })).ok(201)
    const model = (await ann.post("/models", { projectId: project.id, name: "M", kind: "DMN" })).ok(201)
    const locked = (await ben.post(`/models/${model.id}/lock`)).ok()
    expect(locked.lock.holder).toBe("ben")
    ;(await ann.post(`/models/${model.id}/lock`)).fails(409, "CONFLICT")
    expect((await ann.put(`/models/${model.id}/content`, { content: "x" })).fails(409, "CONFLICT").message).toContain(
      "locked by ben"
    )
    ;(await ben.put(`/models/${model.id}/content`, { content: "by ben" })).ok()
    ;(await ann.post(`/models/${model.id}/lock/renew`)).fails(409, "CONFLICT")
    tenant.app.clock.advance("6 minutes")
    expect((await ann.get(`/models/${model.id}/lock`)).ok().lock).toBeNull()
    // Lapsed but untaken: its holder may renew it.
    expect((await (await tenant.owner("ben")).post(`/models/${model.id}/lock/renew`)).ok().lock.holder).toBe("ben")
    // A project OWNER takes it over.
    const fresh = await tenant.owner("ann")
    expect((await fresh.post(`/models/${model.id}/lock/takeover`)).ok().lock.holder).toBe("ann")
    ;(await (await tenant.owner("ben")).post(`/models/${model.id}/lock/takeover`)).fails(422, "BUSINESS_ERROR")
    expect((await fresh.delete(`/models/${model.id}/lock`)).ok().lock).toBeNull()
    expect((await fresh.delete(`/models/${model.id}`)).ok().id).toBe(model.id)
  })
})

describe("drafts and templates", () => {
  it("a PROCESS draft is private and promotes to a deployment one can start; a DECISION draft to a decision", async () => {
    const tenant = await givenTenant()
    const ann = await tenant.owner("ann")
    const ben = await tenant.owner("ben")
    const draft = (await ann.post("/drafts", { kind: "PROCESS", name: "New flow", content: graph("drafted-flow") })).ok(
      201
    )
    ;(await ben.get(`/drafts/${draft.id}`)).fails(404, "RESOURCE_NOT_FOUND")
    expect((await ben.get("/drafts")).ok()).toEqual([])
    const promoted = (await ann.post(`/drafts/${draft.id}/promote`)).ok()
    expect(promoted.promotedTo).toMatchObject({ kind: "deployment", key: "drafted-flow", version: 1 })
    const instance = await ann.start(promoted.promotedTo.id)
    expect(instance.state).toBe("ACTIVE")
    ;(await ann.post(`/drafts/${draft.id}/promote`)).fails(409, "CONFLICT")
    ;(await ann.put(`/drafts/${draft.id}`, { content: graph("drafted-flow") })).ok()
    expect((await ann.post(`/drafts/${draft.id}/promote`)).ok().promotedTo.version).toBe(2)

    const decision = (await ann.post("/drafts", { kind: "DECISION", name: "Pricing", content: fixture("pricing.dmn") }))
      .ok(201)
    expect((await ann.post(`/drafts/${decision.id}/promote`)).ok().promotedTo.kind).toBe("decisionModel")
    const table = (await ann.post("/drafts", {
      kind: "DECISION",
      name: "Risk",
      content: {
        id: "risk",
        name: "Risk",
        hitPolicy: "UNIQUE",
        inputs: [{ id: "in_amount", label: "Amount", expression: "amount", typeRef: "number" }],
        outputs: [{ id: "out_level", name: "level", typeRef: "string" }],
        rules: [{ id: "any", inputEntries: ["-"], outputEntries: ["\"low\""] }]
      }
    })).ok(201)
    expect((await ann.post(`/drafts/${table.id}/promote`)).ok().promotedTo).toMatchObject({
      kind: "decision",
      key: "risk",
      version: 1
    })
    const broken =
      (await ann.post("/drafts", { kind: "PROCESS", name: "Broken", content: { id: "b", nodes: [], flows: [] } })).ok(
        201
      )
    ;(await ann.post(`/drafts/${broken.id}/promote`)).fails(400, "VALIDATION_ERROR")
    const form = (await ann.post("/drafts", { kind: "FORM", name: "Form", content: { components: [] } })).ok(201)
    expect((await ann.post(`/drafts/${form.id}/promote`)).ok().promotedTo).toMatchObject({
      kind: "formDefinition",
      key: "form",
      version: 1
    })
    expect((await ann.get("/drafts?kind=DECISION")).ok().map((d: { id: string }) => d.id).sort()).toEqual(
      [decision.id, table.id].sort()
    )
  })

  it("a FORM draft promotes to a DRAFT form definition of its key; promoting again after a save adds a version", async () => {
    const tenant = await givenTenant()
    const ann = await tenant.owner("ann")
    const content = { type: "default", components: [{ type: "textfield", key: "a", label: "A" }] }
    const draft = (await ann.post("/drafts", { kind: "FORM", name: "okform", content })).ok(201)
    const promoted = (await ann.post(`/drafts/${draft.id}/promote`)).ok()
    // No id in the form: its key is derived from the draft's name, as POST /form-definitions derives it.
    expect(promoted.promotedTo).toMatchObject({ kind: "formDefinition", key: "okform", version: 1 })
    const formId = promoted.promotedTo.id
    expect((await ann.get(`/form-definitions/${formId}`)).ok()).toMatchObject({
      id: formId,
      key: "okform",
      name: "okform",
      state: "DRAFT",
      version: 1,
      schema: content,
      createdBy: "ann"
    })
    // As with a PROCESS draft: once promoted, promoting again needs a save.
    expect((await ann.post(`/drafts/${draft.id}/promote`)).fails(409, "CONFLICT").message).toContain(formId)
    const changed = { ...content, components: [...content.components, { type: "number", key: "b", label: "B" }] }
    ;(await ann.put(`/drafts/${draft.id}`, { content: changed })).ok()
    expect((await ann.post(`/drafts/${draft.id}/promote`)).ok().promotedTo).toEqual({
      kind: "formDefinition",
      id: formId,
      key: "okform",
      version: 2
    })
    expect((await ann.get(`/form-definitions/${formId}`)).ok()).toMatchObject({ version: 2, schema: changed })
    expect((await ann.get(`/form-definitions/${formId}/versions`)).ok().map((v: { version: number }) => v.version))
      .toEqual([2, 1])
    expect(
      (await ann.get(`/form-definitions/${formId}/audit`)).ok().map((a: { action: string; actor: string }) =>
        `${a.action}:${a.actor}`
      )
    ).toEqual(["CREATED:ann", "EDITED:ann"])

    // The form's own id is its key whatever the draft is called: another draft with that id adds to the same form.
    const renamed = (await ann.post("/drafts", {
      kind: "FORM",
      name: "Something else",
      content: { ...content, id: "okform" }
    })).ok(201)
    expect((await ann.post(`/drafts/${renamed.id}/promote`)).ok().promotedTo).toMatchObject({ id: formId, version: 3 })
    expect((await ann.get(`/form-definitions/${formId}`)).ok().name).toBe("Something else") // A definition past DRAFT is left as it is: the next promotion starts a new DRAFT definition of the key.
    ;(await ann.post(`/form-definitions/${formId}/validate`)).ok()
    ;(await ann.put(`/drafts/${draft.id}`, { name: "okform" })).ok()
    const next = (await ann.post(`/drafts/${draft.id}/promote`)).ok().promotedTo
    expect(next).toMatchObject({ kind: "formDefinition", key: "okform", version: 1 })
    expect(next.id).not.toBe(formId)
    expect((await ann.get(`/form-definitions/${formId}`)).ok()).toMatchObject({ state: "VALIDATED", version: 3 })
    expect((await ann.get(`/form-definitions/${next.id}`)).ok()).toMatchObject({ state: "DRAFT", schema: changed })
    expect((await ann.get("/form-definitions?key=okform")).ok().totalItems).toBe(2)

    // Recorded in the audit log as any promotion: one event per call, on the draft, with its status.
    const admin = await tenant.admin()
    const events = (await admin.get(`/audit-events?resourceKind=drafts&resourceId=${draft.id}&method=POST`)).ok()
    expect(
      events.items.map((e: { path: string; status: number; actor: string }) => `${e.actor} ${e.path} ${e.status}`)
        .reverse()
    ).toEqual([200, 409, 200, 200].map((status) => `ann /api/v1/drafts/${draft.id}/promote ${status}`))
  })

  it("a FORM draft that is not a form is refused on promote as POST /form-definitions refuses it, naming the field", async () => {
    const tenant = await givenTenant()
    const ann = await tenant.owner("ann")
    for (const content of ["<form/>", [{ type: "textfield", key: "a" }], null]) {
      const draft = (await ann.post("/drafts", { kind: "FORM", name: "broken form", content })).ok(201)
      const refused = (await ann.post(`/drafts/${draft.id}/promote`)).fails(422, "BUSINESS_ERROR")
      expect(refused.errors).toEqual([{ field: "schema", message: expect.any(String), code: "INVALID_FORM" }])
      const direct = (await ann.post("/form-definitions", { name: "broken form", schema: content })).fails(
        422,
        "BUSINESS_ERROR"
      )
      expect(refused.errors).toEqual(direct.errors)
      expect((await ann.get(`/drafts/${draft.id}`)).ok().promotedTo).toBeNull()
    }
    expect((await ann.get("/form-definitions?key=broken-form")).ok().totalItems).toBe(0)
    // Incomplete but a form: kept as a DRAFT definition, as POST /form-definitions keeps it (validate refuses it later).
    const incomplete = (await ann.post("/drafts", {
      kind: "FORM",
      name: "broken form",
      content: { type: "default", components: [{ type: "no-such-type" }] }
    })).ok(201)
    const promoted = (await ann.post(`/drafts/${incomplete.id}/promote`)).ok().promotedTo
    expect(promoted).toMatchObject({ kind: "formDefinition", key: "broken-form", version: 1 })
    expect((await ann.post(`/form-definitions/${promoted.id}/validate`)).fails(422, "BUSINESS_ERROR").errors[0].field)
      .toBe("schema.components[0].type")
  })

  it("another tenant's or another user's FORM draft is 404 on promote, and nothing is created", async () => {
    const tenant = await givenTenant()
    const ann = await tenant.owner("ann")
    const content = { type: "default", id: "private-form", components: [{ type: "textfield", key: "a", label: "A" }] }
    const draft = (await ann.post("/drafts", { kind: "FORM", name: "Private", content })).ok(201)
    const stranger = await (await givenTenant()).owner("ann")
    const refused = (await stranger.post(`/drafts/${draft.id}/promote`)).fails(404, "RESOURCE_NOT_FOUND")
    expect(refused.message).toBe(`draft ${draft.id} not found`)
    ;(await (await tenant.owner("ben")).post(`/drafts/${draft.id}/promote`)).fails(404, "RESOURCE_NOT_FOUND")
    expect((await stranger.get("/form-definitions?key=private-form")).ok().totalItems).toBe(0)
    expect((await ann.get("/form-definitions?key=private-form")).ok().totalItems).toBe(0)
    expect((await ann.get(`/drafts/${draft.id}`)).ok().promotedTo).toBeNull()
    // The owner's promotion lands in the owner's tenant only.
    const promoted = (await ann.post(`/drafts/${draft.id}/promote`)).ok().promotedTo
    ;(await stranger.get(`/form-definitions/${promoted.id}`)).fails(404, "RESOURCE_NOT_FOUND")
    expect((await ann.get("/form-definitions?key=private-form")).ok().totalItems).toBe(1)
  })

  it("two promotes of one draft at the same time create one resource and answer the other 409, PROCESS and FORM alike", async () => {
    const tenant = await givenTenant()
    const ann = await tenant.owner("ann")
    const form = (await ann.post("/drafts", {
      kind: "FORM",
      name: "raced form",
      content: { type: "default", components: [{ type: "textfield", key: "a", label: "A" }] }
    })).ok(201)
    const process = (await ann.post("/drafts", { kind: "PROCESS", name: "Raced", content: graph("raced-flow") })).ok(
      201
    )
    for (const draft of [form, process]) {
      const replies = await Promise.all(Array.from({ length: 8 }, () => ann.post(`/drafts/${draft.id}/promote`)))
      expect(replies.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409])
      const winner = replies.find((r) => r.status === 200)!.ok()
      expect((await ann.get(`/drafts/${draft.id}`)).ok().promotedTo).toEqual(winner.promotedTo)
    }
    const forms = (await ann.get("/form-definitions?key=raced-form")).ok()
    expect(forms.totalItems).toBe(1)
    expect(forms.items[0].version).toBe(1)
    expect((await ann.get("/deployments?key=raced-flow")).ok().totalItems).toBe(1)
  })

  it("templates are compiled on save and shared in the tenant", async () => {
    const tenant = await givenTenant()
    const ann = await tenant.owner("ann")
    const template = (await ann.post("/templates", { name: "Approval", content: fixture("approval.bpmn") })).ok(201)
    expect(template.processKey).toBeTruthy()
    expect((await (await tenant.taskUser()).get(`/templates/${template.id}`)).ok().name).toBe("Approval")
    ;(await ann.post("/templates", {
      name: "Bad",
      content: { id: "bad", nodes: [{ id: "x", type: "userTask" }], flows: [] }
    })).fails(400, "VALIDATION_ERROR")
    expect((await ann.put(`/templates/${template.id}`, { name: "Approval v2", content: graph("tpl") })).ok())
      .toMatchObject({ name: "Approval v2", processKey: "tpl" })
    expect((await ann.get("/templates")).ok().items).toHaveLength(1)
    ;(await ann.delete(`/templates/${template.id}`)).ok()
    ;(await ann.get(`/templates/${template.id}`)).fails(404, "RESOURCE_NOT_FOUND")
  })
})
