// Reads one decision out of its DMN XML (GET /decisions/{id}/xml answers XML for JSON tables too): its decision table
// (inputs, outputs, rules, hit policy) or literal expression, and the variables a person enters to evaluate it — the
// input data it requires (through required decisions too), else its table's inputs that name a variable.
// Elements are matched by local name, so DMN 1.1 to 1.5 namespaces all read the same.

export interface DmnInput {
  readonly label: string
  readonly expression: string
  readonly typeRef: string | null
  readonly allowedValues: string | null
}
export interface DmnOutput {
  readonly name: string
  readonly label: string
  readonly typeRef: string | null
  readonly allowedValues: string | null
}
export interface DmnRule {
  readonly id: string
  readonly inputEntries: ReadonlyArray<string>
  readonly outputEntries: ReadonlyArray<string>
  readonly annotation: string
}
export interface DmnTable {
  readonly hitPolicy: string
  readonly aggregation: string | null
  readonly inputs: ReadonlyArray<DmnInput>
  readonly outputs: ReadonlyArray<DmnOutput>
  readonly rules: ReadonlyArray<DmnRule>
}
/** A value to enter: its name and declared type. */
export interface DmnVariable {
  readonly name: string
  /** Where it goes in the variables: [name], or a table input's dotted path ("applicant.age") as nested objects. */
  readonly path: ReadonlyArray<string>
  /** What the person reads: the table input's label, else the name. */
  readonly label: string
  readonly typeRef: string | null
  readonly allowedValues: string | null
}
export interface DmnDecision {
  readonly id: string
  readonly name: string
  readonly table: DmnTable | null
  /** The FEEL text of a literal expression decision. */
  readonly literal: string | null
  /** The decision's expression kind, as DMN names it (decisionTable, literalExpression, context, ...). */
  readonly kind: string
  readonly requiredDecisions: ReadonlyArray<string>
  readonly variables: ReadonlyArray<DmnVariable>
}

const children = (element: Element, name: string) => [...element.children].filter((child) => child.localName === name)
const child = (element: Element | undefined, name: string) =>
  element === undefined ? undefined : children(element, name)[0]
const text = (element: Element | undefined) => child(element, "text")?.textContent?.trim() ?? ""
/** "feel:number" (DMN 1.1) and "number" alike. */
const typeOf = (value: string | null | undefined) =>
  value === null || value === undefined || value === "" ? null : value.replace(/^(feel|FEEL):/, "")
const reference = (element: Element | undefined) => (element?.getAttribute("href") ?? "").replace(/^.*#/, "")

const readTable = (element: Element): DmnTable => ({
  hitPolicy: element.getAttribute("hitPolicy") ?? "UNIQUE",
  aggregation: element.getAttribute("aggregation"),
  inputs: children(element, "input").map((input) => {
    const expression = child(input, "inputExpression")
    return {
      label: input.getAttribute("label") ?? "",
      expression: text(expression),
      typeRef: typeOf(expression?.getAttribute("typeRef")),
      allowedValues: text(child(input, "inputValues")) || null
    }
  }),
  outputs: children(element, "output").map((output) => ({
    name: output.getAttribute("name") ?? "",
    label: output.getAttribute("label") ?? "",
    typeRef: typeOf(output.getAttribute("typeRef")),
    allowedValues: text(child(output, "outputValues")) || null
  })),
  rules: children(element, "rule").map((rule, index) => ({
    id: rule.getAttribute("id") ?? `#${index + 1}`,
    inputEntries: children(rule, "inputEntry").map(text),
    outputEntries: children(rule, "outputEntry").map(text),
    annotation: [
      child(rule, "description")?.textContent?.trim() ?? "",
      ...children(rule, "annotationEntry").map(text)
    ].filter((part) => part !== "").join(" · ")
  }))
})

const EXPRESSIONS = [
  "decisionTable",
  "literalExpression",
  "context",
  "invocation",
  "list",
  "relation",
  "conditional",
  "for",
  "some",
  "every",
  "filter",
  "functionDefinition"
]
const VARIABLE = /^[A-Za-z_][\w]*(\.[A-Za-z_][\w]*)*$/

/** The decision whose DMN id (or, for one without an id, name) is `key`; undefined when the XML has none. */
export const readDecision = (xml: string, key: string): DmnDecision | undefined => {
  const document = new DOMParser().parseFromString(xml, "application/xml")
  const decisions = [...document.getElementsByTagNameNS("*", "decision")]
  const inputData = new Map(
    [...document.getElementsByTagNameNS("*", "inputData")].map((element) => [element.getAttribute("id") ?? "", element])
  )
  const byId = new Map(decisions.map((element) => [element.getAttribute("id") ?? "", element]))
  const element = byId.get(key) ?? decisions.find((candidate) => candidate.getAttribute("name") === key)
  if (element === undefined) return undefined

  // The input data it needs, through its required decisions too.
  const variables = new Map<string, DmnVariable>()
  const visited = new Set<Element>()
  const collect = (decision: Element) => {
    if (visited.has(decision)) return
    visited.add(decision)
    for (const requirement of children(decision, "informationRequirement")) {
      const input = inputData.get(reference(child(requirement, "requiredInput")))
      if (input !== undefined) {
        const name = input.getAttribute("name") ?? input.getAttribute("id") ?? ""
        variables.set(name, {
          name,
          path: [name],
          label: input.getAttribute("label") ?? name,
          typeRef: typeOf(child(input, "variable")?.getAttribute("typeRef")),
          allowedValues: null
        })
      }
      const required = byId.get(reference(child(requirement, "requiredDecision")))
      if (required !== undefined) collect(required)
    }
  }
  collect(element)

  const expression = [...element.children].find((candidate) => EXPRESSIONS.includes(candidate.localName))
  const table = expression?.localName === "decisionTable" ? readTable(expression) : null
  if (variables.size === 0 && table !== null) {
    for (const input of table.inputs) {
      if (VARIABLE.test(input.expression) && !variables.has(input.expression)) {
        variables.set(input.expression, {
          name: input.expression,
          path: input.expression.split("."),
          label: input.label || input.expression,
          typeRef: input.typeRef,
          allowedValues: input.allowedValues
        })
      }
    }
  }
  return {
    id: element.getAttribute("id") ?? key,
    name: element.getAttribute("name") ?? key,
    table,
    literal: expression?.localName === "literalExpression" ? text(expression) : null,
    kind: expression?.localName ?? "none",
    requiredDecisions: children(element, "informationRequirement").flatMap((requirement) => {
      const required = byId.get(reference(child(requirement, "requiredDecision")))
      return required === undefined ? [] : [required.getAttribute("name") ?? required.getAttribute("id") ?? ""]
    }),
    variables: [...variables.values()]
  }
}
