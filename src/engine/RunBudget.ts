// What one command's run may do before it is refused: the core runs a command until the instance waits everywhere,
// so a process that loops through gateways or script-free tasks without a wait state would run (and allocate) forever,
// and a parallel multi-instance over a huge collection would make one command of unbounded size. Past the budget the
// command is refused and nothing is applied (as Camunda 7's transaction rolls back when a loop exhausts it): the
// caller gets 422, the instance stays as it was.
import { Rejected } from "./Rejected.ts"

/**
 * Events one command may emit: a parallel multi-instance of n service tasks emits about 2n when it starts (so up to
 * ~25,000 items, ~1 s of the node's CPU here); a loop through gateways reaches it in ~0.3 s.
 */
export const MAX_EVENTS_PER_COMMAND = 50_000

/** Steps one command may take (each token step, each re-check of joins and conditions). */
export const MAX_STEPS_PER_COMMAND = 500_000

/**
 * Characters of JSON one command's events may take (JsonSize.ts): what its commit writes, and about what its state
 * grows by. An instance's variables take at most 4 MiB, so a parallel multi-instance over a collection that large, its
 * items and their mapped inputs fit; n input mappings each copying a large variable do not.
 */
export const MAX_EVENT_CHARS_PER_COMMAND = 32 * 1024 * 1024

/**
 * Time one command's expressions may take together (each one has its own budget too: FeelBudget.ts): a costly input
 * mapping evaluated once per inner instance of a multi-instance would otherwise hold the node for as long as there
 * are instances.
 */
export const MAX_FEEL_MILLIS_PER_COMMAND = 2_000

export const overFeelTime = (): Rejected =>
  new Rejected(
    "UNPROCESSABLE",
    `the command's expressions ran longer than ${MAX_FEEL_MILLIS_PER_COMMAND} ms together (a costly mapping, condition ` +
      "or script evaluated for many elements or inner instances); nothing was applied",
    "process"
  )

/** The command's events would take more than MAX_EVENT_CHARS_PER_COMMAND. */
export const overSizeBudget = (nodeId: string | undefined): Rejected =>
  new Rejected(
    "UNPROCESSABLE",
    `the command's events would take more than ${MAX_EVENT_CHARS_PER_COMMAND / 1024 / 1024} MiB${
      nodeId === undefined ? "" : ` (the last at element ${nodeId})`
    }: a multi-instance whose items or input mappings copy large values into every instance; nothing was applied`,
    "process"
  )

export const overBudget = (what: string, nodeId: string | undefined): Rejected =>
  new Rejected(
    "UNPROCESSABLE",
    `the command took more than ${what} without the instance reaching a wait state${
      nodeId === undefined ? "" : ` (the last at element ${nodeId})`
    }: a loop without a wait state, or a multi-instance collection too large for one command; nothing was applied`,
    "process"
  )
