/** Reading lezer-feel syntax nodes: the children that carry meaning, string literals, uses of the input `?`. */
import type { SyntaxNode } from "@lezer/common"

const PUNCTUATION = new Set([
  "(",
  ")",
  "[",
  "]",
  "{",
  "}",
  ",",
  ".",
  "..",
  ":",
  "if",
  "then",
  "else",
  "for",
  "in",
  "return",
  "some",
  "every",
  "satisfies",
  "instance",
  "of",
  "function",
  "between",
  "and",
  "or",
  "external",
  "not",
  "->"
])

export const children = (node: SyntaxNode): SyntaxNode[] => {
  const out: SyntaxNode[] = []
  for (let c = node.firstChild; c !== null; c = c.nextSibling) if (!c.type.isSkipped) out.push(c)
  return out
}

/** Children that carry meaning (no brackets, commas, keywords). */
export const operands = (node: SyntaxNode): SyntaxNode[] => children(node).filter((c) => !PUNCTUATION.has(c.name))

/** A string literal's value: \" \' \\ \n \r \t \uXXXX \UXXXXXX are escapes; any other backslash stays (regex patterns). */
export const unescapeString = (literal: string): string =>
  literal
    .slice(1, -1)
    .replace(/\\(u[0-9a-fA-F]{4}|U[0-9a-fA-F]{6}|["'\\nrt])/g, (_, e: string) => {
      if (e.length > 1) return String.fromCodePoint(parseInt(e.slice(1), 16))
      return e === "n" ? "\n" : e === "r" ? "\r" : e === "t" ? "\t" : e
    })

/** Whether the node mentions the unary-test input `?`. */
export const usesInput = (node: SyntaxNode): boolean => {
  if (node.name === "?") return true
  for (let c = node.firstChild; c !== null; c = c.nextSibling) if (usesInput(c)) return true
  return false
}
