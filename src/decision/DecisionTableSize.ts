// The size of the DMN document a JSON decision table becomes, known before it is written: the document must stay
// within the limits every DMN document has (bpmn/XmlPrecheck.ts), and a table past them is refused at once, naming
// the table's fields, instead of after its FEEL was checked and its XML written (60,000 rules took 9 to 12 s).
import { DEFAULT_XML_LIMITS } from "../bpmn/XmlPrecheck.ts"
import type { Problem } from "./DecisionModel.ts"

interface SizedTable {
  readonly inputs: ReadonlyArray<{ readonly expression: string }>
  readonly outputs: ReadonlyArray<{ readonly allowedValues?: ReadonlyArray<string> }>
  readonly rules: ReadonlyArray<{
    readonly inputEntries: ReadonlyArray<string>
    readonly outputEntries: ReadonlyArray<string>
    readonly annotations?: ReadonlyArray<string>
  }>
}

/**
 * What is wrong with the table's size: the elements its document has (as decisionTableToDmnXml writes it: each entry
 * is an element holding a text element) and the bytes of its texts alone, which the document holds at least.
 */
export const tableSizeProblems = (table: SizedTable): ReadonlyArray<Problem> => {
  const { maxElements, maxBytes } = DEFAULT_XML_LIMITS
  let elements = 3 + table.inputs.length * 3 // definitions, decision, table; each input, its expression and text
  let bytes = 0
  for (const input of table.inputs) bytes += Buffer.byteLength(input.expression)
  for (const output of table.outputs) {
    elements += output.allowedValues === undefined ? 1 : 3
    for (const value of output.allowedValues ?? []) bytes += Buffer.byteLength(value)
  }
  for (const rule of table.rules) {
    if (elements > maxElements || bytes > maxBytes) break
    const texts = [...rule.inputEntries, ...rule.outputEntries, ...rule.annotations ?? []]
    elements += 1 + 2 * texts.length
    for (const text of texts) bytes += Buffer.byteLength(text)
  }
  if (elements > maxElements) {
    return [{
      path: "rules",
      message: `the table is too large: its ${table.rules.length} rules make a DMN document of more than ` +
        `${maxElements} elements`
    }]
  }
  return bytes > maxBytes
    ? [{ path: "rules", message: `the table is too large: its entries alone are more than ${maxBytes} bytes` }]
    : []
}
