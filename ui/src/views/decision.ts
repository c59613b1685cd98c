// One decision version: its table (inputs, outputs, rules, hit policy) or expression, and a form to evaluate it. Each
// value to enter gets a control for its declared type (number, boolean, date, ...; allowed values as a choice); the
// evaluation (POST /decisions/{id}/evaluate-with-trace) shows the result and highlights the rules that matched.
import {
  api,
  ApiError,
  type Decision,
  type DecisionDetail,
  type DecisionTrace,
  type EvaluationResult,
  type RuleMatch
} from "../api.ts"
import { type DmnDecision, type DmnTable, type DmnVariable, readDecision } from "../dmn.ts"
import { act, badge, type Child, errorBox, field, h, json, loading, parseJson, replace, when } from "../dom.ts"
import type { View } from "../view.ts"
import { kindLabel } from "./decisions.ts"

const HIT_POLICIES: Record<string, string> = {
  UNIQUE: "at most one rule may match",
  FIRST: "the first matching rule wins",
  PRIORITY: "the match with the highest-priority output wins",
  ANY: "the matching rules must agree",
  COLLECT: "every matching rule's output",
  "RULE ORDER": "every match, in rule order",
  "OUTPUT ORDER": "every match, by output priority"
}

const NUMBERS = new Set(["number", "integer", "int", "long", "double", "decimal", "float", "short"])
/** Types sent explicitly typed ({ "@type", value }), so tables that declare none read them right too. */
const TEMPORAL: Record<string, { readonly type: string; readonly input: string; readonly hint?: string }> = {
  date: { type: "date", input: "date" },
  time: { type: "time", input: "time" },
  "date and time": { type: "date and time", input: "datetime-local" },
  dateTime: { type: "date and time", input: "datetime-local" },
  "days and time duration": { type: "days and time duration", input: "text", hint: "ISO 8601, e.g. P2DT4H" },
  dayTimeDuration: { type: "days and time duration", input: "text", hint: "ISO 8601, e.g. P2DT4H" },
  "years and months duration": { type: "years and months duration", input: "text", hint: "ISO 8601, e.g. P1Y6M" },
  yearMonthDuration: { type: "years and months duration", input: "text", hint: "ISO 8601, e.g. P1Y6M" },
  duration: { type: "duration", input: "text", hint: "ISO 8601, e.g. P3D or P1Y" }
}

/** `"low","high"` → ["low", "high"]; anything but a list of quoted texts → undefined. */
const quotedChoices = (allowed: string | null): ReadonlyArray<string> | undefined => {
  if (allowed === null) return undefined
  const parts = allowed.split(",").map((part) => part.trim())
  return parts.every((part) => /^"[^"]*"$/.test(part)) ? parts.map((part) => part.slice(1, -1)) : undefined
}

interface Control {
  readonly element: HTMLElement
  /** The value to send; undefined leaves the variable out. Throws when the entry does not fit the type. */
  readonly read: () => unknown
}

const control = (variable: DmnVariable): Control => {
  const type = variable.typeRef ?? ""
  const label = variable.label
  const hint = (typeName: string) => (variable.label === variable.name ? typeName : `${variable.name} · ${typeName}`)
  const testId = `input-${variable.name}`
  if (NUMBERS.has(type)) {
    const input = h("input", { type: "number", step: "any", "data-testid": testId })
    return {
      element: field(label, input, hint(type)),
      read: () => {
        if (input.value.trim() === "") return undefined
        const value = Number(input.value)
        if (!Number.isFinite(value)) throw new Error(`${label} must be a number`)
        return value
      }
    }
  }
  if (type === "boolean") {
    const select = h(
      "select",
      { "data-testid": testId },
      h("option", { value: "" }, "—"),
      h("option", { value: "true" }, "true"),
      h("option", { value: "false" }, "false")
    )
    return {
      element: field(label, select, hint(type)),
      read: () => (select.value === "" ? undefined : select.value === "true")
    }
  }
  const temporal = TEMPORAL[type]
  if (temporal !== undefined) {
    const input = h("input", {
      type: temporal.input,
      step: temporal.input === "text" ? undefined : 1,
      placeholder: temporal.hint,
      "data-testid": testId
    })
    return {
      element: field(label, input, hint(type)),
      read: () => {
        const value = input.value.trim()
        if (value === "") return undefined
        // Without seconds the browser answers "10:30"; FEEL wants "10:30:00".
        const full = (temporal.input === "time" && /^\d\d:\d\d$/.test(value)) ||
            (temporal.input === "datetime-local" && /T\d\d:\d\d$/.test(value))
          ? `${value}:00`
          : value
        return { "@type": temporal.type, value: full }
      }
    }
  }
  const choices = quotedChoices(variable.allowedValues)
  if (choices !== undefined) {
    const select = h(
      "select",
      { "data-testid": testId },
      h("option", { value: "" }, "—"),
      choices.map((choice) => h("option", { value: choice }, choice))
    )
    return {
      element: field(label, select, hint(type || "string")),
      read: () => (select.value === "" ? undefined : select.value)
    }
  }
  if (type === "string") {
    const input = h("input", { type: "text", "data-testid": testId })
    return { element: field(label, input, hint(type)), read: () => (input.value === "" ? undefined : input.value) }
  }
  // Undeclared, Any, lists, contexts, item definitions: JSON (a bare word is taken as text when nothing is declared).
  const input = h("input", { type: "text", placeholder: "JSON value", "data-testid": testId })
  return {
    element: field(label, input, hint(type || "any: JSON or text")),
    read: () => {
      const value = input.value.trim()
      if (value === "") return undefined
      try {
        return JSON.parse(value)
      } catch {
        if (type === "" || type === "Any") return value
        throw new Error(`${label} (${type}) must be JSON`)
      }
    }
  }
}

