// The public REST API (/api/v1) with the signed-in person's token. Unwraps the success envelope; a failure envelope
// becomes an ApiError carrying its message, code and correlation id. A 401 ends the session.
import type { PageOf } from "./dom.ts"
import { clearSession, currentSession } from "./session.ts"

export interface ErrorDetail {
  readonly field: string
  readonly message: string
}

export class ApiError extends Error {
  readonly status: number
  readonly code: string
  readonly correlationId: string
  /** The envelope's message alone (`message` also lists the details). */
  readonly summary: string
  readonly errors: ReadonlyArray<ErrorDetail>
  constructor(
    status: number,
    code: string,
    summary: string,
    errors: ReadonlyArray<ErrorDetail>,
    correlationId: string
  ) {
    super(errors.length === 0 ? summary : `${summary}: ${errors.map((e) => `${e.field} ${e.message}`).join("; ")}`)
    this.status = status
    this.code = code
    this.summary = summary
    this.errors = errors
    this.correlationId = correlationId
  }
}

type Query = Readonly<Record<string, string | number | boolean | undefined | null>>

const withQuery = (path: string, query: Query = {}) => {
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== "") params.set(key, String(value))
  }
  const text = params.toString()
  return text === "" ? path : `${path}?${text}`
}

const request = async <T>(
  method: string,
  path: string,
  options: { readonly query?: Query; readonly body?: unknown; readonly xml?: string; readonly anonymous?: boolean } = {}
): Promise<T> => {
  const headers: Record<string, string> = { accept: "application/json" }
  const session = currentSession()
  if (session !== undefined && options.anonymous !== true) headers["authorization"] = `Bearer ${session.token}`
  let body: string | undefined
  if (options.xml !== undefined) {
    headers["content-type"] = "application/xml"
    body = options.xml
  } else if (options.body !== undefined) {
    headers["content-type"] = "application/json"
    body = JSON.stringify(options.body)
  }
  const response = await fetch(withQuery(`/api/v1${path}`, options.query), {
    method,
    headers,
    ...(body === undefined ? {} : { body })
  })
  const text = await response.text()
  let parsed: any
  try {
    parsed = text === "" ? {} : JSON.parse(text)
  } catch {
    parsed = { message: text }
  }
  if (!response.ok || parsed.success === false) {
    if (response.status === 401 && options.anonymous !== true) {
      clearSession()
      location.hash = "#/login"
    }
    throw new ApiError(
      response.status,
      parsed.errorCode ?? "HTTP_" + response.status,
      parsed.message ?? response.statusText,
      Array.isArray(parsed.errors) ? parsed.errors : [],
      parsed.correlationId ?? response.headers.get("x-correlation-id") ?? ""
    )
  }
  return parsed.data as T
}

export const api = {
  get: <T>(path: string, query?: Query) => request<T>("GET", path, query === undefined ? {} : { query }),
  page: <T>(path: string, query?: Query) => request<PageOf<T>>("GET", path, query === undefined ? {} : { query }),
  post: <T>(path: string, body?: unknown) => request<T>("POST", path, body === undefined ? {} : { body }),
  put: <T>(path: string, body: unknown) => request<T>("PUT", path, { body }),
  delete: <T>(path: string) => request<T>("DELETE", path),
  postXml: <T>(path: string, xml: string) => request<T>("POST", path, { xml }),
  anonymous: <T>(path: string) => request<T>("GET", path, { anonymous: true }),
  anonymousPost: <T>(path: string, body: unknown) => request<T>("POST", path, { body, anonymous: true }),
  login: (username: string, password: string) =>
    request<LoginResult>("POST", "/auth/login", { body: { username, password }, anonymous: true })
}

/** Runs `work` over `items`, `limit` at a time (to spare the server a burst of requests). */
export const inBatches = async <T, R>(items: ReadonlyArray<T>, limit: number, work: (item: T) => Promise<R>) => {
  const results: Array<R> = []
  for (let index = 0; index < items.length; index += limit) {
    results.push(...(await Promise.all(items.slice(index, index + limit).map(work))))
  }
  return results
}

