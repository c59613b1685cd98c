/**
 * The internal, immutable decision model (read from DMN XML by DmnXmlImport.ts, or built from a JSON decision table by
 * DecisionTableJson.ts), and the linking of a model's imports.
 */

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
