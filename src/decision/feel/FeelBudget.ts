/**
 * The budget every FEEL evaluation runs under, wherever it runs (the API, decisions, process conditions, mappings and
 * scripts, forms): work steps (loop iterations, function calls, list elements made — nested loops count
 * multiplicatively because every inner iteration is a step), wall time, call depth, string and list sizes, and the
 * size and nesting of the expression text itself. Exceeding it throws FeelBudgetExceeded, which no FEEL construct
 * swallows into null: the entry points turn it into a failure the caller sees (a 4xx, an incident, a failed
 * decision). Evaluation is synchronous, so one budget is active at a time; a nested entry shares the outer one.
 */

export interface FeelLimits {
  /** Loop iterations, function calls and list elements made, in all. */
  readonly maxSteps: number
  /** Wall time of one evaluation. */
  readonly maxMillis: number
  /** Nested function calls (recursion). */
  readonly maxCallDepth: number
  /** Characters of any string made, and elements of any list made. */
  readonly maxStringLength: number
  readonly maxListLength: number
  /** Characters of an expression's text. */
  readonly maxExpressionLength: number
  /** Nesting of brackets, parentheses and braces in an expression's text. */
  readonly maxExpressionNesting: number
  /** The longest input a pattern RE2 cannot run (back-references, class subtraction) is matched against. */
  readonly maxBacktrackingInput: number
}

export const DEFAULT_FEEL_LIMITS: FeelLimits = {
  maxSteps: 1_000_000,
  maxMillis: 1_000,
  maxCallDepth: 200,
  maxStringLength: 1_000_000,
  maxListLength: 1_000_000,
  maxExpressionLength: 100_000,
  maxExpressionNesting: 64,
  maxBacktrackingInput: 2_000
}

let limits: FeelLimits = DEFAULT_FEEL_LIMITS

/** Sets the limits for the process (from the service configuration); unspecified ones keep their defaults. */
export const configureFeelLimits = (overrides: Partial<FeelLimits>): void => {
  limits = { ...DEFAULT_FEEL_LIMITS, ...overrides }
}

export const feelLimits = (): FeelLimits => limits

export class FeelBudgetExceeded extends Error {
  override readonly name = "FeelBudgetExceeded"
  readonly limit: keyof FeelLimits
  constructor(limit: keyof FeelLimits, message: string) {
    super(message)
    this.limit = limit
  }
}

interface Budget {
  steps: number
  depth: number
  readonly deadline: number
}

let active: Budget | undefined

/** Runs `evaluate` under a fresh budget, or under the active one when called from inside an evaluation. */
export const withFeelBudget = <A>(evaluate: () => A): A => {
  if (active !== undefined) return evaluate()
  active = { steps: 0, depth: 0, deadline: performance.now() + limits.maxMillis }
  try {
    return evaluate()
  } finally {
    active = undefined
  }
}

const TIME_CHECK_EVERY = 256

/** Counts `n` steps of work; throws when the steps or the time are used up. */
export const chargeSteps = (n = 1): void => {
  const budget = active
  if (budget === undefined) return
  const before = budget.steps
  budget.steps += n
  if (budget.steps > limits.maxSteps) {
    throw new FeelBudgetExceeded(
      "maxSteps",
      `the expression needs more than ${limits.maxSteps} steps (loop iterations, calls, list elements)`
    )
  }
  if (
    Math.floor(before / TIME_CHECK_EVERY) !== Math.floor(budget.steps / TIME_CHECK_EVERY) &&
    performance.now() > budget.deadline
  ) {
    throw new FeelBudgetExceeded("maxMillis", `the expression ran longer than ${limits.maxMillis} ms`)
  }
}

/** Runs a function call one level deeper; throws past the call depth limit. */
export const inCall = <A>(call: () => A): A => {
  const budget = active
  if (budget === undefined) return call()
  chargeSteps()
  if (budget.depth >= limits.maxCallDepth) {
    throw new FeelBudgetExceeded(
      "maxCallDepth",
      `function calls nest deeper than ${limits.maxCallDepth} (unbounded recursion?)`
    )
  }
  budget.depth++
  try {
    return call()
  } finally {
    budget.depth--
  }
}

/** Checks a value just made: a string or list over its size limit throws; a list's elements are counted as steps. */
export const checkMade = <A>(value: A): A => {
  if (typeof value === "string" && value.length > limits.maxStringLength) {
    throw new FeelBudgetExceeded("maxStringLength", `a string would exceed ${limits.maxStringLength} characters`)
  }
  if (Array.isArray(value)) {
    if (value.length > limits.maxListLength) {
      throw new FeelBudgetExceeded("maxListLength", `a list would exceed ${limits.maxListLength} elements`)
    }
    chargeSteps(value.length)
  }
  return value
}

/** Why an expression's text is refused before it is parsed (too long, nested too deep), or undefined. */
export const expressionTextProblem = (text: string): string | undefined => {
  if (text.length > limits.maxExpressionLength) {
    return `the expression is longer than ${limits.maxExpressionLength} characters`
  }
  let depth = 0
  let quote: string | undefined
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (quote !== undefined) {
      if (c === "\\") i++
      else if (c === quote) quote = undefined
    } else if (c === "\"") quote = c
    else if (c === "(" || c === "[" || c === "{") {
      if (++depth > limits.maxExpressionNesting) {
        return `the expression nests brackets deeper than ${limits.maxExpressionNesting} levels`
      }
    } else if (c === ")" || c === "]" || c === "}") depth--
  }
  return undefined
}
