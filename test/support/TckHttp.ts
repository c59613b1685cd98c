// The DMN TCK through the REST API, as a client would use it: each folder gets a fresh tenant; its models are
// imported with POST /decisions/import (in file order: imports resolve at evaluation); every test case is evaluated
// by decision (or service) name with POST /decision-models/{id}/decisions/{name}/evaluate?typed=true (or
// /services/{name}/evaluate). Inputs go as JSON: strings, booleans, lists and contexts plain, dates, times,
// durations, ranges and numbers a JSON number cannot hold exactly in the typed form (docs/decisions.md); typed
// results are read back to FEEL values and compared as the in-process runner does. A 4xx answer is an evaluation
// error (what errorResult checks expect); anything else unexpected is "errored".
import { SignJWT } from "jose"
import { randomUUID } from "node:crypto"
import { type CheckOutcome, judge, readTckFolder } from "../../src/decision/TckRunner.ts"
import { fromJsonTyped, type JsonProblem, toTypedJson } from "../../src/decision/TypedJson.ts"
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

/** A typed JSON result as a FEEL value. */
const resultValue = (json: unknown): unknown => {
  const problems: JsonProblem[] = []
  const value = fromJsonTyped(json, undefined, () => undefined, "result", problems)
  if (problems.length > 0) throw new Error(`unreadable result: ${JSON.stringify(problems)}`)
  return value
}

const describeError = (answer: Answer): string =>
  `${answer.status} ${answer.body?.errorCode ?? ""}: ${answer.body?.message ?? JSON.stringify(answer.body)}`

/** A folder runner for runTck that evaluates through the app's REST API. */
export const httpFolderRunner = (app: TestApp) => async (dir: string, folder: string): Promise<CheckOutcome[]> => {
  const tck = readTckFolder(dir)
  const token = await tokenOf(app, randomUUID())
  const models = new Map<string, { readonly id: string } | { readonly error: string }>()
  for (const { file, xml } of tck.models) {
    const answer = await call(app, token, "/decisions/import", xml, "application/xml")
    models.set(file, answer.status === 201 ? { id: answer.body.data.id } : { error: describeError(answer) })
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
          const outcome = answer.status === 200
            ? { value: resultValue(answer.body.data.result) }
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
