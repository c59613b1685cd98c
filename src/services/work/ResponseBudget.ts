// How many variables one answer may carry: jobs and tasks show the variables they see (VariablesNow.ts), up to an
// instance's 4 MiB each, so a page of a thousand of them, or an activation of a thousand jobs, could make an answer of
// gigabytes. An answer keeps the leading items that fit in the budget — always the first, whatever its size (one item
// is bounded by the instance's limits) — and the caller decides what to do with the rest (as Zeebe's activation
// leaves jobs that do not fit its message size for the next one).
import { Effect } from "effect"
import { jsonSizeWithin } from "../../engine/JsonSize.ts"
import { validationError } from "../../schema/ApiErrors.ts"

/** Characters of JSON the variables of one answer's items may take together. */
export const MAX_ANSWER_VARIABLE_CHARS = 16 * 1024 * 1024

/** An answer's variables counted against its budget as its items come: the first always fits, the next while all do. */
export const answerBudget = (budget = MAX_ANSWER_VARIABLE_CHARS) => {
  let used = 0
  let taken = 0
  return {
    /** Whether an item with these variables goes into the answer. */
    admits: (variables: unknown): boolean => {
      used += jsonSizeWithin(variables, budget - used)
      if (used > budget && taken > 0) return false
      taken++
      return true
    },
    /** No further item fits. */
    full: (): boolean => used > budget
  }
}

/** How many of the leading items fit in the budget (at least one, when there is one). */
export const itemsWithinBudget = <A extends { readonly variables: unknown }>(
  items: ReadonlyArray<A>,
  budget = MAX_ANSWER_VARIABLE_CHARS
): number => {
  const answer = answerBudget(budget)
  let fit = 0
  while (fit < items.length && !answer.full() && answer.admits(items[fit]!.variables)) fit++
  return fit
}

/** Items worked out for an answer, in order, and those past its budgets, not worked out (VariablesNow.ts). */
export interface WorkedOut<A> {
  readonly items: ReadonlyArray<A>
  readonly rest: ReadonlyArray<A>
}

/** A page whose variables would take more than an answer may carry is refused (400 naming `query.size`). */
export const pageWithinBudget = <A>(page: WorkedOut<A>) =>
  page.rest.length === 0 ? Effect.succeed(page.items) : Effect.fail(validationError(
    "query.size",
    `the variables of these ${page.items.length + page.rest.length} items would take more than ${
      MAX_ANSWER_VARIABLE_CHARS / 1024 / 1024
    } MiB; ask for at most ${page.items.length} per page`,
    "ANSWER_TOO_LARGE"
  ))
