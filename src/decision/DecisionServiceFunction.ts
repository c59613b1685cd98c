/**
 * A decision service as a FEEL function (DMN 1.5 §10.4): its parameters are the service's input data, then its input
 * decisions, each in the order the service lists them, typed by their variables' typeRefs. An invocation with another
 * number of positional arguments, an unknown named argument, or an argument that does not conform to its parameter's
 * type (DMN's coercions applied: a singleton list is its element, ...) is an error: the invocation is null.
 */
import type { DecisionModel, DecisionService } from "./DecisionModel.ts"
import { FeelFunctionValue } from "./feel/FeelFunctionValue.ts"
import { coerceToType } from "./TypeConformance.ts"

export interface ServiceParameter {
  readonly name: string
  readonly typeRef: string | undefined
}

/** The service's parameters in the declared order: input data first, then input decisions. */
export const serviceParameters = (model: DecisionModel, service: DecisionService): ServiceParameter[] => [
  ...service.inputData.map((id) => {
    const input = model.inputData.find((i) => i.id === id)
    return { name: input?.name ?? id, typeRef: input?.typeRef }
  }),
  ...service.inputDecisions.map((id) => {
    const decision = model.decisions.find((d) => d.id === id)
    return { name: decision?.name ?? id, typeRef: decision?.typeRef }
  })
]

/** An argument coerced to its parameter's type; undefined when a non-null argument does not conform. */
export const coerceArgument = (model: DecisionModel, parameter: ServiceParameter, value: unknown): unknown => {
  const coerced = coerceToType(value, parameter.typeRef, model.itemDefinitions)
  return coerced === null && value !== null && value !== undefined ? undefined : coerced
}

export const serviceFunction = (
  model: DecisionModel,
  service: DecisionService,
  run: (variables: Record<string, unknown>) => unknown
): FeelFunctionValue => {
  const parameters = serviceParameters(model, service)
  return new FeelFunctionValue(
    parameters.map((p) => ({ name: p.name })),
    (args) => {
      if (args.length !== parameters.length) return null
      const variables: Record<string, unknown> = {}
      for (const [i, p] of parameters.entries()) {
        const value = coerceArgument(model, p, args[i] ?? null)
        if (value === undefined) return null
        variables[p.name] = value
      }
      return run(variables)
    }
  )
}

/** Problems of variables given to a service directly (over the API): names that are no parameter, or values that
 * do not conform to their parameter's type. */
export const serviceArgumentProblems = (
  model: DecisionModel,
  service: DecisionService,
  variables: Readonly<Record<string, unknown>>
): ReadonlyArray<{ readonly path: string; readonly message: string }> => {
  const parameters = serviceParameters(model, service)
  return Object.entries(variables).flatMap(([name, value]) => {
    const parameter = parameters.find((p) => p.name === name)
    if (parameter === undefined) {
      return [{
        path: name,
        message: `not a parameter of decision service ${service.name} (its parameters: ${
          parameters.map((p) => p.name).join(", ") || "none"
        })`
      }]
    }
    return coerceArgument(model, parameter, value) === undefined
      ? [{ path: name, message: `does not conform to the parameter's type ${parameter.typeRef ?? "Any"}` }]
      : []
  })
}
