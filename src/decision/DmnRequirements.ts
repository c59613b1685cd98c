// What a DMN decision element refers to (dmn-moddle elements, loosely typed): required decisions, inputs and knowledge
// by their hrefs, the decisions of imported models, and Camunda's zeebe:versionTag extension.
type El = any

/** The id an href names ("#id", or "namespace#id" for an import). */
export const href = (ref: El): string => {
  const h: string = ref?.href ?? ""
  const i = h.lastIndexOf("#")
  return i >= 0 ? h.slice(i + 1) : h
}

/** The ids of the decisions, the input data and the knowledge models an element requires. */
export const requiredDecisionsOf = (el: El): Array<string> =>
  (el.informationRequirement ?? []).filter((r: El) => r.requiredDecision).map((r: El) => href(r.requiredDecision))
export const requiredInputsOf = (el: El): Array<string> =>
  (el.informationRequirement ?? []).filter((r: El) => r.requiredInput).map((r: El) => href(r.requiredInput))
export const requiredKnowledgeOf = (el: El): Array<string> =>
  (el.knowledgeRequirement ?? []).map((r: El) => href(r.requiredKnowledge))

/** Required decisions of imported models: their href names another namespace than the model's own. */
export const importedDecisionsOf = (el: El, namespace: string) =>
  (el.informationRequirement ?? [])
    .map((r: El) => String(r.requiredDecision?.href ?? ""))
    .filter((h: string) => h.includes("#") && !h.startsWith("#") && h.slice(0, h.lastIndexOf("#")) !== namespace)
    .map((h: string) => ({ namespace: h.slice(0, h.lastIndexOf("#")), id: h.slice(h.lastIndexOf("#") + 1) }))

/** Camunda's `<extensionElements><zeebe:versionTag value="..."/>` on a decision (null: none). */
export const versionTagOf = (el: El): string | null => {
  const tag = (el.extensionElements?.values ?? []).find((v: El) => String(v?.$type ?? "").endsWith(":versionTag"))
  return typeof tag?.value === "string" && tag.value.trim() !== "" ? tag.value.trim() : null
}
