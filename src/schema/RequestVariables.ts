// Variables a request sets (starting an instance, completing work, publishing a message, a batch ...), checked when the
// body is decoded. An instance checks again what it would hold after the merge; these checks answer before any of
// that, which matters where the request reaches no single instance: a message or a signal that no instance could take
// would otherwise be dropped silently (202, nothing correlated), and a batch would fail on every item.
import { Schema } from "effect"

/**
 * The longest variable name: what a path's `{name}` may give (`.../variables/{name}`), so that every variable set from a
 * body can be addressed. A name is never empty either: no path names that.
 */
export const MAX_VARIABLE_NAME = 200

/**
 * The most an instance's own variables may take as JSON (Zeebe's default message size is also 4 MB), checked by the
 * instance after every merge (actors/InstanceLimits.ts), and so the most a request's variables may take.
 */
export const MAX_INSTANCE_VARIABLES_BYTES = 4 * 1024 * 1024

/** Why a variable may not have this name (a request's, or one a script makes), or undefined when it may. */
export const variableNameProblem = (name: string): string | undefined =>
  name.length === 0
    ? "a variable name may not be empty"
    : name.length > MAX_VARIABLE_NAME
    ? `a variable name may have at most ${MAX_VARIABLE_NAME} characters, not ${name.length} ("${name.slice(0, 40)}…")`
    : undefined

/** Why these variables cannot be set, or undefined when they can. Sizes them only once every name is valid. */
const requestVariablesProblem = (variables: Readonly<Record<string, unknown>>): string | undefined => {
  for (const name in variables) {
    const problem = variableNameProblem(name)
    if (problem !== undefined) return problem
  }
  const bytes = Buffer.byteLength(JSON.stringify(variables))
  return bytes > MAX_INSTANCE_VARIABLES_BYTES
    ? `the variables take ${bytes} bytes as JSON, over the limit of ${MAX_INSTANCE_VARIABLES_BYTES}`
    : undefined
}

export const RequestVariables = Schema.Record(Schema.String, Schema.Unknown).annotate({
  description: `variables as a JSON object: each name 1 to ${MAX_VARIABLE_NAME} characters, at most ` +
    `${MAX_INSTANCE_VARIABLES_BYTES} bytes (4 MiB) as JSON`
}).check(Schema.makeFilter(requestVariablesProblem, {
  toJsonSchema: () => ({ propertyNames: { minLength: 1, maxLength: MAX_VARIABLE_NAME } })
}))
