// A command that does not apply to the instance as it is: thrown inside a run, turned into a rejection value by execute.
export type RejectionReason = "INVALID_STATE" | "NOT_FOUND" | "INVALID_ARGUMENT" | "CONFLICT"

export class Rejected {
  readonly reason: RejectionReason
  readonly message: string
  constructor(reason: RejectionReason, message: string) {
    this.reason = reason
    this.message = message
  }
}
