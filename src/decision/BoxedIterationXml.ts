/**
 * DMN 1.5 boxed expressions dmn-moddle (DMN 1.3) does not know — conditional, for, some, every, filter
 * (DMN 1.5 §§ 8.3.x "Boxed conditional / iterator / filter") — would be dropped when reading. Before parsing, each is
 * rewritten into a boxed context that moddle does read, marked with attributes in our own namespace: the element's
 * parts (`if`, `then`, `in`, `return`, ...) become context entries of those names. DecisionModel turns such contexts
 * back into the 1.5 expressions.
 */
export const BOXED_NS = "urn:flowcore:dmn15-boxed"

const PARTS = /<(\/?)((?:[\w.-]+:)?)(if|then|else|in|return|satisfies|match)\s*>/g
const CONTAINERS = /<(\/?)((?:[\w.-]+:)?)(conditional|for|some|every|filter)\b([^>]*)>/g

export const rewriteBoxedIterations = (xml: string): string => {
  if (!/<(?:[\w.-]+:)?(conditional|for|some|every|filter)\b/.test(xml)) return xml
  return xml
    .replace(CONTAINERS, (_, close: string, prefix: string, kind: string, attrs: string) => {
      if (close) return `</${prefix}context>`
      const iterator = /iteratorVariable\s*=\s*"([^"]*)"/.exec(attrs)?.[1]
      const marks = `xmlns:boxed="${BOXED_NS}" boxed:kind="${kind}"${
        iterator === undefined ? "" : ` boxed:iterator="${iterator}"`
      }`
      const rest = attrs.replace(/iteratorVariable\s*=\s*"[^"]*"/, "").replace(/\/\s*$/, "")
      return `<${prefix}context ${marks}${rest}>`
    })
    .replace(
      PARTS,
      (_, close: string, prefix: string, part: string) =>
        close ? `</${prefix}contextEntry>` : `<${prefix}contextEntry><${prefix}variable name="${part}"/>`
    )
}
