// Modeling and collaboration through HTTP: projects with members and folders, models with revisions and the editing
// lock, drafts promoted to deployments and decisions, process templates.
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
    const broken =
      (await ann.post("/drafts", { kind: "PROCESS", name: "Broken", content: { id: "b", nodes: [], flows: [] } })).ok(
        201
      )
    ;(await ann.post(`/drafts/${broken.id}/promote`)).fails(400, "VALIDATION_ERROR")
    const form = (await ann.post("/drafts", { kind: "FORM", name: "Form", content: { components: [] } })).ok(201)
    ;(await ann.post(`/drafts/${form.id}/promote`)).fails(422, "BUSINESS_ERROR")
    expect((await ann.get("/drafts?kind=DECISION")).ok().map((d: { id: string }) => d.id)).toEqual([decision.id])
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
