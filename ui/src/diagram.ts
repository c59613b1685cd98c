// A process diagram drawn by bpmn-js (NavigatedViewer: pan and zoom, no editing), with counts and markers on its
// elements. Models deployed as JSON graphs come back as XML without diagram interchange; bpmn-auto-layout lays
// those out first.
import "bpmn-js/dist/assets/diagram-js.css"
import "bpmn-js/dist/assets/bpmn-js.css"
import { layoutProcess } from "bpmn-auto-layout"
import NavigatedViewer from "bpmn-js/lib/NavigatedViewer"
import type Canvas from "diagram-js/lib/core/Canvas"
import type ElementRegistry from "diagram-js/lib/core/ElementRegistry"
import type Overlays from "diagram-js/lib/features/overlays/Overlays"
import { h } from "./dom.ts"

export interface ElementCounts {
  readonly active?: number
  readonly incidents?: number
}

export interface Diagram {
  readonly element: HTMLElement
  /** Counts as badges at the element's foot: active (blue, left), incidents (red, right; also on the collapsed
   * subprocesses that hold the element). */
  readonly showCounts: (counts: ReadonlyMap<string, ElementCounts>) => void
  /** Marks elements with a CSS class (styles.css: .marker-active, .marker-incident, .marker-visited); an incident
   * marks the collapsed subprocesses that hold the element too. */
  readonly mark: (elementIds: Iterable<string>, marker: "marker-active" | "marker-incident" | "marker-visited") => void
  readonly destroy: () => void
}

const hasLayout = (xml: string) => /<([\w-]+:)?BPMNShape[\s>]/.test(xml)

const BPMN = "http://www.omg.org/spec/BPMN/20100524/MODEL"

/**
 * The XML of JSON deployments names a flow's ends only on the flow (sourceRef, targetRef); bpmn-auto-layout walks
 * the elements' incoming / outgoing references, so those are added first.
 */
const withFlowReferences = (xml: string): string => {
  const document = new DOMParser().parseFromString(xml, "application/xml")
  const elements = new Map<string, Element>()
  for (const element of document.getElementsByTagNameNS(BPMN, "*")) {
    const id = element.getAttribute("id")
    if (id !== null) elements.set(id, element)
  }
  const refer = (element: Element | undefined, kind: "incoming" | "outgoing", flowId: string) => {
    if (element === undefined) return
    const existing = [...element.children].filter((child) => child.namespaceURI === BPMN && child.localName === kind)
    if (existing.some((child) => child.textContent?.trim() === flowId)) return
    const reference = document.createElementNS(BPMN, element.prefix === null ? kind : `${element.prefix}:${kind}`)
    reference.textContent = flowId
    // After documentation and extension elements, before event definitions and the like.
    const before = [...element.children].find((child) =>
      !["documentation", "extensionElements", "incoming", "outgoing"].includes(child.localName)
    )
    element.insertBefore(reference, before ?? null)
  }
  for (const flow of document.getElementsByTagNameNS(BPMN, "sequenceFlow")) {
    const id = flow.getAttribute("id")
    if (id === null) continue
    refer(elements.get(flow.getAttribute("sourceRef") ?? ""), "outgoing", id)
    refer(elements.get(flow.getAttribute("targetRef") ?? ""), "incoming", id)
  }
  return new XMLSerializer().serializeToString(document)
}

export const drawDiagram = async (xml: string): Promise<Diagram> => {
  const element = h("div", { class: "diagram", "data-testid": "diagram" })
  // bpmn-js measures its container: attach it (off-screen) while importing.
  element.style.visibility = "hidden"
  document.body.appendChild(element)
  const viewer = new NavigatedViewer({ container: element })
  try {
    await viewer.importXML(hasLayout(xml) ? xml : await layoutProcess(withFlowReferences(xml)))
  } catch (error) {
    viewer.destroy()
    element.remove()
    throw new Error(`the diagram could not be drawn: ${error instanceof Error ? error.message : String(error)}`)
  }
  element.remove()
  element.style.visibility = ""
  const canvas = viewer.get<Canvas>("canvas")
  const overlays = viewer.get<Overlays>("overlays")
  const registry = viewer.get<ElementRegistry>("elementRegistry")
  // Fit once the element is in the page (and again if its size changes).
  const fit = () => {
    // "auto" centres the diagram (diagram-js accepts it; its typings only name a point).
    if (element.clientWidth > 0) canvas.zoom("fit-viewport", "auto" as unknown as { x: number; y: number })
  }
  const observer = new ResizeObserver(fit)
  observer.observe(element)
  const known = (id: string) => registry.get(id) !== undefined
  // Embedded subprocesses laid out collapsed are drawn on planes of their own (`<id>_plane`, the drill-down): an
  // incident inside one is also shown on the subprocess's shape, so it is seen on the main diagram.
  const main = canvas.getRootElement()
  const enclosing = (id: string): Array<string> => {
    const found: Array<string> = []
    let root = canvas.findRoot(id)
    while (root !== undefined && root !== main && root.id.endsWith("_plane")) {
      const shapeId = root.id.slice(0, -"_plane".length)
      if (!known(shapeId) || found.includes(shapeId)) break
      found.push(shapeId)
      root = canvas.findRoot(shapeId)
    }
    return found
  }
  const withEnclosing = (counts: ReadonlyMap<string, ElementCounts>) => {
    const all = new Map<string, ElementCounts>(counts)
    for (const [id, { incidents = 0 }] of counts) {
      if (incidents === 0) continue
      for (const shapeId of enclosing(id)) {
        const entry = all.get(shapeId) ?? {}
        all.set(shapeId, { ...entry, incidents: (entry.incidents ?? 0) + incidents })
      }
    }
    return all
  }
  return {
    element,
    showCounts: (counts) => {
      overlays.remove({ type: "count" })
      for (const [id, { active = 0, incidents = 0 }] of withEnclosing(counts)) {
        if (!known(id)) continue
        if (active > 0) {
          overlays.add(id, "count", {
            position: { bottom: 10, left: -10 },
            html: h("span", { class: "count count-active", "data-node": id, title: `${active} active` }, String(active))
          })
        }
        if (incidents > 0) {
          overlays.add(id, "count", {
            position: { bottom: 10, right: 10 },
            html: h("span", {
              class: "count count-incident",
              "data-node": id,
              title: `${incidents} with an incident`
            }, String(incidents))
          })
        }
      }
    },
    mark: (elementIds, marker) => {
      for (const id of elementIds) {
        if (!known(id)) continue
        canvas.addMarker(id, marker)
        if (marker === "marker-incident") { for (const shapeId of enclosing(id)) canvas.addMarker(shapeId, marker) }
      }
    },
    destroy: () => {
      observer.disconnect()
      viewer.destroy()
    }
  }
}
