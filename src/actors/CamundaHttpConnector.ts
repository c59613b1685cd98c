// Camunda's REST connector (job type `io.camunda:http-json:1`), so a model built from the Modeler's REST connector
// template runs unchanged: the template's inputs arrive as the job's variables (its input mappings, applied at
// activation) — url, method, headers, queryParameters, body, authentication (noAuth, basic, bearer),
// connectionTimeoutInSeconds / readTimeoutInSeconds — and its task headers say what to do with the answer:
// resultVariable (the whole response { status, headers, body }), resultExpression (FEEL over `response`, a context
// whose entries become variables) and errorExpression (FEEL over `response` and `error`; a context with a `code` throws
// that BPMN error, e.g. `= if error.code = "404" then { code: "NOT_FOUND", message: "no such order" } else null`).
import { Effect } from "effect"
import { evaluateFeel } from "../decision/feel/Feel.ts"
import type { Job } from "../schema/Work.ts"

export const CAMUNDA_HTTP_JSON = "io.camunda:http-json:1"

export type CamundaOutcome =
  | { readonly ok: true; readonly variables: Record<string, unknown> }
  | { readonly ok: false; readonly message: string; readonly final: boolean }
  | { readonly ok: false; readonly bpmnError: { readonly code: string; readonly message: string } }

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** An input by name: `authentication.type` may arrive as a nested context or as a dotted variable name. */
const input = (variables: Readonly<Record<string, unknown>>, path: string): unknown => {
  if (path in variables) return variables[path]
  return path.split(".").reduce<unknown>((value, key) => (isRecord(value) ? value[key] : undefined), variables)
}

const text = (value: unknown): string | undefined => value === undefined || value === null ? undefined : String(value)

const feel = (expression: string | undefined, context: Record<string, unknown>): unknown => {
  if (expression === undefined || expression.trim() === "") return undefined
  const result = evaluateFeel(expression.trim().replace(/^=/, ""), context)
  return result._tag === "FeelOk" ? result.value : undefined
}

export const callCamundaHttp = (job: Job): Effect.Effect<CamundaOutcome> =>
  Effect.tryPromise(async (): Promise<CamundaOutcome> => {
    const variables = job.variables
    const url = text(input(variables, "url"))
    if (url === undefined) return { ok: false, message: "the REST connector needs a url input", final: true }
    const method = (text(input(variables, "method")) ?? "GET").toUpperCase()
    const target = new URL(url)
    const query = input(variables, "queryParameters")
    if (isRecord(query)) {
      for (const [key, value] of Object.entries(query)) target.searchParams.set(key, String(value))
    }
    const headers: Record<string, string> = { accept: "application/json" }
    const given = input(variables, "headers")
    if (isRecord(given)) {
      for (const [key, value] of Object.entries(given)) headers[key.toLowerCase()] = String(value)
    }
    const authType = (text(input(variables, "authentication.type")) ?? "noAuth").toLowerCase()
    if (authType === "bearer") {
      headers["authorization"] = `Bearer ${text(input(variables, "authentication.token")) ?? ""}`
    }
    if (authType === "basic") {
      const user = text(input(variables, "authentication.username")) ?? ""
      const password = text(input(variables, "authentication.password")) ?? ""
      headers["authorization"] = `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`
    }
    const body = input(variables, "body")
    const withBody = method !== "GET" && method !== "DELETE" && body !== undefined && body !== null
    if (withBody && headers["content-type"] === undefined) headers["content-type"] = "application/json"
    const seconds = Number(
      input(variables, "readTimeoutInSeconds") ?? input(variables, "connectionTimeoutInSeconds") ?? 20
    )
    const response = await fetch(target, {
      method,
      headers,
      ...(withBody ? { body: typeof body === "string" ? body : JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout((Number.isFinite(seconds) && seconds > 0 ? seconds : 20) * 1000)
    })
    const raw = await response.text()
    let parsed: unknown = raw
    try {
      parsed = raw === "" ? null : JSON.parse(raw)
    } catch {
      // not JSON: kept as text
    }
    const answer = { status: response.status, headers: Object.fromEntries(response.headers.entries()), body: parsed }
    const error = response.ok
      ? null
      : { code: String(response.status), message: `${method} ${target} answered ${response.status}` }
    const mapped = feel(job.customHeaders["errorExpression"], { response: answer, error })
    if (isRecord(mapped) && typeof mapped["code"] === "string") {
      return { ok: false, bpmnError: { code: mapped["code"], message: text(mapped["message"]) ?? "" } }
    }
    if (error !== null) {
      return {
        ok: false,
        message: error.message,
        final: response.status >= 400 && response.status < 500 && response.status !== 429
      }
    }
    const result: Record<string, unknown> = {}
    const resultVariable = job.customHeaders["resultVariable"]
    if (resultVariable !== undefined && resultVariable !== "") result[resultVariable] = answer
    const expression = feel(job.customHeaders["resultExpression"], { response: answer })
    if (isRecord(expression)) Object.assign(result, expression)
    return { ok: true, variables: result }
  }).pipe(
    Effect.catch((error) =>
      Effect.succeed<CamundaOutcome>({
        ok: false,
        message: `request failed: ${error.cause instanceof Error ? error.cause.message : String(error.cause)}`,
        final: false
      })
    ),
    Effect.withSpan("flowcore.connector.call", {
      attributes: { "flowcore.job.id": job.id, "flowcore.connector": CAMUNDA_HTTP_JSON }
    })
  )
