// The DMN TCK through the REST API, as a client would use it: each folder gets a fresh tenant; its models are
// imported with POST /decisions/import (in file order: imports resolve at evaluation); every test case is evaluated
// by decision (or service) name with POST /decision-models/{id}/decisions/{name}/evaluate?typed=true (or
// /services/{name}/evaluate). Inputs go as JSON: strings, booleans, lists and contexts plain, dates, times,
// durations, ranges and numbers a JSON number cannot hold exactly in the typed form (docs/decisions.md); typed
// results are read here (not by the engine's parser) and compared with the kit's text as in-process. A 4xx answer is an evaluation
// error (what errorResult checks expect); anything else unexpected is "errored".
import { SignJWT } from "jose"
import { randomUUID } from "node:crypto"
import { FeelNumber } from "../../src/decision/feel/FeelNumber.ts"
import { ReportedTemporal } from "../../src/decision/tck/TckExpected.ts"
import { type CheckOutcome, judge, readTckFolder, serviceOutput } from "../../src/decision/tck/TckRunner.ts"
import { toTypedJson, TYPE_MEMBER } from "../../src/decision/TypedJson.ts"
import { TEST_ISSUER, TEST_JWT_SECRET, type TestApp } from "./TestApp.ts"

const secret = new TextEncoder().encode(TEST_JWT_SECRET)

const tokenOf = (app: TestApp, tenantId: string): Promise<string> => {
  const now = Math.floor(app.clock.nowMillis() / 1000)
  return new SignJWT({ tenantId, roles: ["PROCESS_OWNER"] })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject("dmn-tck")
    .setIssuer(TEST_ISSUER)
    .setIssuedAt(now)
    .setExpirationTime(now + 3600)
    .sign(secret)
}

interface Answer {
  readonly status: number
  readonly body: any
}

const call = async (
  app: TestApp,
  token: string,
  path: string,
  body: string,
  contentType = "application/json"
): Promise<Answer> => {
  const response = await fetch(`${app.baseUrl}/api/v1${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": contentType },
    body
  })
  const text = await response.text()
  try {
    return { status: response.status, body: JSON.parse(text) }
  } catch {
    return { status: response.status, body: text }
  }
}

/** The JSON a client sends for a FEEL value. */
const inputJson = (value: unknown): unknown => toTypedJson(value)

const TEMPORAL_KINDS = new Set([
  "date",
  "time",
  "date and time",
  "days and time duration",
  "years and months duration"
])

/**
 * A typed JSON result as the judge compares it, read here rather than by the engine's own parser: numbers as
 * decimals (a JSON number by its text, a typed number by its digits), dates, times and durations as the kind and text
 * received (ReportedTemporal), ranges as their text, lists and contexts member by member.
 */
const resultValue = (json: unknown): unknown => {
  if (typeof json === "number") return FeelNumber.parse(String(json))
  if (Array.isArray(json)) return json.map(resultValue)
  if (typeof json === "object" && json !== null) {
    const record = json as Record<string, unknown>
    const type = record[TYPE_MEMBER]
    if (typeof type === "string" && typeof record["value"] === "string" && Object.keys(record).length === 2) {
      if (type === "number") {
        const n = FeelNumber.parse(record["value"])
        if (n === null) throw new Error(`unreadable number ${record["value"]}`)
        return n
      }
      if (TEMPORAL_KINDS.has(type)) return new ReportedTemporal(type, record["value"])
      if (type === "range") return record["value"]
      throw new Error(`unknown typed result ${JSON.stringify(json)}`)
    }
    return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, resultValue(v)]))
  }
  return json
}

const describeError = (answer: Answer): string =>
  `${answer.status} ${answer.body?.errorCode ?? ""}: ${answer.body?.message ?? JSON.stringify(answer.body)}`

/** A folder runner for runTck that evaluates through the app's REST API. */
export const httpFolderRunner = (app: TestApp) => async (dir: string, folder: string): Promise<CheckOutcome[]> => {
  const tck = readTckFolder(dir)
  const token = await tokenOf(app, randomUUID())
  const models = new Map<string, { readonly id: string; readonly services: Array<any> } | { readonly error: string }>()
  for (const { file, xml } of tck.models) {
    const answer = await call(app, token, "/decisions/import", xml, "application/xml")
    if (answer.status !== 201) {
      models.set(file, { error: describeError(answer) })
      continue
    }
    // the model's decision services with their output decisions, as a client reads them
    const read = await fetch(`${app.baseUrl}/api/v1/decision-models/${answer.body.data.id}`, {
      headers: { authorization: `Bearer ${token}` }
    })
    const services = (await read.json() as any).data?.decisionServices ?? []
    models.set(file, { id: answer.body.data.id, services })
  }
  const out: CheckOutcome[] = []
  for (const tc of tck.cases) {
    const model = models.get(tc.modelName) ?? [...models.values()][0]
    const variables = JSON.stringify({
      variables: Object.fromEntries(Object.entries(tc.variables).map(([k, v]) => [k, inputJson(v)]))
    })
    for (const check of tc.checks) {
      const base = { folder, testCase: tc.id, resultNode: check.resultNode }
      if (model === undefined || "error" in model) {
        out.push({ ...base, status: "errored", reason: `import failed: ${model?.error ?? "no model"}` })
        continue
      }
      if (tc.unreadable.length > 0) {
        out.push({ ...base, status: "errored", reason: `inputs not readable: ${tc.unreadable.join(", ")}` })
        continue
      }
      try {
        const kind = check.isService ? "services" : "decisions"
        const answer = await call(
          app,
          token,
          `/decision-models/${model.id}/${kind}/${encodeURIComponent(check.target)}/evaluate?typed=true`,
          variables
        )
        if (answer.status >= 500 || answer.status === 401 || answer.status === 403) {
          out.push({ ...base, status: "errored", reason: describeError(answer) })
        } else {
          const service = check.isService
            ? model.services.find((s) => s.key === check.target || s.id === check.target || s.name === check.target)
            : undefined
          const outcome = answer.status === 200
            ? {
              value: serviceOutput(
                resultValue(answer.body.data.result),
                check.resultNode,
                service?.outputDecisions?.length ?? 0
              )
            }
            : { error: describeError(answer) }
          out.push({ ...base, ...judge(check, outcome) })
        }
      } catch (error) {
        out.push({ ...base, status: "errored", reason: String(error) })
      }
    }
  }
  return out
}
