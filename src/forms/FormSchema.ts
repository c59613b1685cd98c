// form-js forms, the pure part: checking a form (what the service cannot handle is an error — unknown component
// types, input fields without a key, duplicate keys, invalid FEEL — and schema findings real tools get away with are
// warnings), running it against data (the playground), the component diff between versions, and labels for a locale.
import { budgeted, evaluateFeel } from "../decision/feel/Feel.ts"
import { withTotalFeelTimeOr } from "../decision/feel/FeelBudget.ts"
import { safePattern } from "../decision/feel/FeelRegex.ts"

export const COMPONENT_TYPES = [
  "textfield",
  "textarea",
  "number",
  "datetime",
  "expression",
  "filepicker",
  "checkbox",
  "checklist",
  "radio",
  "select",
  "taglist",
  "text",
  "image",
  "table",
  "html",
  "documentPreview",
  "spacer",
  "separator",
  "group",
  "dynamiclist",
  "iframe",
  "button"
] as const

/** Components that hold a value under their key. */
const INPUT_TYPES: ReadonlySet<string> = new Set([
  "checkbox",
  "checklist",
  "datetime",
  "number",
  "radio",
  "select",
  "taglist",
  "textfield",
  "textarea",
  "expression",
  "filepicker"
])
const CONTAINERS: ReadonlySet<string> = new Set(["group", "dynamiclist"])

export interface FormProblem {
  readonly path: string
  readonly message: string
}

type Json = Record<string, unknown>
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value)

export interface FlatComponent {
  readonly path: string
  readonly component: Json
}

/** Every component, depth first, with its JSON path (groups and dynamic lists nest components). */
export const flatten = (form: unknown): ReadonlyArray<FlatComponent> => {
  const out: Array<FlatComponent> = []
  const walk = (components: unknown, path: string) => {
    if (!Array.isArray(components)) return
    components.forEach((component, index) => {
      const at = `${path}[${index}]`
      if (!isObject(component)) return
      out.push({ path: at, component })
      if (CONTAINERS.has(String(component["type"]))) walk(component["components"], `${at}.components`)
    })
  }
  walk(isObject(form) ? form["components"] : undefined, "components")
  return out
}

/** A form-js pattern (JavaScript flavour) matched against a whole value in linear time: true, false, or why it cannot be. */
const matchesWhole = (pattern: string, value: string): boolean | string => {
  const compiled = safePattern(`^(?:${pattern})$`, "")
  if (compiled === null) return "has a pattern that is not a valid regular expression"
  const outcome = budgeted(() => compiled.test(value))
  return typeof outcome === "boolean" ? outcome : `cannot be checked against its pattern: ${outcome.message}`
}

const patternProblem = (pattern: string): string | null => {
  const checked = matchesWhole(pattern, "")
  return typeof checked === "string"
    ? checked.replace(/^has a pattern that is|^cannot be checked against its pattern:/, "is").trim()
    : null
}

const feelProblem = (text: unknown): string | null => {
  if (typeof text !== "string" || !text.trimStart().startsWith("=")) return null
  const result = evaluateFeel(text.trimStart().slice(1), {})
  return result._tag === "FeelSyntaxError" ? `FEEL syntax error at ${result.position.from}: ${result.message}` : null
}

/**
 * Time a form's expressions may take together, to check it or to run it: each has its own FEEL budget, but a form of
 * a hundred components with a costly `conditional.hide` each would otherwise hold the node for as many seconds.
 */
const FORM_FEEL_MILLIS = 2_000
const TOO_SLOW = `the form's expressions take longer than ${FORM_FEEL_MILLIS} ms together`

/** `work` within the form's FEEL time, else what `over` says. */
const withinFormTime = <A>(work: () => A, over: () => A): A => withTotalFeelTimeOr(FORM_FEEL_MILLIS, work, over)

type FormCheck = { readonly errors: ReadonlyArray<FormProblem>; readonly warnings: ReadonlyArray<FormProblem> }

