// What JSON the service accepts and PostgreSQL can store. jsonb refuses the NUL character (\u0000) and lone UTF-16
// surrogates ("\ud800"), and deeply nested values overflow the stack of whoever walks them recursively (JSON.stringify,
// schema decoding, the engine). Both are checked here, without recursion, before such a value gets anywhere.

/** Nesting limit of JSON request bodies and of stored values (documented in docs/api.md). */
export const JSON_MAX_DEPTH = 64

export interface JsonTextProblem {
  /** Where the problem is, as a field path (`variables.note`, `items[2]`), or "body" for the whole text. */
  readonly field: string
  readonly code: "TOO_DEEP" | "INVALID_TEXT"
  readonly message: string
}

/** True when the nesting of arrays and objects in JSON text goes deeper than `max` (a linear scan, no parse). */
export const jsonTextTooDeep = (text: string, max: number = JSON_MAX_DEPTH): boolean => {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 92 /* \ */) i++
      else if (c === 34 /* " */) inString = false
    } else if (c === 34) inString = true
    else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (++depth > max) return true
    } else if (c === 125 /* } */ || c === 93 /* ] */) depth--
  }
  return false
}

/** Why a string cannot be stored, or undefined when it can. */
export const unstorableString = (value: string): string | undefined => {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i)
    if (c === 0) return "contains the NUL character (\\u0000), which cannot be stored"
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = value.charCodeAt(i + 1)
      if (next >= 0xdc00 && next <= 0xdfff) i++
      else return "contains a lone UTF-16 surrogate, which is not valid Unicode text"
    } else if (c >= 0xdc00 && c <= 0xdfff) return "contains a lone UTF-16 surrogate, which is not valid Unicode text"
  }
  return undefined
}

const child = (path: string, key: string | number): string =>
  typeof key === "number" ? `${path}[${key}]` : path === "" ? key : `${path}.${key}`

/**
 * The first problem of a parsed JSON value (or any plain value about to be stored): nesting deeper than `maxDepth`,
 * or a string or key that PostgreSQL cannot store. Walks with an explicit stack, so no input can overflow it.
 */
export const jsonValueProblem = (
  value: unknown,
  root = "",
  maxDepth: number = JSON_MAX_DEPTH
): JsonTextProblem | undefined => {
  const stack: Array<{ readonly value: unknown; readonly path: string; readonly depth: number }> = [{
    value,
    path: root,
    depth: 0
  }]
  while (stack.length > 0) {
    const { value: current, path, depth } = stack.pop()!
    const field = path === "" ? "body" : path
    if (typeof current === "string") {
      const problem = unstorableString(current)
      if (problem !== undefined) return { field, code: "INVALID_TEXT", message: problem }
    } else if (typeof current === "object" && current !== null) {
      if (depth >= maxDepth) return { field, code: "TOO_DEEP", message: `nests deeper than ${maxDepth} levels` }
      if (Array.isArray(current)) {
        for (let i = current.length - 1; i >= 0; i--) {
          stack.push({ value: current[i], path: child(path, i), depth: depth + 1 })
        }
      } else {
        for (const [key, item] of Object.entries(current)) {
          const keyProblem = unstorableString(key)
          if (keyProblem !== undefined) {
            return { field: child(path, key), code: "INVALID_TEXT", message: `the key ${keyProblem}` }
          }
          stack.push({ value: item, path: child(path, key), depth: depth + 1 })
        }
      }
    }
  }
  return undefined
}
