// A command that does not apply to the instance as it is: thrown inside a run, turned into a rejection value by execute.
// UNPROCESSABLE: the command cannot be applied to this model at all (it exceeded the run budget, RunBudget.ts).
export type RejectionReason = "INVALID_STATE" | "NOT_FOUND" | "INVALID_ARGUMENT" | "CONFLICT" | "UNPROCESSABLE"

export class Rejected {
  readonly reason: RejectionReason
  readonly message: string
  /** The command's field at fault, when one is (the API names it in errors[].field). */
  readonly field: string | undefined
  constructor(reason: RejectionReason, message: string, field?: string) {
    this.reason = reason
    this.message = message
    this.field = field
  }
}