/** The form's errors and warnings; a form whose expressions take too long to check is an error. */
export const checkForm = (form: unknown): FormCheck =>
  withinFormTime(
    () => checkFormNow(form),
    () => ({ errors: [{ path: "components", message: TOO_SLOW }], warnings: [] })
  )

const checkFormNow = (form: unknown): FormCheck => {
  const errors: Array<FormProblem> = []
  const warnings: Array<FormProblem> = []
  if (!isObject(form)) {
    return {
      errors: [{ path: "", message: "a form is a JSON object { type: \"default\", components: [...] }" }],
      warnings
    }
  }
  if (!Array.isArray(form["components"])) errors.push({ path: "components", message: "is required and must be a list" })
  if (form["type"] !== "default") warnings.push({ path: "type", message: "form-js forms have type \"default\"" })
  const version = form["schemaVersion"]
  if (
    version !== undefined && (typeof version !== "number" || !Number.isInteger(version) || version < 1 || version > 19)
  ) {
    warnings.push({ path: "schemaVersion", message: "must be an integer from 1 to 19" })
  }
  const keys = new Map<string, string>()
  for (const { path, component } of flatten(form)) {
    const type = component["type"]
    if (typeof type !== "string" || !(COMPONENT_TYPES as ReadonlyArray<string>).includes(type)) {
      errors.push({ path: `${path}.type`, message: `unknown component type ${JSON.stringify(type)}` })
      continue
    }
    if (INPUT_TYPES.has(type)) {
      const key = component["key"]
      if (typeof key !== "string" || key.trim() === "") {
        errors.push({ path: `${path}.key`, message: `a ${type} field needs a key` })
      } else {
        // Fields inside a dynamic list repeat per item: their keys are scoped to the list.
        const scope = path.includes(".components") ? path.slice(0, path.lastIndexOf(".components")) : ""
        const scoped = `${scope}/${key}`
        const first = keys.get(scoped)
        if (first !== undefined) errors.push({ path: `${path}.key`, message: `key ${key} is already used by ${first}` })
        else keys.set(scoped, path)
      }
    }
    if (type === "text" && component["label"] !== undefined) {
      warnings.push({ path: `${path}.label`, message: "text components have no label in the form-js schema" })
    }
    const conditional = component["conditional"]
    const feelTexts: Array<[string, unknown]> = [
      [`${path}.conditional.hide`, isObject(conditional) ? conditional["hide"] : undefined],
      [`${path}.expression`, component["expression"]],
      [`${path}.label`, component["label"]],
      [`${path}.readonly`, component["readonly"]]
    ]
    for (const [at, text] of feelTexts) {
      const problem = feelProblem(text)
      if (problem !== null) errors.push({ path: at, message: problem })
    }
    const validate = component["validate"]
    if (isObject(validate) && typeof validate["pattern"] === "string") {
      const problem = patternProblem(validate["pattern"])
      if (problem !== null) errors.push({ path: `${path}.validate.pattern`, message: problem })
    }
  }
  return { errors, warnings }
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/**
 * Runs the form against data: which components show (conditional.hide), and what their validations say; a form whose
 * expressions take too long is not valid, saying so.
 */
export const runForm = (form: unknown, data: Readonly<Record<string, unknown>>): ReturnType<typeof runFormNow> =>
  withinFormTime(
    () => runFormNow(form, data),
    () => ({ valid: false, errors: [{ key: "", message: TOO_SLOW }], visibleComponents: [], values: {} })
  )

const runFormNow = (form: unknown, data: Readonly<Record<string, unknown>>) => {
  const errors: Array<{ key: string; message: string }> = []
  const visibleComponents: Array<string> = []
  const values: Record<string, unknown> = {}
  const hiddenPaths: Array<string> = []
  for (const { path, component } of flatten(form)) {
    if (hiddenPaths.some((hidden) => path.startsWith(`${hidden}.`))) continue
    const conditional = component["conditional"]
    const hide = isObject(conditional) ? conditional["hide"] : undefined
    if (typeof hide === "string" && hide.trimStart().startsWith("=")) {
      const result = evaluateFeel(hide.trimStart().slice(1), data)
      if (result._tag === "FeelOk" && result.value === true) {
        hiddenPaths.push(path)
        continue
      }
    }
    const key = typeof component["key"] === "string"
      ? component["key"]
      : typeof component["id"] === "string"
      ? component["id"]
      : path
    visibleComponents.push(key)
    if (!INPUT_TYPES.has(String(component["type"]))) continue
    const value = data[key]
    if (value !== undefined) values[key] = value
    const validate = isObject(component["validate"]) ? component["validate"] : {}
    const empty = value === undefined || value === null || value === "" || (Array.isArray(value) && value.length === 0)
    if (validate["required"] === true && empty) {
      errors.push({ key, message: "is required" })
      continue
    }
    if (empty) continue
    if (typeof value === "string") {
      if (typeof validate["minLength"] === "number" && value.length < validate["minLength"]) {
        errors.push({ key, message: `needs at least ${validate["minLength"]} characters` })
      }
      if (typeof validate["maxLength"] === "number" && value.length > validate["maxLength"]) {
        errors.push({ key, message: `allows at most ${validate["maxLength"]} characters` })
      }
      if (typeof validate["pattern"] === "string") {
        const matched = matchesWhole(validate["pattern"], value)
        if (matched !== true) {
          errors.push({ key, message: matched === false ? `does not match ${validate["pattern"]}` : matched })
        }
      }
      if (validate["validationType"] === "email" && !EMAIL.test(value)) {
        errors.push({ key, message: "is not an email address" })
      }
    }
    if (component["type"] === "number") {
      const number = typeof value === "number" ? value : Number(value)
      if (Number.isNaN(number)) errors.push({ key, message: "is not a number" })
      else {
        if (typeof validate["min"] === "number" && number < validate["min"]) {
          errors.push({ key, message: `must be at least ${validate["min"]}` })
        }
        if (typeof validate["max"] === "number" && number > validate["max"]) {
          errors.push({ key, message: `must be at most ${validate["max"]}` })
        }
      }
    }
  }
  return { valid: errors.length === 0, errors, visibleComponents, values }
}

const identity = (component: Json, path: string) => String(component["key"] ?? component["id"] ?? path)

/** Components added, removed and changed between two versions of a form (matched by key, else id). */
export const diffForms = (from: unknown, to: unknown) => {
  const index = (form: unknown) =>
    new Map(flatten(form).map(({ path, component }) => [identity(component, path), component]))
  const before = index(from)
  const after = index(to)
  const added = [...after.keys()].filter((key) => !before.has(key))
  const removed = [...before.keys()].filter((key) => !after.has(key))
  const changed = [...after.keys()].filter((key) =>
    before.has(key) && JSON.stringify(before.get(key)) !== JSON.stringify(after.get(key))
  ).map((key) => {
    const a = before.get(key)!
    const b = after.get(key)!
    const properties = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((p) =>
      JSON.stringify(a[p]) !== JSON.stringify(b[p])
    ).sort()
    return { key, properties }
  })
  return { added, removed, changed }
}

/**
 * Labels for a locale: each labelled component's label (by key, else id) from the locale's translations, else from
 * its language's (de-CH -> de), else the form's own label.
 */
export const resolveLabels = (
  form: unknown,
  locale: string,
  translations: ReadonlyMap<string, Readonly<Record<string, string>>>
) => {
  const language = locale.split(/[-_]/)[0]!
  const exact = translations.get(locale) ?? {}
  const general = language === locale ? {} : translations.get(language) ?? {}
  const labels: Record<string, string> = {}
  const sources: Record<string, "locale" | "language" | "default"> = {}
  for (const { path, component } of flatten(form)) {
    const label = component["label"] ?? component["text"]
    if (typeof label !== "string") continue
    const key = identity(component, path)
    if (exact[key] !== undefined) [labels[key], sources[key]] = [exact[key]!, "locale"]
    else if (general[key] !== undefined) [labels[key], sources[key]] = [general[key]!, "language"]
    else [labels[key], sources[key]] = [label, "default"]
  }
  return { locale, labels, sources }
}
