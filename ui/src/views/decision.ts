// One decision version: its table (inputs, outputs, rules, hit policy) or expression, and a form to evaluate it. Each
// value to enter gets a control for its declared type (number, boolean, date, ...; allowed values as a choice); the
// evaluation (POST /decisions/{id}/evaluate-with-trace) shows the result and highlights the rules that matched.
import {
  api,
  ApiError,
  type Decision,
  type DecisionDetail,
  type DecisionModel,
  type DecisionTrace,
  type EvaluationResult,
  type RuleMatch
} from "../api.ts"
import { inputControl, setPath } from "../decisionInputs.ts"
import { type DmnDecision, type DmnTable, readDecision } from "../dmn.ts"
import { act, badge, type Child, errorBox, h, json, loading, parseJson, replace, when } from "../dom.ts"
import { drawDrd, readDrd } from "../drd.ts"
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
  const [xml, versions, model] = await Promise.all([
    api.get<{ xml: string }>(`/decisions/${decision.id}/xml`),
    api.page<Decision>("/decisions", { key: decision.key, size: 100 }),
    decision.format === "DMN_XML"
      ? api.get<DecisionModel>(`/decision-models/${decision.decisionModelId}`)
      : Promise.resolve(undefined)
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
  const controls = parsed.variables.map((variable) => ({ variable, control: inputControl(variable) }))
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
    ),
    model === undefined ? null : requirementsCard(xml.xml, model, decision.key)
  )
}

/** The model's decision requirements graph, when the decision has requirements or is required; a click opens one. */
const requirementsCard = (xml: string, model: DecisionModel, current: string) => {
  const drd = readDrd(xml)
  if (drd.edges.length === 0 || !drd.edges.some((edge) => edge.from === current || edge.to === current)) return null
  const idByKey = new Map(model.decisions.map((decision) => [decision.key, decision.id]))
  const drawn = drawDrd(drd, {
    current,
    canOpen: (key) => idByKey.has(key),
    open: (key) => (location.hash = `#/decisions/${encodeURIComponent(idByKey.get(key)!)}`)
  })
  const item = (kind: string, label: string) =>
    h("span", { class: "drd-legend-item" }, h("span", { class: `drd-swatch drd-swatch-${kind}` }), label)
  return h(
    "div",
    { class: "card", "data-testid": "drd" },
    h(
      "div",
      { class: "card-head" },
      h("h2", null, "Decision requirements"),
      h(
        "span",
        { class: "muted" },
        `${model.name ?? "model"} · ${drawn.nodeCount} elements · click a decision to open it`
      )
    ),
    h("div", { class: "drd-host" }, drawn.element),
    h(
      "div",
      { class: "legend drd-legend" },
      item("decision", "decision"),
      item("inputData", "input data"),
      item("businessKnowledgeModel", "business knowledge model"),
      item("knowledgeSource", "knowledge source"),
      h("span", { class: "drd-legend-item" }, h("span", { class: "drd-line" }), "information requirement"),
      h(
        "span",
        { class: "drd-legend-item" },
        h("span", { class: "drd-line drd-line-dashed" }),
        "knowledge / authority requirement"
      )
    )
  )
}
