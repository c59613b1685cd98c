/**
 * The budget every FEEL evaluation runs under, wherever it runs (the API, decisions, process conditions, mappings and
 * scripts, forms): work steps (loop iterations, function calls, list elements made — nested loops count
 * multiplicatively because every inner iteration is a step — and what built-ins do over their input: comparisons,
 * elements and characters visited), wall time, call depth, string and list sizes, and the
 * size and nesting of the expression text itself. Exceeding it throws FeelBudgetExceeded, which no FEEL construct
 * swallows into null: the entry points turn it into a failure the caller sees (a 4xx, an incident, a failed
 * decision). Evaluation is synchronous, so one budget is active at a time; a nested entry shares the outer one.
 */

export interface FeelLimits {
  /** Loop iterations, function calls, list elements made and built-ins' work over their input (chargeWork), in all. */
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
  /** Units of work (see chargeWork) not yet counted as a step. */
  work: number
  depth: number
  readonly deadline: number
}

let active: Budget | undefined

/**
 * The time all evaluations of one piece of work may take together (an engine command, a simulation, an activation's
 * variables, a form's checks): each evaluation has its own budget, but a command that evaluates a costly mapping once
 * per inner instance of a multi-instance would otherwise take the node for as long as there are instances. Past it
 * the work stops with FeelTotalTimeExceeded, which no evaluation turns into a result: the work is refused as a whole.
 */
export class FeelTotalTimeExceeded extends Error {
  override readonly name = "FeelTotalTimeExceeded"
  readonly maxMillis: number
  constructor(maxMillis: number) {
    super(`its expressions ran longer than ${maxMillis} ms together`)
    this.maxMillis = maxMillis
  }
}

let total: { readonly deadline: number; readonly maxMillis: number } | undefined

/** Runs `work` with its evaluations' time bounded together (inside another such work, the outer bound holds). */
export const withTotalFeelTime = <A>(maxMillis: number, work: () => A): A => {
  if (total !== undefined) return work()
  total = { deadline: performance.now() + maxMillis, maxMillis }
  try {
    return work()
  } finally {
    total = undefined
  }
}

/** Runs `work` with its evaluations' time bounded together; past it, what `over` gives (also inside another such work). */
export const withTotalFeelTimeOr = <A>(maxMillis: number, work: () => A, over: () => A): A => {
  try {
    return withTotalFeelTime(maxMillis, work)
  } catch (error) {
    if (error instanceof FeelTotalTimeExceeded) return over()
    throw error
  }
}

const checkTotal = (now: number): void => {
  if (total !== undefined && now > total.deadline) throw new FeelTotalTimeExceeded(total.maxMillis)
}

/** Runs `evaluate` under a fresh budget, or under the active one when called from inside an evaluation. */
export const withFeelBudget = <A>(evaluate: () => A): A => {
  if (active !== undefined) return evaluate()
  const now = performance.now()
  checkTotal(now)
  active = { steps: 0, work: 0, depth: 0, deadline: Math.min(now + limits.maxMillis, total?.deadline ?? Infinity) }
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
    checkTotal(performance.now())
    throw new FeelBudgetExceeded("maxMillis", `the expression ran longer than ${limits.maxMillis} ms`)
  }
}

/** Elementary operations (comparing two values, visiting a list element or context entry) per step. */
export const WORK_PER_STEP = 32

/**
 * Counts `units` elementary operations of a built-in's work over its input (comparisons, elements visited): one step
 * per WORK_PER_STEP of them, so a call over a large input is charged in proportion, and the time is checked as it
 * runs. Charged before the work, as it goes, or at the latest after one pass over an input that is already there
 * (never after work more than linear in it).
 */
export const chargeWork = (units: number): void => {
  const budget = active
  if (budget === undefined || !(units > 0)) return
  budget.work += units
  if (budget.work >= WORK_PER_STEP) {
    const steps = Math.floor(budget.work / WORK_PER_STEP)
    budget.work -= steps * WORK_PER_STEP
    chargeSteps(steps)
  }
}

/** Characters a string operation goes over per unit of work: native string code runs a character in well under one. */
export const CHARS_PER_WORK = 32

/** Counts work over `chars` characters of text (searching, copying, parsing). */
export const chargeChars = (chars: number): void => chargeWork(chars / CHARS_PER_WORK)

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

/** Throws when a string of `length` characters would be over its size limit: checked before making it. */
export const checkStringLength = (length: number): void => {
  if (length > limits.maxStringLength) {
    throw new FeelBudgetExceeded("maxStringLength", `a string would exceed ${limits.maxStringLength} characters`)
  }
}

/** Checks a value just made: a string or list over its size limit throws; a list's elements are counted as steps. */
export const checkMade = <A>(value: A): A => {
  if (typeof value === "string") checkStringLength(value.length)
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