/** Sets a value at a path, making the objects on the way. */
const setPath = (target: Record<string, unknown>, path: ReadonlyArray<string>, value: unknown) => {
  let node = target
  for (const part of path.slice(0, -1)) {
    const next = node[part]
    node = (node[part] = typeof next === "object" && next !== null ? next : {}) as Record<string, unknown>
  }
  node[path[path.length - 1]!] = value
}

const entry = (text: string) => text === "" || text === "-" ? h("span", { class: "muted" }, "–") : h("code", null, text)

const decisionTable = (table: DmnTable) => {
  const rows = table.rules.map((rule, index) =>
    h(
      "tr",
      { "data-rule": index, "data-rule-id": rule.id },
      h("td", { class: "num rule-index", title: rule.id }, index + 1),
      rule.inputEntries.map((text) => h("td", { class: "rule-input" }, entry(text))),
      rule.outputEntries.map((text) => h("td", { class: "rule-output" }, entry(text))),
      h("td", { class: "rule-annotation" }, rule.annotation)
    )
  )
  const element = h(
    "table",
    { class: "table dmn-table", "data-testid": "decision-table" },
    h(
      "thead",
      null,
      h(
        "tr",
        null,
        h("th", { class: "num" }, "#"),
        table.inputs.map((input) =>
          h(
            "th",
            { class: "col-input" },
            h("div", { class: "col-kind" }, "When"),
            h("div", { class: "col-name" }, input.label || input.expression),
            h(
              "div",
              { class: "col-meta" },
              input.label !== "" && input.label !== input.expression ? h("code", null, input.expression) : null,
              input.typeRef === null ? null : h("span", null, input.typeRef)
            )
          )
        ),
        table.outputs.map((output) =>
          h(
            "th",
            { class: "col-output" },
            h("div", { class: "col-kind" }, "Then"),
            h("div", { class: "col-name" }, output.label || output.name),
            h(
              "div",
              { class: "col-meta" },
              output.label !== "" && output.label !== output.name ? h("code", null, output.name) : null,
              output.typeRef === null ? null : h("span", null, output.typeRef)
            )
          )
        ),
        h("th", null, "Annotation")
      )
    ),
    h(
      "tbody",
      null,
      rows.length === 0
        ? h(
          "tr",
          null,
          h("td", { class: "empty", colspan: table.inputs.length + table.outputs.length + 2 }, "No rules.")
        )
        : rows
    )
  )
  return {
    element,
    /** Matched rules in green; the ones the result came from (one-result hit policies) stronger. */
    highlight: (matched: ReadonlySet<number>, winners: ReadonlySet<number>) =>
      rows.forEach((row, index) => {
        row.classList.toggle("matched", matched.has(index))
        row.classList.toggle("winner", winners.has(index))
        row.classList.remove("conflict")
      }),
    /** The rules an error names (a Unique table with several matches), in red. */
    conflict: (ruleIds: ReadonlySet<string>) =>
      rows.forEach((row) => row.classList.toggle("conflict", ruleIds.has(row.dataset["ruleId"] ?? "")))
  }
}

const ONE_RESULT = new Set(["UNIQUE", "ANY", "FIRST", "PRIORITY"])

