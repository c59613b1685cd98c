/**
 * The internal, immutable decision model and its import from DMN XML (DMN 1.1 – 1.5).
 *
 * dmn-moddle reads DMN 1.3 only; the other versions differ (for what we read) in their namespace URIs,
 * so those are rewritten to the 1.3 ones before parsing.
 */
import { DmnModdle } from "dmn-moddle"
import { BOXED_NS, rewriteBoxedIterations } from "./BoxedIterationXml.ts"
import { href, importedDecisionsOf, versionTagOf } from "./DmnRequirements.ts"

export interface Problem {
  readonly path: string
  readonly message: string
}

export type Result<A, E> = { readonly ok: true; readonly value: A } | { readonly ok: false; readonly error: E }

export interface UnaryTests {
  readonly text: string
}

export interface TableInput {
  readonly id: string
  readonly label: string
  readonly expression: string
  readonly typeRef: string | undefined
}

export interface TableOutput {
  readonly id: string
  readonly name: string
  readonly typeRef: string | undefined
  readonly allowedValues: string | undefined
  /** DMN 1.5 §8.3.4: "the default output value is used when no rule matches". */
  readonly defaultOutput: string | undefined
}

export interface TableRule {
  readonly id: string
  readonly inputEntries: ReadonlyArray<string>
  readonly outputEntries: ReadonlyArray<string>
  readonly annotations: ReadonlyArray<string>
}

export type HitPolicy =
  | "UNIQUE"
  | "FIRST"
  | "PRIORITY"
  | "ANY"
  | "COLLECT"
  | "RULE ORDER"
  | "OUTPUT ORDER"

export type Aggregation = "SUM" | "COUNT" | "MIN" | "MAX"

export type Expression =
  | { readonly kind: "literal"; readonly text: string; readonly typeRef: string | undefined }
  | {
    readonly kind: "decisionTable"
    readonly hitPolicy: HitPolicy
    readonly aggregation: Aggregation | undefined
    readonly inputs: ReadonlyArray<TableInput>
    readonly outputs: ReadonlyArray<TableOutput>
    readonly rules: ReadonlyArray<TableRule>
  }
  | {
    readonly kind: "context"
    readonly entries: ReadonlyArray<{ readonly name: string | undefined; readonly value: Expression }>
  }
  | { readonly kind: "list"; readonly items: ReadonlyArray<Expression> }
  | {
    readonly kind: "relation"
    readonly columns: ReadonlyArray<string>
    readonly rows: ReadonlyArray<ReadonlyArray<Expression>>
  }
  | {
    readonly kind: "invocation"
    readonly callee: string
    readonly bindings: ReadonlyArray<{ readonly name: string; readonly value: Expression | undefined }>
  }
  | {
    readonly kind: "function"
    readonly parameters: ReadonlyArray<{ readonly name: string; readonly typeRef: string | undefined }>
    readonly body: Expression | undefined
    readonly functionKind: string
  }
  /** DMN 1.5 boxed conditional: `if` / `then` / `else`. */
  | {
    readonly kind: "conditional"
    readonly condition: Expression
    readonly then: Expression
    readonly else: Expression
  }
  /** DMN 1.5 boxed iterators: `for` (a list of results), `some` and `every` (booleans). */
  | {
    readonly kind: "iterator"
    readonly iterator: "for" | "some" | "every"
    readonly variable: string
    readonly in: Expression
    readonly body: Expression
  }
  /** DMN 1.5 boxed filter: the items of `in` for which `match` (with `item` bound) is true. */
  | { readonly kind: "filter"; readonly in: Expression; readonly match: Expression }
  | { readonly kind: "unsupported"; readonly type: string }

export interface Decision {
  readonly id: string
  readonly name: string
  readonly typeRef: string | undefined
  readonly requiredDecisions: ReadonlyArray<string>
  /** Required decisions of imported models (their href names another namespace), visible as `importName.decisionName`. */
  readonly importedDecisions?: ReadonlyArray<{ readonly namespace: string; readonly id: string }>
  readonly requiredInputs: ReadonlyArray<string>
  readonly requiredKnowledge: ReadonlyArray<string>
  readonly expression: Expression | undefined
  /** Camunda's zeebe:versionTag (a business rule task can bind to it); null: none. */
  readonly versionTag?: string | null
}

