/**
 * FEEL function values (DMN 1.5 §10.3.2.10): user functions, boxed function definitions, BKMs, decision services and
 * built-ins share one shape — named parameters (optionally typed) and a body over positional arguments.
 */
import { checkMade, inCall } from "./FeelBudget.ts"

export interface FeelParameter {
  readonly name: string
  /** The parameter's FEEL type text, when declared (`function(a: number)` or a BKM's typeRef). */
  readonly type?: string | undefined
}

export class FeelFunctionValue {
  readonly parameters: ReadonlyArray<FeelParameter>
  /** Called with one value per parameter, missing ones as null. */
  readonly body: (args: ReadonlyArray<unknown>) => unknown
  /** Whether more positional arguments than parameters are accepted (the last parameter takes the rest, as in `min(1, 2, 3)`). */
  readonly variadic: boolean
  /** The declared result type, when known. */
  readonly resultType: string | undefined

  constructor(
    parameters: ReadonlyArray<FeelParameter>,
    body: (args: ReadonlyArray<unknown>) => unknown,
    variadic = false,
    resultType?: string
  ) {
    this.parameters = parameters
    this.body = body
    this.variadic = variadic
    this.resultType = resultType
  }

  /** Invokes with positional arguments, or named ones (null when a name is unknown or the count does not fit). */
  /** Invokes under the FEEL budget: a call is a step, one level deeper, and what it makes is checked. */
  invoke(args: ReadonlyArray<unknown> | Readonly<Record<string, unknown>>): unknown {
    return inCall(() => checkMade(this.call(args)))
  }

  protected call(args: ReadonlyArray<unknown> | Readonly<Record<string, unknown>>): unknown {
    if (Array.isArray(args)) {
      if (args.length > this.parameters.length && !this.variadic) return null
      return this.body(args)
    }
    const named = args as Readonly<Record<string, unknown>>
    const names = this.parameters.map((p) => p.name)
    if (Object.keys(named).some((k) => !names.includes(k))) return null
    return this.body(names.map((n) => (n in named ? named[n] : null)))
  }
}

export interface FeelSignature {
  readonly parameters: ReadonlyArray<string>
  /** How many leading parameters must be given (the rest default to null). */
  readonly required: number
  /** Whether extra positional arguments are collected into a list for the last parameter. */
  readonly variadic: boolean
  readonly body: (args: ReadonlyArray<unknown>) => unknown
  /** For positional calls: whether this signature takes these arguments (overloads told apart by argument kind). */
  readonly accepts?: (args: ReadonlyArray<unknown>) => boolean
}

/** A built-in function with one or more signatures (`date(from)`, `date(year, month, day)`); the first that fits is used. */
export class FeelBuiltinFunction extends FeelFunctionValue {
  readonly signatures: ReadonlyArray<FeelSignature>

  constructor(signatures: ReadonlyArray<FeelSignature>) {
    const first = signatures[0]
    super(
      (first?.parameters ?? []).map((name) => ({ name })),
      (args) => first?.body(args) ?? null,
      first?.variadic ?? false
    )
    this.signatures = signatures
  }

  protected override call(args: ReadonlyArray<unknown> | Readonly<Record<string, unknown>>): unknown {
    if (Array.isArray(args)) {
      for (const sig of this.signatures) {
        if (args.length < sig.required || (sig.accepts !== undefined && !sig.accepts(args))) continue
        if (sig.variadic && args.length >= sig.parameters.length) {
          const fixed = sig.parameters.length - 1
          return sig.body([...args.slice(0, fixed), args.slice(fixed)])
        }
        if (args.length <= sig.parameters.length) {
          return sig.body(sig.parameters.map((_, i) => (i < args.length ? args[i] : null)))
        }
      }
      return null
    }
    const named = args as Readonly<Record<string, unknown>>
    const given = Object.keys(named)
    for (const sig of this.signatures) {
      if (!given.every((g) => sig.parameters.includes(g))) continue
      if (!sig.parameters.slice(0, sig.required).every((p) => given.includes(p))) continue
      const values = sig.parameters.map((p) => (Object.hasOwn(named, p) ? named[p] : null))
      if (sig.variadic) {
        const last = values[values.length - 1]
        values[values.length - 1] = Array.isArray(last) ? last : [last]
      }
      return sig.body(values)
    }
    return null
  }
}

export const isFunctionValue = (v: unknown): v is FeelFunctionValue => v instanceof FeelFunctionValue

/** A signature: parameter names, `?` marking optional ones (`"length?"`), `...` a variadic last one (`"...items"`). */
export const signature = (
  names: ReadonlyArray<string>,
  body: (args: ReadonlyArray<unknown>) => unknown
): FeelSignature => ({
  parameters: names.map((n) => n.replace(/^\.\.\.|\?$/g, "")),
  required: names.filter((n) => !n.endsWith("?") && !n.startsWith("...")).length,
  variadic: names.some((n) => n.startsWith("...")),
  body
})

export const builtin = (...signatures: FeelSignature[]): FeelBuiltinFunction => new FeelBuiltinFunction(signatures)
