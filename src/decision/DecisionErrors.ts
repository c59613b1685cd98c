/** How a decision's evaluation fails: a DecisionError value, thrown as an Abort inside the evaluation and caught at its
 * edge (DecisionEvaluation.ts); and the evaluation of FEEL text in a decision, where a syntax error aborts. */
import { compileExpression, type FeelScope } from "./feel/Feel.ts"
import { isSyntaxError } from "./feel/FeelParser.ts"

export interface DecisionError {
  readonly _tag: "DecisionError"
  readonly code: "HIT_POLICY_VIOLATION" | "NOT_FOUND" | "FEEL_SYNTAX" | "UNSUPPORTED" | "LIMIT_EXCEEDED"
  readonly message: string
  readonly ruleIds?: ReadonlyArray<string>
}

export const fail = (code: DecisionError["code"], message: string, ruleIds?: ReadonlyArray<string>): DecisionError =>
  ruleIds === undefined ? { _tag: "DecisionError", code, message } : { _tag: "DecisionError", code, message, ruleIds }

export class Abort {
  readonly error: DecisionError
  constructor(error: DecisionError) {
    this.error = error
  }
}

/** A FEEL expression's value in a decision (null for nothing); a syntax error aborts the evaluation. */
export const feel = (text: string, scope: FeelScope): unknown => {
  const compiled = compileExpression(text, scope)
  if (isSyntaxError(compiled)) throw new Abort(fail("FEEL_SYNTAX", `${compiled.message} at ${compiled.position.from}`))
  return compiled(scope) ?? null
}
