/**
 * The DMN TCK runner: reads a TCK folder (model + *-test-*.xml per testCases.xsd), evaluates every test case through
 * the same import and evaluation code the service uses, and counts results.
 *
 * What is counted: one check per `resultNode` (as the TCK's own runners report), passed when the actual value equals
 * the expected value as the kit writes it (see equalValues; numbers exactly, or within the kit runners' tolerance,
 * which the report counts apart), or when `errorResult="true"` and the evaluation failed or gave null. A resultNode
 * is "errored" when the model could not be imported or evaluation threw a defect.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import sax from "sax"
import { evaluateDecision, evaluateService } from "../DecisionEvaluation.ts"
import { type DecisionModel, resolveImports } from "../DecisionModel.ts"
import { importDmnXml } from "../DmnXmlImport.ts"
import { FeelNumber } from "../feel/FeelNumber.ts"
import { isTemporal, temporalFromText, temporalText } from "../feel/FeelTemporal.ts"
import { isContext } from "../feel/FeelValues.ts"
import { ExpectedTemporal, matchesExpectedTemporal } from "./TckExpected.ts"

interface XNode {
  readonly name: string
  readonly attrs: Record<string, string>
  readonly children: XNode[]
  text: string
}

const parseXml = (xml: string): XNode => {
  const parser = sax.parser(true, { trim: false })
  const root: XNode = { name: "#root", attrs: {}, children: [], text: "" }
  const stack: XNode[] = [root]
  parser.onopentag = (tag) => {
    const node: XNode = {
      name: tag.name.replace(/^.*:/, ""),
      attrs: tag.attributes as Record<string, string>,
      children: [],
      text: ""
    }
    stack[stack.length - 1]?.children.push(node)
    stack.push(node)
  }
  parser.onclosetag = () => void stack.pop()
  parser.ontext = (t) => {
    const top = stack[stack.length - 1]
    if (top) top.text += t
  }
  parser.oncdata = parser.ontext
  parser.write(xml).close()
  return root
}

const temporal = (fn: string, s: string): unknown => temporalFromText(fn, s)

const child = (n: XNode, name: string): XNode | undefined => n.children.find((c) => c.name === name)
const kids = (n: XNode, name: string): XNode[] => n.children.filter((c) => c.name === name)

/** A value of the kit that does not read as its xsi:type says: as an expected value it matches nothing. */
export class Unreadable {
  readonly text: string
  constructor(text: string) {
    this.text = text
  }
}

const readable = (v: unknown, text: string): unknown => (v === null ? new Unreadable(text) : v)

/** Whether a value read from the kit holds an Unreadable (deeply). */
const hasUnreadable = (v: unknown): boolean =>
  v instanceof Unreadable ||
  (Array.isArray(v) ? v.some(hasUnreadable) : isContext(v) && Object.values(v).some(hasUnreadable))

/**
 * A test value: the `value` / `component` / `list` content of a valueType, as a FEEL value (an input) or as the kit
 * states it (an expected value: temporal values stay text, see TckExpected.ts). A number, boolean or temporal text
 * that does not read is Unreadable, never null.
 */
const readValue = (n: XNode, expected = false): unknown => {
  const value = child(n, "value")
  if (value !== undefined) {
    if (value.attrs["xsi:nil"] === "true") return null
    const t = (value.attrs["xsi:type"] ?? "").replace(/^.*:/, "")
    const s = value.text
    switch (t) {
      case "decimal":
      case "double":
      case "int":
      case "integer":
      case "long":
      case "float":
        return readable(FeelNumber.parse(s), s)
      case "boolean":
        return ["true", "1"].includes(s.trim()) ? true : ["false", "0"].includes(s.trim()) ? false : new Unreadable(s)
      case "date":
      case "time":
      case "dateTime":
      case "duration":
        return expected
          ? new ExpectedTemporal(t, s.trim())
          : readable(temporal(t === "dateTime" ? "date and time" : t, s.trim()), s)
      default:
        return s
    }
  }
  const list = child(n, "list")
  if (list !== undefined) return kids(list, "item").map((item) => readValue(item, expected))
  const components = kids(n, "component")
  if (components.length > 0) {
    return Object.fromEntries(components.map((c) => [c.attrs["name"] ?? "", readValue(c, expected)]))
  }
  return null
}

/**
 * The kit's own runners (Drools, jDMN, QuantumDMN in dmn-tck/tck) take two numbers as equal when they differ by less
 * than this: the kit's expected values were computed by engines of their time, some in binary floating point (the
 * loan payments of 0003, 0004, 0008, 0009, 0014 agree with exact decimal128 arithmetic to 12-15 digits only), and
 * results of exp, log, sqrt or Java's Math are stated to 8 or more digits.
 */
export const NUMBER_TOLERANCE: FeelNumber = FeelNumber.of(1n, -8)

/**
 * How numbers are compared: `exact` as decimals; `digits` also where the kit states fewer digits than ours and ours,
 * rounded half-even to the kit's decimal places, is the kit's value (the kit writes exp(4) as 54.59815003: the digits
 * it states are all ours); `tolerant` also within NUMBER_TOLERANCE (the kit's value differs in a digit it states).
 * Each is more lenient than the one before: `digits` passes only numbers `tolerant` passes too.
 */
