// DMN imports resolved against the tenant's stored decision models: each imported namespace is the latest model of
// the tenant with that namespace, found when a decision is evaluated (so models may be imported in any order), and
// the imported models' own imports in turn. An import that no stored model of the tenant has fails the evaluation
// (422 naming the import), whatever the evaluated decision needs.
import { Effect } from "effect"
import { BusinessError } from "../../schema/ApiErrors.ts"
import type { DecisionEngineShape, ParsedDecisionModel } from "./DecisionEngine.ts"

/** At most this many models are linked into one evaluation. */
const MAX_LINKED_MODELS = 64

export const linkImports = <E>(
  engine: DecisionEngineShape,
  model: ParsedDecisionModel,
  byNamespace: (namespace: string) => Effect.Effect<ParsedDecisionModel | undefined, E>
): Effect.Effect<ParsedDecisionModel, E | BusinessError> =>
  Effect.gen(function*() {
    if (model.imports.length === 0) return model
    const found = new Map<string, ParsedDecisionModel | undefined>()
    // An imported model may import this one back.
    if (model.namespace !== null) found.set(model.namespace, model)
    const queue = model.imports.map((i) => i.namespace)
    while (queue.length > 0 && found.size < MAX_LINKED_MODELS) {
      const namespace = queue.shift()!
      if (found.has(namespace)) continue
      const imported = yield* byNamespace(namespace)
      found.set(namespace, imported)
      if (imported !== undefined) queue.push(...imported.imports.map((i) => i.namespace))
    }
    const missing = [...new Set([model, ...found.values()])].flatMap((m) =>
      (m?.imports ?? []).filter((i) => found.get(i.namespace) === undefined)
        .map((i) => ({
          field: `imports.${i.name}`,
          message: `${m?.name ?? "the model"} imports ${i.namespace} as ${i.name}: no decision model of this tenant ` +
            "has that namespace",
          code: "IMPORT_NOT_FOUND"
        }))
    )
    if (missing.length > 0) {
      return yield* new BusinessError({
        message: `unresolved DMN import: ${missing.map((m) => m.message).join("; ")}`,
        errors: missing
      })
    }
    const available = [...found.values()].filter((m): m is ParsedDecisionModel => m !== undefined)
    return engine.link(model, available)
  })
