// A streaming pass over untrusted XML before the BPMN reader sees it: bpmn-moddle neither rejects DOCTYPEs (entity
// expansion, external entities) nor bounds size or nesting (measured: 50 MB took 22 s and ~1 GB).
import sax from "sax"
import type { Problem } from "./ProcessGraph.ts"

export interface XmlLimits {
  readonly maxBytes: number
  readonly maxDepth: number
  readonly maxElements: number
}

export const DEFAULT_XML_LIMITS: XmlLimits = { maxBytes: 5 * 1024 * 1024, maxDepth: 200, maxElements: 50_000 }

export const precheckXml = (xml: string, limits: XmlLimits = DEFAULT_XML_LIMITS): ReadonlyArray<Problem> => {
  if (Buffer.byteLength(xml, "utf8") > limits.maxBytes) {
    return [{ elementId: "definitions", message: `the document exceeds ${limits.maxBytes} bytes` }]
  }
  const problems: Array<Problem> = [] // sax refuses any single text or attribute value over its MAX_BUFFER_LENGTH (64 KiB by default); the document's
   // own limit is maxBytes, so a long attribute (an example payload in a model) is fine within it.
  ;(sax as unknown as { MAX_BUFFER_LENGTH: number }).MAX_BUFFER_LENGTH = limits.maxBytes
  const parser = sax.parser(true, { xmlns: false })
  let depth = 0
  let elements = 0
  let stop = false
  const fail = (message: string) => {
    if (!stop) problems.push({ elementId: "definitions", message })
    stop = true
  }
  parser.ondoctype = () => fail("DOCTYPE declarations (and so entities) are not allowed")
  parser.onopentag = () => {
    depth++
    elements++
    if (depth > limits.maxDepth) fail(`elements are nested deeper than ${limits.maxDepth} levels`)
    if (elements > limits.maxElements) fail(`the document has more than ${limits.maxElements} elements`)
  }
  parser.onclosetag = () => {
    depth--
  }
  parser.onerror = (error) => fail(`not well-formed XML: ${error.message.split("\n")[0]}`)
  try {
    // Feed in slices so a violation stops the scan early.
    for (let offset = 0; offset < xml.length && !stop; offset += 64 * 1024) {
      parser.write(xml.slice(offset, offset + 64 * 1024))
    }
    if (!stop) parser.close()
  } catch (error) {
    fail(`not well-formed XML: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`)
  }
  if (!stop && elements === 0) fail("the document has no elements")
  return problems
}
