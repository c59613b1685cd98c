/**
 * The import of DMN XML (DMN 1.1 – 1.5) into a DecisionModel.
 *
 * dmn-moddle reads DMN 1.3 only; the other versions differ (for what we read) in their namespace URIs,
 * so those are rewritten to the 1.3 ones before parsing.
 */
import { DmnModdle } from "dmn-moddle"
import { BOXED_NS, rewriteBoxedIterations } from "./BoxedIterationXml.ts"
import type {
  Aggregation,
  BusinessKnowledgeModel,
  Decision,
  DecisionModel,
  DecisionService,
  Expression,
  HitPolicy,
  InputData,
  ItemDefinition,
  Problem,
  Result
} from "./DecisionModel.ts"
import {
  href,
  importedDecisionsOf,
  requiredDecisionsOf,
  requiredInputsOf,
  requiredKnowledgeOf,
  versionTagOf
} from "./DmnRequirements.ts"

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

/** What every element of the requirements graph has: its id, its name (else its id) and its variable's type. */
const named = (el: El): InputData => ({ id: el.id ?? "", name: el.name ?? el.id ?? "", typeRef: el.variable?.typeRef })

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
  // dmn-moddle skips an element whose id an earlier element has (a warning): refused, never silently lost.
  const duplicates = warnings.flatMap((w: El) => {
    const m = /duplicate ID <([^>]*)>/.exec(String(w?.message ?? ""))
    return m === null ? [] : [{ path: m[1] ?? "", message: `duplicate id ${JSON.stringify(m[1])}: ids must be unique` }]
  })
  if (duplicates.length > 0) return { ok: false, error: duplicates }
  const drg: ReadonlyArray<El> = root.drgElement ?? []
  const decisions: Decision[] = []
  const services: DecisionService[] = []
  const inputData: InputData[] = []
  const bkms: BusinessKnowledgeModel[] = []
  for (const el of drg) {
    switch (el.$type) {
      case "dmn:Decision":
        decisions.push({
          ...named(el),
          requiredDecisions: requiredDecisionsOf(el),
          importedDecisions: importedDecisionsOf(el, root.namespace),
          versionTag: versionTagOf(el),
          requiredInputs: requiredInputsOf(el),
          requiredKnowledge: requiredKnowledgeOf(el),
          expression: readExpression(el.decisionLogic)
        })
        break
      case "dmn:DecisionService":
        services.push({
          ...named(el),
          outputDecisions: (el.outputDecision ?? []).map(href),
          encapsulatedDecisions: (el.encapsulatedDecision ?? []).map(href),
          inputDecisions: (el.inputDecision ?? []).map(href),
          inputData: (el.inputData ?? []).map(href)
        })
        break
      case "dmn:InputData":
        inputData.push(named(el))
        break
      case "dmn:BusinessKnowledgeModel":
        bkms.push({
          ...named(el),
          requiredKnowledge: requiredKnowledgeOf(el),
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
