/**
 * Context built-ins (DMN 1.5 §10.3.4.8 and §10.3.4.10), boolean `not`, and the helpers around them. Copying a
 * context, or going over entries, is charged to the budget per entry (chargeWork).
 */
import { chargeWork } from "./FeelBudget.ts"
import { builtin, type FeelBuiltinFunction, signature } from "./FeelFunctionValue.ts"
import { isContext } from "./FeelValues.ts"

const put = (
  context: Record<string, unknown>,
  keys: ReadonlyArray<unknown>,
  value: unknown
): Record<string, unknown> | null => {
  const [key, ...rest] = keys
  if (typeof key !== "string") return null
  // the copy below goes over every entry
  chargeWork(1 + Object.keys(context).length)
  if (rest.length === 0) return { ...context, [key]: value }
  const inner = context[key]
  // A path may create missing contexts but not go through a value that is not one.
  if (inner !== undefined && !isContext(inner)) return null
  const nested = put(inner ?? {}, rest, value)
  return nested === null ? null : { ...context, [key]: nested }
}

export const CONTEXT_BUILTINS: Readonly<Record<string, FeelBuiltinFunction>> = {
  not: builtin(signature(["negand"], ([v]) => (typeof v === "boolean" ? !v : null))),
  "get value": builtin(signature(["m", "key"], ([m, key]) => {
    if (!isContext(m)) return null
    const path = Array.isArray(key) ? key : [key]
    chargeWork(path.length)
    let v: unknown = m
    for (const k of path) {
      if (typeof k !== "string" || !isContext(v) || !Object.hasOwn(v, k)) return null
      v = v[k]
    }
    return v ?? null
  })),
  "get entries": builtin(
    signature(["m"], ([m]) => (isContext(m) ? Object.entries(m).map(([key, value]) => ({ key, value })) : null))
  ),
  context: builtin(signature(["entries"], ([entries]) => {
    const list = Array.isArray(entries) ? entries : [entries]
    chargeWork(list.length)
    const out: Record<string, unknown> = {}
    for (const e of list) {
      if (!isContext(e) || typeof e["key"] !== "string" || !Object.hasOwn(e, "value") || Object.hasOwn(out, e["key"])) {
        return null
      }
      out[e["key"]] = e["value"]
    }
    return out
  })),
  "context put": builtin(
    {
      ...signature(
        ["context", "key", "value"],
        ([c, key, value]) => (isContext(c) && typeof key === "string" ? put(c, [key], value) : null)
      ),
      accepts: (args) => !Array.isArray(args[1])
    },
    signature(
      ["context", "keys", "value"],
      ([c, keys, value]) => isContext(c) && Array.isArray(keys) && keys.length > 0 ? put(c, keys, value) : null
    )
  ),
  "context merge": builtin(signature(["contexts"], ([value]) => {
    const contexts = isContext(value) ? [value] : value
    if (!Array.isArray(contexts) || !contexts.every(isContext)) return null
    chargeWork(contexts.length)
    // One by one (not spread into a call: a long list would overflow the stack), each charged by its entries.
    const out: Record<string, unknown> = {}
    for (const c of contexts) {
      const names = Object.keys(c)
      chargeWork(names.length)
      for (const name of names) out[name] = c[name]
    }
    return out
  }))
}
