/** What compiling a FEEL text gives (closures over a FeelScope), and what compiling one construct needs from the
 * compiler of the whole text (FeelCompiler). */
import type { SyntaxNode } from "@lezer/common"
import type { FeelScope } from "./FeelScope.ts"

export type Compiled = (scope: FeelScope) => unknown
/** A unary test: whether the input (also visible as `?`) passes; null when it cannot be decided. */
export type CompiledTest = (scope: FeelScope, input: unknown) => boolean | null

/** The compiler of one text, as the compilers of its constructs (iterations, ranges, unary tests) see it. */
export interface NodeCompiler {
  /** A node compiled as an expression. */
  expr(node: SyntaxNode): Compiled
  /** The name a node stands for (a name, a key, a string literal's value). */
  name(node: SyntaxNode): string
  /** The node's source text. */
  src(node: SyntaxNode): string
}