/** The matched rules the result came from, for the hit policies that answer one rule's outputs. */
const winnersOf = (table: DmnTable | null, matched: ReadonlyArray<RuleMatch>, result: unknown) => {
  if (table === null || !ONE_RESULT.has(table.hitPolicy) || matched.length === 0) return []
  if (table.hitPolicy === "FIRST") return matched.slice(0, 1)
  const single = table.outputs.length === 1 ? table.outputs[0]!.name : undefined
  const same = matched.filter((rule) =>
    JSON.stringify(single === undefined ? rule.outputs : rule.outputs[single]) === JSON.stringify(result)
  )
  return table.hitPolicy === "PRIORITY" ? same.slice(0, 1) : same
}

const value = (result: unknown): Child => h("code", { class: "value" }, json(result))

const ruleRef = (rule: RuleMatch) => h("span", { class: "rule-ref", title: rule.ruleId }, `rule ${rule.index + 1}`)

const resultView = (
  outcome: EvaluationResult,
  main: DecisionTrace | undefined,
  parsed: DmnDecision,
  winners: ReadonlyArray<RuleMatch>
) => {
  const matched = main?.matchedRules ?? []
  const result = outcome.result
  const outputs = parsed.table?.outputs ?? []
  const isRecord = (candidate: unknown): candidate is Record<string, unknown> =>
    typeof candidate === "object" && candidate !== null && !Array.isArray(candidate)
  const shown: Child = isRecord(result)
    ? h(
      "dl",
      { class: "facts result-facts" },
      Object.entries(result).map(([name, entryValue]) =>
        h("div", { class: "fact" }, h("dt", null, name), h("dd", null, value(entryValue)))
      )
    )
    : Array.isArray(result)
    ? h("ul", { class: "result-list" }, result.map((item) => h("li", null, value(item))))
    : h(
      "dl",
      { class: "facts result-facts" },
      h(
        "div",
        { class: "fact" },
        h("dt", null, outputs.length === 1 ? outputs[0]!.name : "result"),
        h("dd", null, value(result))
      )
    )
  const required = (outcome.trace ?? []).filter((trace) => trace !== main)
  return h(
    "div",
    { class: "result", "data-testid": "decision-result" },
    h(
      "div",
      { class: "result-head" },
      h("h2", null, "Result"),
      parsed.table === null
        ? null
        : matched.length === 0
        ? h("span", { class: "badge badge-raw badge-warning" }, "No rule matched")
        : h(
          "span",
          { class: "badge badge-raw badge-success" },
          `${matched.length} rule${matched.length === 1 ? "" : "s"} matched`
        )
    ),
    shown,
    matched.length === 0 ? null : h(
      "div",
      { class: "muted result-rules" },
      "Matched: ",
      matched.map((rule, index) => [index === 0 ? null : ", ", ruleRef(rule)]),
      winners.length === 0 || winners.length === matched.length
        ? null
        : [
          " — result from ",
          winners.map((rule, index) => [index === 0 ? null : ", ", ruleRef(rule)]),
          ` (${parsed.table?.hitPolicy.toLowerCase()})`
        ]
    ),
    required.length === 0 ? null : h(
      "div",
      { class: "result-required" },
      h("div", { class: "field-label" }, "Required decisions evaluated"),
      required.map((trace) => h("div", null, h("strong", null, trace.decisionName), " → ", value(trace.result)))
    )
  )
}

