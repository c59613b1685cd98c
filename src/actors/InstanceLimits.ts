// What an instance may hold, checked by its handler before every commit (InstanceHandler.ts): values the database can
// store, its own variables within 4 MiB, new variable names a path can address, its whole state within what a row
// read can carry.
import type { InstanceState } from "../engine/InstanceState.ts"
import { jsonSizeWithin } from "../engine/JsonSize.ts"
import { jsonValueProblem } from "../persistence/StorableJson.ts"
import { MAX_INSTANCE_VARIABLES_BYTES, variableNameProblem } from "../schema/RequestVariables.ts"

/** Why the variables cannot be stored, naming the field, or undefined when they can. */
export const variablesProblem = (
  variables: Readonly<Record<string, unknown>>
): { readonly field: string; readonly message: string } | undefined => {
  const problem = jsonValueProblem(variables, "variables")
  if (problem !== undefined) return problem
  const size = Buffer.byteLength(JSON.stringify(variables))
  return size > MAX_INSTANCE_VARIABLES_BYTES
    ? {
      field: "variables",
      message: `the instance's variables would take ${size} bytes, over the limit of ${MAX_INSTANCE_VARIABLES_BYTES}`
    }
    : undefined
}

/**
 * A variable name new to the instance (a script may make one) that is empty or longer than a path may name
 * (PUT/DELETE .../variables/{name} take 1 to MAX_VARIABLE_NAME characters): such a variable could be set but never
 * addressed. Names it already had are left alone.
 */
export const unaddressableName = (
  before: Readonly<Record<string, unknown>> | undefined,
  after: Readonly<Record<string, unknown>>
): { readonly field: string; readonly message: string } | undefined => {
  for (const name in after) {
    if (before !== undefined && Object.hasOwn(before, name)) continue
    const problem = variableNameProblem(name)
    if (problem !== undefined) return { field: "variables", message: problem }
  }
  return undefined
}

/**
 * The most an instance's state may take as JSON: a row is read whole, and the database client refuses a message over
 * 16 MiB, so an instance grown past it (variables of inner scopes and elements, which the 4 MiB of its own do not
 * count, incidents' messages) could no longer be read, canceled or retried. Its own variables are in the row twice.
 */
export const MAX_INSTANCE_STATE_BYTES = 10 * 1024 * 1024

/** Why the state cannot be stored (it is too large), or undefined when it can. */
export const stateTooLarge = (state: InstanceState): string | undefined =>
  jsonSizeWithin(state, MAX_INSTANCE_STATE_BYTES, "bytes") > MAX_INSTANCE_STATE_BYTES
    ? `the instance's state would take more than ${
      MAX_INSTANCE_STATE_BYTES / 1024 / 1024
    } MiB (the variables of all its scopes and elements, its incidents' messages, ...); nothing was applied`
    : undefined