export type NumberMatch = "exact" | "digits" | "tolerant"

const numbersMatch = (actual: FeelNumber, expected: FeelNumber, match: NumberMatch): boolean => {
  if (actual.equals(expected)) return true
  if (match === "exact" || actual.subtract(expected).abs().compare(NUMBER_TOLERANCE) >= 0) return false
  return match === "tolerant" ||
    (expected.exponent < 0 && actual.setScale(-expected.exponent, "HALF_EVEN").equals(expected))
}

/**
 * Whether a result equals the expected value: numbers as decimals (see NumberMatch), temporal values by the kit's text
 * (TckExpected.ts), strings and booleans as they are, lists item by item, contexts by the same names member by
 * member.
 */
export const equalValues = (actual: unknown, expected: unknown, match: NumberMatch = "exact"): boolean => {
  if (expected === null) return actual === null
  if (expected instanceof FeelNumber) return actual instanceof FeelNumber && numbersMatch(actual, expected, match)
  if (expected instanceof ExpectedTemporal) return matchesExpectedTemporal(actual, expected)
  if (Array.isArray(expected)) {
    return Array.isArray(actual) && actual.length === expected.length &&
      expected.every((e, i) => equalValues(actual[i], e, match))
  }
  if (isContext(expected)) {
    if (!isContext(actual)) return false
    const names = Object.keys(expected)
    return names.length === Object.keys(actual).length &&
      names.every((k) => k in actual && equalValues(actual[k], expected[k], match))
  }
  if (typeof expected === "string" || typeof expected === "boolean") return actual === expected
  return false
}

export interface CheckOutcome {
  readonly folder: string
  readonly testCase: string
  readonly resultNode: string
  readonly status: "passed" | "failed" | "errored"
  readonly reason?: string
  /** Passed only within the kit runners' number tolerance (NUMBER_TOLERANCE): the kit's value differs from ours in a
   * digit it states (its value was computed in binary floating point, or otherwise than decimal128). */
  readonly approximate?: boolean
  /** Passed with every digit the kit states: the kit writes the number rounded to fewer digits than ours. */
  readonly rounded?: boolean
}

export interface Totals {
  passed: number
  failed: number
  errored: number
}

/** One result check of a test case: a decision (or decision service) and what it should give. */
export interface TckCheck {
  readonly resultNode: string
  readonly isService: boolean
  /** The decision's or service's name. */
  readonly target: string
  readonly expectError: boolean
  readonly expected: unknown
}

export interface TckTestCase {
  readonly id: string
  readonly modelName: string
  /** Input values by name, as FEEL values. */
  readonly variables: Record<string, unknown>
  /** Inputs whose value the engine cannot read (a date it cannot hold, ...): the case's checks are errored. */
  readonly unreadable: ReadonlyArray<string>
  readonly checks: ReadonlyArray<TckCheck>
}

export interface TckFolder {
  readonly models: ReadonlyArray<{ readonly file: string; readonly xml: string }>
  readonly cases: ReadonlyArray<TckTestCase>
}

/** A TCK folder's models (*.dmn) and test cases (*-test-N.xml). */
export const readTckFolder = (dir: string): TckFolder => {
  const files = fs.readdirSync(dir)
  const models = files.filter((f) => f.endsWith(".dmn")).map((file) => ({
    file,
    xml: fs.readFileSync(path.join(dir, file), "utf8")
  }))
  const cases: TckTestCase[] = []
  for (const tf of files.filter((f) => /-test-\d+\.xml$/.test(f))) {
    const root = child(parseXml(fs.readFileSync(path.join(dir, tf), "utf8")), "testCases")
    if (root === undefined) continue
    const modelName = child(root, "modelName")?.text.trim() ?? ""
    for (const tc of kids(root, "testCase")) {
      const variables: Record<string, unknown> = {}
      for (const input of kids(tc, "inputNode")) variables[input.attrs["name"] ?? ""] = readValue(input)
      cases.push({
        id: tc.attrs["id"] ?? "?",
        modelName,
        variables,
        unreadable: Object.keys(variables).filter((k) => hasUnreadable(variables[k])),
        checks: kids(tc, "resultNode").map((rn) => {
          const name = rn.attrs["name"] ?? ""
          const isService = tc.attrs["type"] === "decisionService" || rn.attrs["type"] === "decisionService"
          return {
            resultNode: name,
            isService,
            target: isService ? (tc.attrs["invocableName"] ?? name) : name,
            expectError: rn.attrs["errorResult"] === "true",
            expected: readValue(child(rn, "expected") ?? { name: "", attrs: {}, children: [], text: "" }, true)
          }
        })
      })
    }
  }
  return { models, cases }
}

