// The instance list's filter by one variable (GET /process-instances?variableName=&variableValue=): the instances
// whose own (root-scope) variables hold that name — with that value when one is given. The value is JSON
// (`"open"`, `42`, `true`, `{"a":1}`); text that is not JSON is taken as a string (`variableValue=open`). Both are
// bounded (length, and what a jsonb can hold); a value without a name is a 400 naming the field.
import { Effect } from "effect"
import { jsonValueProblem } from "../../persistence/StorableJson.ts"
import { type ValidationError, validationError } from "../../schema/ApiErrors.ts"
import { MAX_VARIABLE_NAME } from "../../schema/ProcessInstances.ts"
export const MAX_VARIABLE_VALUE = 4096

/** Without `value`: the name alone (any value, null included). */
export interface VariableFilter {
  readonly name: string
  readonly value?: unknown
}

export const variableFilter = (
  name: string | undefined,
  value: string | undefined
): Effect.Effect<VariableFilter | undefined, ValidationError> => {
  if (name === undefined || name === "") {
    return value === undefined
      ? Effect.succeed(undefined)
      : Effect.fail(validationError("variableName", "variableValue needs the variable's name", "REQUIRED"))
  }
  if (name.length > MAX_VARIABLE_NAME) {
    return Effect.fail(validationError("variableName", `longer than ${MAX_VARIABLE_NAME} characters`, "TOO_LONG"))
  }
  if (value === undefined) return Effect.succeed({ name })
  if (value.length > MAX_VARIABLE_VALUE) {
    return Effect.fail(validationError("variableValue", `longer than ${MAX_VARIABLE_VALUE} characters`, "TOO_LONG"))
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(value)
  } catch {
    parsed = value
  }
  // What PostgreSQL cannot hold in a jsonb (an escaped NUL, a lone surrogate, nesting past the budget) matches nothing
  // stored and would fail the query: refused, naming the parameter.
  const problem = jsonValueProblem(parsed, "variableValue")
  return problem === undefined
    ? Effect.succeed({ name, value: parsed })
    : Effect.fail(validationError("variableValue", problem.message, "NOT_STORABLE"))
}
