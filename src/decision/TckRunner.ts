/**
 * The DMN TCK runner: reads a TCK folder (model + *-test-*.xml per testCases.xsd), evaluates every test case through
 * the same import and evaluation code the service uses, and counts results.
 *
 * What is counted: one check per `resultNode` (as the TCK's own runners report), passed when the actual value equals
 * the expected value (numbers as decimals, temporal values by their ISO text, lists item by item, components by name),
 * or when `errorResult="true"` and the evaluation failed or gave null. A resultNode is "errored" when the model could
 * not be imported or evaluation threw a defect.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import sax from "sax"
import { evaluateDecision, evaluateService } from "./DecisionEvaluation.ts"
import { type DecisionModel, importDmnXml, resolveImports } from "./DecisionModel.ts"
import { toJson } from "./FeelJson.ts"
import { FeelNumber } from "./FeelNumber.ts"
import { callFeelinBuiltin } from "./FeelTemporal.ts"
import { isContext } from "./FeelValues.ts"

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

const temporal = (fn: string, s: string): unknown => callFeelinBuiltin(fn, [s])

const child = (n: XNode, name: string): XNode | undefined => n.children.find((c) => c.name === name)
const kids = (n: XNode, name: string): XNode[] => n.children.filter((c) => c.name === name)

/** How many fraction digits the kit's text gives a number ("-0.88796890": 8, where the value's own scale is 7). */
const statedScale = new WeakMap<FeelNumber, number>()

/** A test value: the `value` / `component` / `list` content of a valueType, as a FEEL value. */
const readValue = (n: XNode): unknown => {
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
      case "float": {
        const n = FeelNumber.parse(s)
        const fraction = /\.(\d+)\s*$/.exec(s)
        if (n !== null && fraction !== null) statedScale.set(n, fraction[1]!.length)
        return n
      }
      case "boolean":
        return s.trim() === "true"
      case "date":
        return temporal("date", s.trim())
      case "time":
        return temporal("time", s.trim())
      case "dateTime":
        return temporal("date and time", s.trim())
      case "duration":
        return temporal("duration", s.trim())
      default:
        return s
    }
  }
  const list = child(n, "list")
  if (list !== undefined) return kids(list, "item").map(readValue)
  const components = kids(n, "component")
  if (components.length > 0) return Object.fromEntries(components.map((c) => [c.attrs["name"] ?? "", readValue(c)]))
  return null
}

/**
 * Whether an expected number matches: decimal equality. The kit states results of transcendental functions (exp,
 * log, cos, ...) to 8 or more fraction digits, rounded or truncated; such an expected value matches an actual one
 * that is closer to it than one unit in its last stated digit.
 */
const equalNumbers = (actual: FeelNumber, expected: FeelNumber): boolean => {
  if (actual.equals(expected)) return true
  const scale = statedScale.get(expected) ?? -expected.exponent
  return scale >= 8 && actual.exponent < expected.exponent &&
    actual.subtract(expected).abs().compare(FeelNumber.of(1n, -scale)) < 0
}

export const equalValues = (actual: unknown, expected: unknown): boolean => {
  if (expected === null) return actual === null
  if (expected instanceof FeelNumber) return actual instanceof FeelNumber && equalNumbers(actual, expected)
  if (Array.isArray(expected)) {
    return Array.isArray(actual) && actual.length === expected.length &&
      expected.every((e, i) => equalValues(actual[i], e))
  }
  if (isContext(expected)) {
    if (!isContext(actual)) return false
    return Object.entries(expected).every(([k, v]) => equalValues(actual[k] ?? null, v))
  }
  return JSON.stringify(toJson(actual)) === JSON.stringify(toJson(expected))
}

export interface CheckOutcome {
  readonly folder: string
  readonly testCase: string
  readonly resultNode: string
  readonly status: "passed" | "failed" | "errored"
  readonly reason?: string
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
        checks: kids(tc, "resultNode").map((rn) => {
          const name = rn.attrs["name"] ?? ""
          const isService = tc.attrs["type"] === "decisionService" || rn.attrs["type"] === "decisionService"
          return {
            resultNode: name,
            isService,
            target: isService ? (tc.attrs["invocableName"] ?? name) : name,
            expectError: rn.attrs["errorResult"] === "true",
            expected: readValue(child(rn, "expected") ?? { name: "", attrs: {}, children: [], text: "" })
          }
        })
      })
    }
  }
  return { models, cases }
}

const show = (v: unknown): string =>
  JSON.stringify(v, (_, x: unknown) => (x instanceof FeelNumber ? `#${x.toString()}` : x))

/** Whether an evaluation's outcome (an error, or a FEEL value) passes the check. */
export const judge = (
  check: TckCheck,
  outcome: { readonly error: string } | { readonly value: unknown }
): { readonly status: "passed" | "failed"; readonly reason?: string } => {
  if ("error" in outcome) {
    return check.expectError ? { status: "passed" } : { status: "failed", reason: outcome.error }
  }
  const actual = outcome.value
  if (check.expectError) {
    return actual === null
      ? { status: "passed" }
      : { status: "failed", reason: `expected an error, got ${show(toJson(actual))}` }
  }
  return equalValues(actual, check.expected)
    ? { status: "passed" }
    : { status: "failed", reason: `expected ${show(check.expected)}, got ${show(actual)}` }
}

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
      try {
        const r = check.isService
          ? evaluateService(model, check.target, tc.variables)
          : evaluateDecision(model, check.target, tc.variables)
        out.push({
          ...base,
          ...judge(check, r._tag === "DecisionError" ? { error: `${r.code}: ${r.message}` } : { value: r.result })
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