// The shapes this UI reads (a subset of the OpenAPI document's schemas).
export interface LoginResult {
  readonly token: string
  readonly expiresAt: string
  readonly username: string
  readonly tenantId: string
  readonly roles: ReadonlyArray<string>
}
export interface Deployment {
  readonly id: string
  readonly key: string
  readonly name: string | null
  readonly version: number
  readonly versionTag: string | null
  readonly format: string
  readonly state: "ACTIVE" | "SUSPENDED"
  readonly createdBy: string
  readonly createdAt: string
}
export interface DeploymentDetail extends Deployment {
  readonly bpmnXml: string
}
export interface ProcessInstance {
  readonly id: string
  readonly deploymentId: string
  readonly processKey: string
  readonly version: number
  readonly state: "ACTIVE" | "SUSPENDED" | "COMPLETED" | "CANCELED"
  readonly incidentCount: number
  readonly parentInstanceId: string | null
  readonly variables: Record<string, unknown>
  readonly startedBy: string
  readonly startedAt: string
  readonly endedAt: string | null
}
export interface InstanceToken {
  readonly tokenId: string
  readonly nodeId: string
  readonly waitingFor: string | null
  readonly jobId: string | null
  readonly taskId: string | null
  readonly incidentId: string | null
}
export interface DeploymentNode {
  readonly id: string
  readonly type: string
  readonly name: string | null
}
export interface InstanceVariables {
  readonly processInstanceId: string
  readonly variables: Record<string, unknown>
  /** Sent back as expectedVersion so an edit does not overwrite someone else's. */
  readonly version: number
}
export interface ScopedVariable {
  readonly name: string
  readonly value: unknown
  readonly scopeId: string
}
export interface InstanceSnapshot {
  readonly eventSeq: number
  readonly variables: Record<string, unknown>
  readonly activeNodes: ReadonlyArray<string>
}
export interface Incident {
  readonly id: string
  readonly processInstanceId: string
  readonly nodeId: string
  readonly jobId: string | null
  readonly type: string
  readonly message: string
  readonly state: "OPEN" | "RESOLVED"
  readonly createdAt: string
  readonly resolvedAt: string | null
}
export interface Job {
  readonly id: string
  readonly type: string
  readonly nodeId: string
  readonly state: string
  readonly retries: number
  readonly worker: string | null
  readonly errorMessage: string | null
  readonly createdAt: string
}
export interface UserTask {
  readonly id: string
  readonly name: string | null
  readonly state: "CREATED" | "COMPLETED" | "CANCELED"
  readonly processInstanceId: string
  readonly nodeId: string
  readonly assignee: string | null
  readonly candidateGroups: ReadonlyArray<string>
  readonly candidateUsers: ReadonlyArray<string>
  readonly formKey: string | null
  readonly priority: number
  /** Who delegated the task: it returns to them when the delegate completes it. */
  readonly owner?: string | null
  readonly delegationState?: "PENDING" | "RESOLVED" | null
  readonly dueDate: string | null
  readonly variables: Record<string, unknown>
  readonly createdAt: string
  readonly completedAt: string | null
}
export interface TaskForm {
  readonly formKey: string
  readonly source: "FORM_DEFINITION" | "LEGACY_FORM"
  readonly schema: unknown
}
export interface HistoryEvent {
  readonly eventSeq: number
  readonly type: string
  readonly nodeId: string | null
  readonly tokenId: string | null
  readonly data: Record<string, unknown>
  readonly sub: string | null
  readonly occurredAt: string
}
export interface Decision {
  readonly id: string
  readonly key: string
  readonly name: string | null
  readonly version: number
  readonly versionTag?: string | null
  readonly kind: string
  readonly hitPolicy: string | null
  readonly decisionModelId: string
  readonly format: "JSON_TABLE" | "DMN_XML"
  readonly createdBy: string
  readonly createdAt: string
}
export interface DecisionDetail extends Decision {
  readonly requiredDecisions: ReadonlyArray<string>
  readonly requiredInputs: ReadonlyArray<string>
}
export interface RuleMatch {
  /** Zero-based position of the rule in its table. */
  readonly index: number
  readonly ruleId: string
  readonly outputs: Record<string, unknown>
}
export interface DecisionTrace {
  readonly decisionId: string
  readonly decisionName: string
  readonly inputs: ReadonlyArray<{ readonly id: string; readonly label: string; readonly value: unknown }>
  readonly matchedRules: ReadonlyArray<RuleMatch>
  readonly result: unknown
}
export interface EvaluationResult {
  readonly decisionId: string
  readonly decisionKey: string
  readonly version: number | null
  readonly result: unknown
  readonly trace?: ReadonlyArray<DecisionTrace>
}
export interface User {
  readonly id: string
  readonly username: string
  readonly email: string | null
  readonly roles: ReadonlyArray<string>
  readonly createdAt: string
}
export interface Group {
  readonly id: string
  readonly name: string
  readonly description: string | null
  readonly memberCount: number
  readonly createdAt: string
}
export interface GroupMember {
  readonly groupId: string
  readonly userId: string
  readonly username: string
  readonly addedAt: string
}
export interface Invitation {
  readonly id: string
  readonly email: string
  readonly roles: ReadonlyArray<string>
  readonly state: "PENDING" | "ACCEPTED" | "REVOKED" | "EXPIRED"
  readonly invitedBy: string
  readonly expiresAt: string
  readonly createdAt: string
}
export interface ResourceAuthorization {
  readonly id: string
  readonly resourceType: string
  readonly resourceId: string
  readonly permissions: ReadonlyArray<string>
  readonly userId: string | null
  readonly groupId: string | null
  readonly createdAt: string
}
export interface MigrationResult {
  readonly targetDeploymentId: string
  readonly migratedCount: number
  readonly processInstanceIds: ReadonlyArray<string>
  readonly failed: ReadonlyArray<{ readonly processInstanceId: string; readonly message: string }>
}
export interface BatchOperation {
  readonly id: string
  readonly type: string
  readonly state: "ACTIVE" | "COMPLETED"
  readonly total: number
  readonly pending: number
  readonly succeeded: number
  readonly failed: number
  readonly createdAt: string
  readonly completedAt: string | null
  readonly items: ReadonlyArray<
    {
      readonly targetId: string
      readonly state: "PENDING" | "SUCCEEDED" | "FAILED"
      readonly message: string | null
      readonly processedAt: string | null
    }
  >
}
export interface DecisionModel {
  readonly id: string
  readonly name: string | null
  readonly format: "JSON_TABLE" | "DMN_XML"
  readonly decisions: ReadonlyArray<Decision>
}
export interface AuthConfig {
  readonly password: { readonly enabled: boolean }
  readonly oidc: {
    readonly enabled: boolean
    readonly issuer: string | null
    readonly audience: string | null
    /** Not answered by the API today: with it (and the issuer's discovery document) the UI signs in by code + PKCE. */
    readonly clientId?: string | null
    readonly scope?: string | null
  }
  readonly tokenHeader: string
  readonly roles: ReadonlyArray<string>
}