/** A value for a failure reason: numbers with all their digits, temporal values by their text. */
const show = (v: unknown): string => {
  if (v instanceof FeelNumber) return v.toString()
  if (isTemporal(v)) return JSON.stringify(temporalText(v))
  if (v instanceof ExpectedTemporal || v instanceof Unreadable) return JSON.stringify(v.text)
  if (Array.isArray(v)) return `[${v.map(show).join(",")}]`
  if (isContext(v)) return `{${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}:${show(x)}`).join(",")}}`
  return JSON.stringify(v) ?? String(v)
}

/** Whether an evaluation's outcome (an error, or a FEEL value) passes the check. */
export const judge = (
  check: TckCheck,
  outcome: { readonly error: string } | { readonly value: unknown }
): {
  readonly status: "passed" | "failed"
  readonly reason?: string
  readonly approximate?: boolean
  readonly rounded?: boolean
} => {
  if ("error" in outcome) {
    return check.expectError ? { status: "passed" } : { status: "failed", reason: outcome.error }
  }
  const actual = outcome.value
  if (check.expectError) {
    return actual === null
      ? { status: "passed" }
      : { status: "failed", reason: `expected an error, got ${show(actual)}` }
  }
  if (equalValues(actual, check.expected)) return { status: "passed" }
  const reason = `expected ${show(check.expected)}, got ${show(actual)}`
  if (equalValues(actual, check.expected, "digits")) return { status: "passed", rounded: true, reason }
  return equalValues(actual, check.expected, "tolerant")
    ? { status: "passed", approximate: true, reason }
    : { status: "failed", reason }
}

/**
 * A decision service test case names an output decision in each resultNode (the kit's runners check that decision's
 * result): with several output decisions, the service's result is a context and the check is its member of that name.
 */
export const serviceOutput = (result: unknown, resultNode: string, outputDecisions: number): unknown =>
  outputDecisions > 1 && isContext(result) ? (result[resultNode] ?? null) : result

const runFolder = async (dir: string, folder: string): Promise<CheckOutcome[]> => {
  const tck = readTckFolder(dir)
  const out: CheckOutcome[] = []
  const models = new Map<string, DecisionModel | string>()
  for (const { file, xml } of tck.models) {
    const r = await importDmnXml(xml)
    models.set(file, r.ok ? r.value : r.error.map((p) => p.message).join("; "))
  }
  // Models of one folder may import each other (by namespace).
  const loaded = [...models.values()].filter((m): m is DecisionModel => typeof m !== "string")
  for (const [f, m] of models) if (typeof m !== "string") models.set(f, resolveImports(m, loaded))
  for (const tc of tck.cases) {
    const model = models.get(tc.modelName) ?? [...models.values()][0]
    for (const check of tc.checks) {
      const base = { folder, testCase: tc.id, resultNode: check.resultNode }
      if (model === undefined || typeof model === "string") {
        out.push({ ...base, status: "errored", reason: `import failed: ${model ?? "no model"}` })
        continue
      }
      if (tc.unreadable.length > 0) {
        out.push({ ...base, status: "errored", reason: `inputs not readable: ${tc.unreadable.join(", ")}` })
        continue
      }
      try {
        const r = check.isService
          ? evaluateService(model, check.target, tc.variables)
          : evaluateDecision(model, check.target, tc.variables)
        const service = check.isService
          ? model.decisionServices.find((s) => s.id === check.target || s.name === check.target)
          : undefined
        const value = r._tag === "DecisionError"
          ? undefined
          : serviceOutput(r.result, check.resultNode, service?.outputDecisions.length ?? 0)
        out.push({
          ...base,
          ...judge(check, r._tag === "DecisionError" ? { error: `${r.code}: ${r.message}` } : { value })
        })
      } catch (error) {
        out.push({ ...base, status: "errored", reason: String(error) })
      }
    }
  }
  return out
}

export interface TckReport {
  readonly outcomes: ReadonlyArray<CheckOutcome>
  readonly total: Totals
  readonly byLevel: Record<string, Totals>
}

export const count = (outcomes: ReadonlyArray<CheckOutcome>): Totals => ({
  passed: outcomes.filter((o) => o.status === "passed").length,
  failed: outcomes.filter((o) => o.status === "failed").length,
  errored: outcomes.filter((o) => o.status === "errored").length
})

/** Runs every folder of the kit's compliance levels through `runFolder` (by default, in-process evaluation). */
export const runTck = async (
  root: string,
  run: (dir: string, folder: string) => Promise<ReadonlyArray<CheckOutcome>> = runFolder
): Promise<TckReport> => {
  const outcomes: CheckOutcome[] = []
  const byLevel: Record<string, Totals> = {}
  for (const level of fs.readdirSync(root).filter((d) => d.startsWith("compliance-level-")).sort()) {
    const levelOutcomes: CheckOutcome[] = []
    for (const folder of fs.readdirSync(path.join(root, level)).sort()) {
      const dir = path.join(root, level, folder)
      if (!fs.statSync(dir).isDirectory()) continue
      levelOutcomes.push(...(await run(dir, `${level}/${folder}`)))
    }
    byLevel[level] = count(levelOutcomes)
    outcomes.push(...levelOutcomes)
  }
  return { outcomes, total: count(outcomes), byLevel }
}
