// What the readers need of bpmn-moddle elements: their type, and untyped properties read through these helpers.
export interface Element {
  readonly $type: string
  readonly [property: string]: unknown
}

export const isElement = (value: unknown): value is Element =>
  typeof value === "object" && value !== null && typeof (value as Element).$type === "string"
export const str = (
  element: Element,
  name: string
): string | null => (typeof element[name] === "string" ? (element[name] as string) : null)
export const elements = (element: Element, name: string): ReadonlyArray<Element> =>
  Array.isArray(element[name]) ? (element[name] as Array<unknown>).filter(isElement) : []
export const extensionsOf = (element: Element): ReadonlyArray<Element> => {
  const ext = element["extensionElements"]
  return isElement(ext) ? elements(ext, "values") : []
}
export const extension = (element: Element, type: string): Element | undefined =>
  extensionsOf(element).find((value) => value.$type === type)
