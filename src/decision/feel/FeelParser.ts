/**
 * Parsing FEEL text with the grammar feelin uses (lezer-feel), as an expression or as unary tests. Multi-word and
 * special-character names ("Monthly Income") are only read as names when the parser is told about them, so the
 * names in scope that occur in the text are part of a parse's input.
 */
import type { SyntaxNode, Tree } from "@lezer/common"
import { parser, trackVariables } from "lezer-feel"

export type FeelDialect = "expression" | "unaryTests"

export interface FeelSyntaxError {
  readonly _tag: "FeelSyntaxError"
  readonly message: string
  readonly expression: string
  /** 0-based character offsets into the expression. */
  readonly position: { readonly from: number; readonly to: number }
}

export const isSyntaxError = (v: unknown): v is FeelSyntaxError =>
  typeof v === "object" && v !== null && (v as { _tag?: unknown })._tag === "FeelSyntaxError"

const firstError = (tree: Tree): SyntaxNode | undefined => {
  let found: SyntaxNode | undefined
  tree.iterate({
    enter(ref) {
      if (found !== undefined) return false
      if (ref.type.isError) {
        found = ref.node
        return false
      }
      return undefined
    }
  })
  return found
}

/** Parses `text`; `names` are the variables (with their values, for nested context keys) the text may refer to. */
export const parseFeel = (
  text: string,
  dialect: FeelDialect,
  names: Readonly<Record<string, unknown>>
): Tree | FeelSyntaxError => {
  const tree = parser
    .configure({ top: dialect === "expression" ? "Expression" : "UnaryTests", contextTracker: trackVariables(names) })
    .parse(text)
  const error = firstError(tree)
  if (error === undefined) return tree
  const near = text.slice(error.from, Math.max(error.to, error.from + 1))
  return {
    _tag: "FeelSyntaxError",
    message: near === "" ? `unexpected end of expression` : `unexpected ${JSON.stringify(near)}`,
    expression: text,
    position: { from: error.from, to: Math.max(error.to, error.from) }
  }
}