export interface DecisionService {
  readonly id: string
  readonly name: string
  /** The service variable's typeRef: the type of the service's result. */
  readonly typeRef?: string | undefined
  readonly outputDecisions: ReadonlyArray<string>
  readonly encapsulatedDecisions: ReadonlyArray<string>
  readonly inputDecisions: ReadonlyArray<string>
  readonly inputData: ReadonlyArray<string>
}

export interface InputData {
  readonly id: string
  readonly name: string
  readonly typeRef: string | undefined
}

export interface BusinessKnowledgeModel {
  readonly id: string
  readonly name: string
  /** The BKM variable's typeRef: the type of the function's results. */
  readonly typeRef?: string | undefined
  readonly requiredKnowledge: ReadonlyArray<string>
  readonly logic: Expression | undefined
}

export interface ItemDefinition {
  readonly name: string
  readonly typeRef: string | undefined
  readonly isCollection: boolean
  readonly allowedValues: string | undefined
  readonly components: ReadonlyArray<ItemDefinition>
  /** A function type (DMN 1.3+ functionItem): its result's typeRef. */
  readonly functionOutputTypeRef?: string | undefined
}

/** A DMN `import` of another model (DMN 1.5 §6.3.3): its elements are visible under the import's name. */
export interface ModelImport {
  readonly name: string
  readonly namespace: string
  /** The imported model, once resolved (see resolveImports). */
  readonly model?: DecisionModel | undefined
}

export interface DecisionModel {
  readonly name: string
  readonly namespace: string
  readonly imports?: ReadonlyArray<ModelImport>
  readonly decisions: ReadonlyArray<Decision>
  readonly decisionServices: ReadonlyArray<DecisionService>
  readonly inputData: ReadonlyArray<InputData>
  readonly businessKnowledgeModels: ReadonlyArray<BusinessKnowledgeModel>
  readonly itemDefinitions: ReadonlyArray<ItemDefinition>
}

const DMN13 = "https://www.omg.org/spec/DMN/20191111/MODEL/"
const NAMESPACE_REWRITES: ReadonlyArray<readonly [string, string]> = [
  ["http://www.omg.org/spec/DMN/20151101/dmn.xsd", DMN13],
  ["http://www.omg.org/spec/DMN/20180521/MODEL/", DMN13],
  ["https://www.omg.org/spec/DMN/20211108/MODEL/", DMN13],
  ["https://www.omg.org/spec/DMN/20230324/MODEL/", DMN13],
  ["https://www.omg.org/spec/DMN/20180521/MODEL/", DMN13],
  ["http://www.omg.org/spec/DMN/20180521/DMNDI/", "https://www.omg.org/spec/DMN/20191111/DMNDI/"],
  ["https://www.omg.org/spec/DMN/20230324/DMNDI/", "https://www.omg.org/spec/DMN/20191111/DMNDI/"],
  ["https://www.omg.org/spec/DMN/20211108/DMNDI/", "https://www.omg.org/spec/DMN/20191111/DMNDI/"],
  ["http://www.omg.org/spec/DMN/20180521/DI/", "http://www.omg.org/spec/DMN/20180521/DI/"],
  ["http://www.omg.org/spec/FEEL/20140401", "https://www.omg.org/spec/DMN/20191111/FEEL/"]
]

export const normaliseNamespaces = (xml: string): string =>
  NAMESPACE_REWRITES.reduce((text, [from, to]) => text.split(from).join(to), xml)

// dmn-moddle elements are loosely typed objects; this is the only place that reads them.
type El = any

const text = (el: El): string => (el?.text ?? "") as string

const NULL_LITERAL: Expression = { kind: "literal", text: "null", typeRef: undefined }

