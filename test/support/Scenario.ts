// The scenario DSL of the API tests: a fresh tenant per test, callers with roles, and the domain steps later
// issues extend ("as ADMIN of tenant A, create a group, expect 403 as TASK_USER ...").
import { SignJWT } from "jose"
import { randomUUID } from "node:crypto"
import { readFileSync } from "node:fs"
import type { Role } from "../../src/auth/Roles.ts"
import { type Reply, type RequestOptions, send } from "./Client.ts"
import { TEST_ISSUER, TEST_JWT_SECRET, type TestApp, testApp } from "./TestApp.ts"

const secret = new TextEncoder().encode(TEST_JWT_SECRET)

/** A token of this service for any tenant, subject and roles, issued at the app clock's "now". */
export const tokenFor = (
  app: TestApp,
  claims: { readonly tenantId: string; readonly sub: string; readonly roles: ReadonlyArray<Role | string> },
  options: { readonly expiresInSeconds?: number; readonly secret?: Uint8Array; readonly issuer?: string } = {}
): Promise<string> => {
  const now = Math.floor(app.clock.nowMillis() / 1000)
  return new SignJWT({ tenantId: claims.tenantId, roles: [...claims.roles] })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(claims.sub)
    .setIssuer(options.issuer ?? TEST_ISSUER)
    .setIssuedAt(now)
    .setExpirationTime(now + (options.expiresInSeconds ?? 3600))
    .sign(options.secret ?? secret)
}

/** Someone calling the API: with a token, or anonymously. */
export class Caller {
  readonly app: TestApp
  readonly token: string | undefined
  constructor(app: TestApp, token: string | undefined) {
    this.app = app
    this.token = token
  }

  call(method: string, path: string, options: Omit<RequestOptions, "token"> = {}): Promise<Reply> {
    return send(this.app.baseUrl, method, `/api/v1${path}`, { ...options, token: this.token })
  }
  get(path: string, options?: Omit<RequestOptions, "token">) {
    return this.call("GET", path, options)
  }
  post(path: string, body?: unknown, options: Omit<RequestOptions, "token" | "body"> = {}) {
    return this.call("POST", path, { ...options, body })
  }
  put(path: string, body?: unknown) {
    return this.call("PUT", path, { body })
  }
  patch(path: string, body?: unknown) {
    return this.call("PATCH", path, { body })
  }
  delete(path: string) {
    return this.call("DELETE", path)
  }

  // ---- domain steps ----
  async createUser(input: { username?: string; password?: string; roles?: ReadonlyArray<Role>; email?: string } = {}) {
    return (await this.post("/auth/users", {
      username: input.username ?? uniqueName("user"),
      password: input.password ?? "password-123",
      roles: input.roles ?? ["TASK_USER"],
      ...(input.email === undefined ? {} : { email: input.email })
    })).ok(201)
  }
  async createGroup(name = uniqueName("group")) {
    return (await this.post("/auth/groups", { name })).ok(201)
  }

  /** Deploys BPMN XML (a string) or a JSON graph (an object); answers the deployment. */
  async deploy(model: string | object) {
    const reply = typeof model === "string"
      ? await this.call("POST", "/deployments", { rawBody: model, contentType: "application/xml" })
      : await this.post("/deployments", model)
    return reply.ok(201)
  }
  async start(deploymentId: string, variables: Record<string, unknown> = {}) {
    return (await this.post("/process-instances", { deploymentId, variables })).ok(201)
  }
  async instance(id: string) {
    return (await this.get(`/process-instances/${id}`)).ok()
  }
  async activateJobs(type: string, options: { worker?: string; maxJobsToActivate?: number; timeout?: number } = {}) {
    return (await this.post("/jobs/activation", { type, worker: options.worker ?? "test-worker", ...options })).ok()
      .jobs as Array<any>
  }
  async completeJob(id: string, variables: Record<string, unknown> = {}) {
    return (await this.post(`/jobs/${id}/complete`, { variables })).ok()
  }
  async tasks(query = "") {
    return (await this.get(`/tasks${query}`)).ok().items as Array<any>
  }
  async completeTask(id: string, variables: Record<string, unknown> = {}) {
    return (await this.post(`/tasks/${id}/complete`, { variables })).ok()
  }
  async history(instanceId: string) {
    return (await this.get(`/process-instances/${instanceId}/history?size=1000`)).ok().items as Array<any>
  }
}

/** A fresh tenant, known to the app from the first token that names it. */
export class Tenant {
  readonly app: TestApp
  readonly id: string
  constructor(app: TestApp, id: string) {
    this.app = app
    this.id = id
  }

  async as(roles: Role | ReadonlyArray<Role | string>, sub = uniqueName("caller")): Promise<Caller> {
    const list = typeof roles === "string" ? [roles] : roles
    return new Caller(this.app, await tokenFor(this.app, { tenantId: this.id, sub, roles: list }))
  }
  admin(sub?: string) {
    return this.as("ADMIN", sub)
  }
  owner(sub?: string) {
    return this.as("PROCESS_OWNER", sub)
  }
  taskUser(sub?: string) {
    return this.as("TASK_USER", sub)
  }
}

export const anonymous = async (): Promise<Caller> => new Caller(await testApp(), undefined)

export const givenTenant = async (): Promise<Tenant> => new Tenant(await testApp(), randomUUID())

let counter = 0
export const uniqueName = (prefix: string): string =>
  `${prefix}-${Date.now().toString(36)}-${(counter++).toString(36)}-${randomUUID().slice(0, 6)}`

/** A model from test/fixtures. */
export const fixture = (name: string): string => readFileSync(new URL(`../fixtures/${name}`, import.meta.url), "utf8")
