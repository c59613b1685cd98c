/**
 * Variable scopes for FEEL evaluation: a chain of frames, innermost first. Lookups walk the chain; a missing name is
 * `undefined` (the evaluator turns it into null).
 */
import type { TypeResolver } from "./FeelTypes.ts"
import { isContext } from "./FeelValues.ts"

const SIMPLE_NAME = /^[\p{L}_$?][\p{L}\p{N}_$?]*$/u

export class FeelScope {
  readonly vars: Readonly<Record<string, unknown>>
  readonly parent: FeelScope | undefined
  /** Type names beyond the built-in ones (a model's item definitions), for `instance of`. */
  readonly types: TypeResolver | undefined
  private complexNamesMemo: ReadonlyArray<string> | undefined

  constructor(vars: Readonly<Record<string, unknown>>, parent?: FeelScope, types?: TypeResolver) {
    this.vars = vars
    this.parent = parent
    this.types = types ?? parent?.types
  }

  static of(vars: Readonly<Record<string, unknown>>, types?: TypeResolver): FeelScope {
    return new FeelScope(vars, undefined, types)
  }

  child(vars: Readonly<Record<string, unknown>>): FeelScope {
    return new FeelScope(vars, this)
  }

  has(name: string): boolean {
    for (let s: FeelScope | undefined = this; s !== undefined; s = s.parent) {
      if (Object.hasOwn(s.vars, name)) return true
    }
    return false
  }

  lookup(name: string): unknown {
    for (let s: FeelScope | undefined = this; s !== undefined; s = s.parent) {
      if (Object.hasOwn(s.vars, name)) return s.vars[name]
    }
    return undefined
  }

  /** Every variable, inner frames shadowing outer ones (for the parser's name tracking). */
  flatten(): Record<string, unknown> {
    const frames: FeelScope[] = []
    for (let s: FeelScope | undefined = this; s !== undefined; s = s.parent) frames.unshift(s)
    return Object.assign({}, ...frames.map((f) => f.vars)) as Record<string, unknown>
  }

  /**
   * Names in scope (and keys of contexts in scope) that are not plain identifiers — "Monthly Income", "a-b" — which
   * the parser must know to read them as one name. Memoised: a scope's frames are not changed after creation.
   */
  complexNames(): ReadonlyArray<string> {
    if (this.complexNamesMemo !== undefined) return this.complexNamesMemo
    const out = new Set<string>(this.parent?.complexNames() ?? [])
    const visit = (value: Readonly<Record<string, unknown>>, depth: number): void => {
      for (const [k, v] of Object.entries(value)) {
        if (!SIMPLE_NAME.test(k)) out.add(k)
        if (depth < 3) {
          if (isContext(v)) visit(v, depth + 1)
          else if (Array.isArray(v) && isContext(v[0])) visit(v[0], depth + 1)
        }
      }
    }
    visit(this.vars, 0)
    this.complexNamesMemo = [...out]
    return this.complexNamesMemo
  }
}