/** A context rewritten from a DMN 1.5 boxed conditional / iterator / filter (see BoxedIterationXml.ts). */
const readBoxed = (el: El): Expression | undefined => {
  const attrs: Record<string, string> = el.$attrs ?? {}
  const prefix = Object.keys(attrs).find((k) => k.startsWith("xmlns:") && attrs[k] === BOXED_NS)?.slice("xmlns:".length)
  if (prefix === undefined) return undefined
  const kind = attrs[`${prefix}:kind`]
  const part = (name: string): Expression =>
    readExpression((el.contextEntry ?? []).find((e: El) => e.variable?.name === name)?.value) ?? NULL_LITERAL
  switch (kind) {
    case "conditional":
      return { kind: "conditional", condition: part("if"), then: part("then"), else: part("else") }
    case "for":
      return {
        kind: "iterator",
        iterator: "for",
        variable: attrs[`${prefix}:iterator`] ?? "",
        in: part("in"),
        body: part("return")
      }
    case "some":
    case "every":
      return {
        kind: "iterator",
        iterator: kind,
        variable: attrs[`${prefix}:iterator`] ?? "",
        in: part("in"),
        body: part("satisfies")
      }
    case "filter":
      return { kind: "filter", in: part("in"), match: part("match") }
    default:
      return undefined
  }
}

const readExpression = (el: El): Expression | undefined => {
  if (el === undefined || el === null) return undefined
  if (el.$type === "dmn:Context" && el.$attrs !== undefined) {
    const boxed = readBoxed(el)
    if (boxed !== undefined) return boxed
  }
  switch (el.$type) {
    case "dmn:LiteralExpression":
      return { kind: "literal", text: text(el), typeRef: el.typeRef }
    case "dmn:DecisionTable":
      return {
        kind: "decisionTable",
        hitPolicy: (el.hitPolicy ?? "UNIQUE") as HitPolicy,
        aggregation: el.aggregation as Aggregation | undefined,
        inputs: (el.input ?? []).map((i: El) => ({
          id: i.id ?? "",
          label: i.label ?? i.inputExpression?.text ?? "",
          expression: text(i.inputExpression),
          typeRef: i.inputExpression?.typeRef
        })),
        outputs: (el.output ?? []).map((o: El) => ({
          id: o.id ?? "",
          name: o.name ?? "",
          typeRef: o.typeRef,
          allowedValues: o.outputValues?.text,
          defaultOutput: o.defaultOutputEntry?.text
        })),
        rules: (el.rule ?? []).map((r: El) => ({
          id: r.id ?? "",
          inputEntries: (r.inputEntry ?? []).map(text),
          outputEntries: (r.outputEntry ?? []).map(text),
          annotations: (r.annotationEntry ?? []).map(text)
        }))
      }
    case "dmn:Context":
      return {
        kind: "context",
        entries: (el.contextEntry ?? []).map((e: El) => ({
          name: e.variable?.name,
          value: readExpression(e.value) ?? { kind: "literal", text: "null", typeRef: undefined }
        }))
      }
    case "dmn:List":
      return {
        kind: "list",
        items: (el.elements ?? []).map((e: El) => readExpression(e) ?? { kind: "unsupported", type: "?" })
      }
    case "dmn:Relation":
      return {
        kind: "relation",
        columns: (el.column ?? []).map((c: El) => c.name ?? ""),
        rows: (el.row ?? []).map((r: El) =>
          (r.elements ?? []).map((e: El) => readExpression(e) ?? { kind: "literal", text: "null", typeRef: undefined })
        )
      }
    case "dmn:Invocation":
      return {
        kind: "invocation",
        callee: text(el.calledFunction ?? el.expression),
        bindings: (el.binding ?? []).map((b: El) => ({
          name: b.parameter?.name ?? "",
          value: readExpression(b.bindingFormula)
        }))
      }
    case "dmn:FunctionDefinition":
      return {
        kind: "function",
        parameters: (el.formalParameter ?? []).map((p: El) => ({ name: p.name ?? "", typeRef: p.typeRef })),
        body: readExpression(el.body),
        functionKind: el.kind ?? "FEEL"
      }
    default:
      return { kind: "unsupported", type: String(el.$type) }
  }
}

const readItemDefinition = (el: El): ItemDefinition => ({
  name: el.name ?? "",
  typeRef: el.typeRef,
  isCollection: el.isCollection === true,
  allowedValues: el.allowedValues?.text,
  components: (el.itemComponent ?? []).map(readItemDefinition),
  functionOutputTypeRef: el.functionItem?.outputTypeRef
})