export const decisionView: View = async ({ params, outlet, current }) => {
  replace(outlet, loading())
  const decision = await api.get<DecisionDetail>(`/decisions/${encodeURIComponent(decodeURIComponent(params[0]!))}`)
  const [xml, versions] = await Promise.all([
    api.get<{ xml: string }>(`/decisions/${decision.id}/xml`),
    api.page<Decision>("/decisions", { key: decision.key, size: 100 })
  ])
  if (!current()) return
  const parsed = readDecision(xml.xml, decision.key)
  if (parsed === undefined) throw new Error(`The DMN of ${decision.key} has no decision with that id or name`)

  const versionSelect = h(
    "select",
    {
      "aria-label": "Version",
      onChange: (event: Event) => (location.hash = `#/decisions/${(event.target as HTMLSelectElement).value}`)
    },
    [...versions.items].sort((a, b) => b.version - a.version).map((version) =>
      h("option", { value: version.id, selected: version.id === decision.id }, `Version ${version.version}`)
    )
  )

  const table = parsed.table === null ? undefined : decisionTable(parsed.table)
  const controls = parsed.variables.map((variable) => ({ variable, control: control(variable) }))
  const extra = h("textarea", { rows: 4, "aria-label": "More variables (JSON)", placeholder: "{ \"name\": value }" })
  const output = h("div", { class: "result-host" })
  const evaluate = h("button", { class: "btn btn-primary", type: "submit" }, "Evaluate")
  const form = h(
    "form",
    { class: "evaluate-form", "data-testid": "evaluate-form" },
    controls.length === 0
      ? h("p", { class: "muted" }, "This decision names no inputs; give its variables as JSON below.")
      : controls.map(({ control }) => control.element),
    h(
      "details",
      { class: "more", open: controls.length === 0 },
      h("summary", null, "More variables (JSON)"),
      extra
    ),
    h("div", { class: "form-actions" }, evaluate)
  )
  form.addEventListener("submit", (event) => {
    event.preventDefault()
    void act(evaluate, async () => {
      table?.highlight(new Set(), new Set())
      try {
        const extraText = extra.value.trim()
        const variables = extraText === "" ? {} : parseJson("More variables", extraText)
        if (typeof variables !== "object" || variables === null || Array.isArray(variables)) {
          throw new Error("More variables must be a JSON object")
        }
        for (const { variable, control } of controls) {
          const entered = control.read()
          if (entered !== undefined) setPath(variables as Record<string, unknown>, variable.path, entered)
        }
        const outcome = await api.post<EvaluationResult>(`/decisions/${decision.id}/evaluate-with-trace`, { variables })
        if (!current()) return
        const traces = outcome.trace ?? []
        const main = traces.find((trace) => trace.decisionId === parsed.id || trace.decisionId === decision.key) ??
          traces[traces.length - 1]
        const matched = main?.matchedRules ?? []
        const winners = winnersOf(parsed.table, matched, outcome.result)
        table?.highlight(new Set(matched.map((rule) => rule.index)), new Set(winners.map((rule) => rule.index)))
        replace(output, resultView(outcome, main, parsed, winners))
      } catch (error) {
        // "rule r1 matched", one per rule, when a Unique table matched several (or an Any table's matches disagree).
        const named = error instanceof ApiError
          ? error.errors.flatMap((detail) => /^rule (.+) matched$/.exec(detail.message)?.slice(1) ?? [])
          : []
        table?.conflict(new Set(named))
        replace(output, errorBox(named.length > 0 && error instanceof ApiError ? error.summary : error))
      }
    })
  })

  const hitPolicy = parsed.table === null
    ? null
    : `${parsed.table.hitPolicy}${parsed.table.aggregation === null ? "" : ` ${parsed.table.aggregation}`}`
  replace(
    outlet,
    h(
      "div",
      { class: "page-head" },
      h(
        "div",
        null,
        h(
          "div",
          { class: "title-row" },
          h("h1", null, decision.name ?? decision.key),
          h("span", { class: "muted" }, `v${decision.version}`),
          hitPolicy === null ? null : badge(hitPolicy, "info")
        ),
        h(
          "div",
          { class: "subtitle" },
          `${decision.key} · ${kindLabel(parsed.kind)} · ${decision.format === "DMN_XML" ? "DMN file" : "JSON table"}`,
          ` · deployed by ${decision.createdBy} `,
          when(decision.createdAt)
        )
      ),
      h("div", { class: "actions" }, versionSelect)
    ),
    h(
      "div",
      { class: "decision-layout" },
      h(
        "div",
        { class: "card" },
        h("div", { class: "card-head" }, h("h2", null, "Evaluate")),
        h("div", { class: "card-body" }, form, output)
      ),
      h(
        "div",
        { class: "card" },
        h(
          "div",
          { class: "card-head" },
          h("h2", null, parsed.table === null ? kindLabel(parsed.kind) : "Decision table"),
          parsed.table === null
            ? null
            : h(
              "span",
              { class: "muted" },
              `${parsed.table.rules.length} rule${parsed.table.rules.length === 1 ? "" : "s"} · `,
              h("strong", null, parsed.table.hitPolicy.toLowerCase()),
              `: ${HIT_POLICIES[parsed.table.hitPolicy] ?? ""}`,
              parsed.table.aggregation === null ? "" : ` (${parsed.table.aggregation.toLowerCase()})`
            )
        ),
        table !== undefined
          ? h("div", { class: "table-scroll" }, table.element)
          : h(
            "div",
            { class: "card-body" },
            parsed.literal === null
              ? h("p", { class: "muted" }, "This decision's expression is not shown here; evaluate it on the left.")
              : h("pre", { class: "literal" }, parsed.literal)
          ),
        parsed.requiredDecisions.length === 0
          ? null
          : h(
            "div",
            { class: "card-foot muted" },
            parsed.requiredDecisions.length === 1 ? "Requires the decision " : "Requires the decisions ",
            parsed.requiredDecisions.map((name, index) => [index === 0 ? null : ", ", h("strong", null, name)])
          )
      )
    )
  )
}