/** Imports DMN XML into a DecisionModel; problems (unreadable XML, unknown elements) are values. */
export const importDmnXml = async (xml: string): Promise<Result<DecisionModel, ReadonlyArray<Problem>>> => {
  const moddle = new DmnModdle()
  let root: El
  let warnings: ReadonlyArray<El> = []
  try {
    const parsed = await moddle.fromXML(rewriteBoxedIterations(normaliseNamespaces(xml)), "dmn:Definitions")
    root = parsed.rootElement
    warnings = parsed.warnings ?? []
  } catch (error) {
    return { ok: false, error: [{ path: "/", message: `unreadable DMN XML: ${(error as Error).message}` }] }
  }
  if (root === undefined || root.$type !== "dmn:Definitions") {
    return { ok: false, error: [{ path: "/", message: "root element is not DMN definitions" }] }
  }
  void warnings
  const drg: ReadonlyArray<El> = root.drgElement ?? []
  const decisions: Decision[] = []
  const services: DecisionService[] = []
  const inputData: InputData[] = []
  const bkms: BusinessKnowledgeModel[] = []
  for (const el of drg) {
    switch (el.$type) {
      case "dmn:Decision":
        decisions.push({
          id: el.id ?? "",
          name: el.name ?? el.id ?? "",
          typeRef: el.variable?.typeRef,
          requiredDecisions: (el.informationRequirement ?? []).filter((r: El) => r.requiredDecision).map((r: El) =>
            href(r.requiredDecision)
          ),
          importedDecisions: importedDecisionsOf(el, root.namespace),
          versionTag: versionTagOf(el),
          requiredInputs: (el.informationRequirement ?? []).filter((r: El) => r.requiredInput).map((r: El) =>
            href(r.requiredInput)
          ),
          requiredKnowledge: (el.knowledgeRequirement ?? []).map((r: El) => href(r.requiredKnowledge)),
          expression: readExpression(el.decisionLogic)
        })
        break
      case "dmn:DecisionService":
        services.push({
          id: el.id ?? "",
          name: el.name ?? el.id ?? "",
          typeRef: el.variable?.typeRef,
          outputDecisions: (el.outputDecision ?? []).map(href),
          encapsulatedDecisions: (el.encapsulatedDecision ?? []).map(href),
          inputDecisions: (el.inputDecision ?? []).map(href),
          inputData: (el.inputData ?? []).map(href)
        })
        break
      case "dmn:InputData":
        inputData.push({ id: el.id ?? "", name: el.name ?? el.id ?? "", typeRef: el.variable?.typeRef })
        break
      case "dmn:BusinessKnowledgeModel":
        bkms.push({
          id: el.id ?? "",
          name: el.name ?? el.id ?? "",
          typeRef: el.variable?.typeRef,
          requiredKnowledge: (el.knowledgeRequirement ?? []).map((r: El) => href(r.requiredKnowledge)),
          logic: readExpression(el.encapsulatedLogic)
        })
        break
      default:
        break
    }
  }
  return {
    ok: true,
    value: {
      name: root.name ?? "",
      namespace: root.namespace ?? "",
      imports: (root.import ?? []).map((i: El) => ({ name: i.name ?? "", namespace: i.namespace ?? "" })),
      decisions,
      decisionServices: services,
      inputData,
      businessKnowledgeModels: bkms,
      itemDefinitions: (root.itemDefinition ?? []).map(readItemDefinition)
    }
  }
}

/**
 * The model with each import linked to the model of that namespace among `available`, whose own imports are linked
 * in turn (unknown namespaces stay unlinked; import cycles are cut after a few levels).
 */
export const resolveImports = (
  model: DecisionModel,
  available: ReadonlyArray<DecisionModel>,
  depth = 0
): DecisionModel => ({
  ...model,
  imports: (model.imports ?? []).map((i) => {
    const found = depth < 8
      ? available.find((m) => m.namespace === i.namespace && m.namespace !== model.namespace)
      : undefined
    return { ...i, model: found === undefined ? undefined : resolveImports(found, available, depth + 1) }
  })
})
