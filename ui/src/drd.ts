// The decision requirements graph (DRD) of a DMN model, drawn as SVG from its XML: decisions, input data, business
// knowledge models and knowledge sources, joined by information (solid, filled arrow), knowledge (dashed, open arrow)
// and authority (dashed, dot) requirements. The model's own diagram positions (DMNDI shapes) are used when every
// element has one; otherwise the graph is laid out in rows: what nothing requires at the top, each element under
// what requires it (the way DMN modellers draw it). dmn-js is not bundled; this draws what the XML says.

type Kind = "decision" | "inputData" | "businessKnowledgeModel" | "knowledgeSource"
type Requirement = "information" | "knowledge" | "authority"

export interface DrdNode {
  readonly id: string
  readonly name: string
  readonly kind: Kind
}
export interface DrdEdge {
  /** The required element. */
  readonly from: string
  /** The element that requires it. */
  readonly to: string
  readonly kind: Requirement
}
export interface Drd {
  readonly nodes: ReadonlyArray<DrdNode>
  readonly edges: ReadonlyArray<DrdEdge>
  /** DMNDI bounds by element id, when the model has them. */
  readonly bounds: ReadonlyMap<string, Box>
}
interface Box {
  readonly x: number
  readonly y: number
  readonly width: number
  readonly height: number
}

const KINDS: ReadonlyArray<Kind> = ["decision", "inputData", "businessKnowledgeModel", "knowledgeSource"]
const REQUIREMENTS: ReadonlyArray<readonly [string, Requirement]> = [
  ["informationRequirement", "information"],
  ["knowledgeRequirement", "knowledge"],
  ["authorityRequirement", "authority"]
]
const href = (element: Element) => (element.getAttribute("href") ?? "").replace(/^.*#/, "")

export const readDrd = (xml: string): Drd => {
  const document = new DOMParser().parseFromString(xml, "application/xml")
  const nodes: Array<DrdNode> = []
  const edges: Array<DrdEdge> = []
  for (const kind of KINDS) {
    for (const element of document.getElementsByTagNameNS("*", kind)) {
      // Only the model's own elements (a decision service also lists decisions, by href, not as elements).
      const id = element.getAttribute("id") ?? element.getAttribute("name") ?? ""
      if (id === "" || element.parentElement?.localName !== "definitions") continue
      nodes.push({ id, name: element.getAttribute("name") ?? id, kind })
      for (const [tag, requirement] of REQUIREMENTS) {
        for (const link of [...element.children].filter((child) => child.localName === tag)) {
          for (const target of link.children) {
            const from = href(target)
            if (from !== "") edges.push({ from, to: id, kind: requirement })
          }
        }
      }
    }
  }
  const known = new Set(nodes.map((node) => node.id))
  const bounds = new Map<string, Box>()
  for (const shape of document.getElementsByTagNameNS("*", "DMNShape")) {
    const box = [...shape.children].find((child) => child.localName === "Bounds")
    const ref = shape.getAttribute("dmnElementRef")
    if (box === undefined || ref === null) continue
    const number = (name: string) => Number(box.getAttribute(name) ?? "NaN")
    const value = { x: number("x"), y: number("y"), width: number("width"), height: number("height") }
    if (Object.values(value).every(Number.isFinite)) bounds.set(ref, value)
  }
  return { nodes, edges: edges.filter((edge) => known.has(edge.from) && known.has(edge.to)), bounds }
}

const SIZE: Record<Kind, { readonly width: number; readonly height: number }> = {
  decision: { width: 180, height: 70 },
  businessKnowledgeModel: { width: 170, height: 60 },
  knowledgeSource: { width: 160, height: 60 },
  inputData: { width: 160, height: 48 }
}
const GAP_X = 36
const GAP_Y = 84

/**
 * Rows: what nothing requires at the top, each element one row below the lowest element that requires it (so an input
 * sits right under the decision that needs it, not under an unrelated one); each row ordered under its requirers.
 */
const layout = (drd: Drd): ReadonlyMap<string, Box> => {
  const requiredBy = new Map<string, Array<string>>()
  for (const edge of drd.edges) requiredBy.set(edge.from, [...(requiredBy.get(edge.from) ?? []), edge.to])
  const rank = new Map<string, number>()
  const rankOf = (id: string, seen: Set<string>): number => {
    const known = rank.get(id)
    if (known !== undefined) return known
    if (seen.has(id)) return 0 // a cycle (invalid DMN): break it
    seen.add(id)
    const value = Math.max(-1, ...(requiredBy.get(id) ?? []).map((to) => rankOf(to, seen))) + 1
    rank.set(id, value)
    return value
  }
  for (const node of drd.nodes) rankOf(node.id, new Set())
  const bottom = Math.max(0, ...rank.values())
  const rows: Array<Array<DrdNode>> = Array.from({ length: bottom + 1 }, () => [])
  for (const node of drd.nodes) rows[rank.get(node.id)!]!.push(node)
  const x = new Map<string, number>()
  const boxes = new Map<string, Box>()
  const widest = Math.max(
    ...rows.map((row) => row.reduce((sum, node) => sum + SIZE[node.kind].width + GAP_X, -GAP_X))
  )
  let y = 0
  rows.forEach((row, index) => {
    if (index > 0) {
      // Under the elements that require them (their average position), in that order.
      const centre = (node: DrdNode) => {
        const above = (requiredBy.get(node.id) ?? []).flatMap((id) => (x.has(id) ? [x.get(id)!] : []))
        return above.length === 0 ? Number.MAX_SAFE_INTEGER : above.reduce((a, b) => a + b, 0) / above.length
      }
      row.sort((a, b) => centre(a) - centre(b))
    }
    const width = row.reduce((sum, node) => sum + SIZE[node.kind].width + GAP_X, -GAP_X)
    const height = Math.max(...row.map((node) => SIZE[node.kind].height))
    let left = (widest - width) / 2
    for (const node of row) {
      const size = SIZE[node.kind]
      boxes.set(node.id, { x: left, y: y + (height - size.height) / 2, ...size })
      x.set(node.id, left + size.width / 2)
      left += size.width + GAP_X
    }
    y += height + GAP_Y
  })
  return boxes
}

const SVG = "http://www.w3.org/2000/svg"
const svg = <K extends keyof SVGElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | number>,
  ...children: ReadonlyArray<SVGElement | string>
) => {
  const element = document.createElementNS(SVG, tag)
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value))
  for (const child of children) element.append(child)
  return element
}

/** Words into lines of about `width` characters, at most three (the last one cut with an ellipsis). */
const wrap = (text: string, width: number) => {
  const lines: Array<string> = []
  let line = ""
  for (const word of text.split(/\s+/)) {
    if (line !== "" && (line + " " + word).length > width) {
      lines.push(line)
      line = word
    } else line = line === "" ? word : `${line} ${word}`
  }
  if (line !== "") lines.push(line)
  return lines.length <= 3 ? lines : [...lines.slice(0, 2), `${lines[2]!.slice(0, width - 1)}…`]
}

const shape = (kind: Kind, box: Box): SVGElement => {
  const { x, y, width: w, height: h } = box
  switch (kind) {
    case "decision":
      return svg("rect", { x, y, width: w, height: h, rx: 3, class: "drd-shape" })
    case "inputData":
      return svg("rect", { x, y, width: w, height: h, rx: h / 2, class: "drd-shape" })
    case "businessKnowledgeModel": {
      const c = 14
      return svg("polygon", {
        points: `${x + c},${y} ${x + w},${y} ${x + w},${y + h - c} ${x + w - c},${y + h} ${x},${y + h} ${x},${y + c}`,
        class: "drd-shape"
      })
    }
    case "knowledgeSource":
      return svg("path", {
        d: `M${x},${y} H${x + w} V${y + h - 8} C${x + w * 0.75},${y + h - 22} ${x + w * 0.25},${y + h + 8} ${x},${
          y + h - 8
        } Z`,
        class: "drd-shape"
      })
  }
}

/** Where the line from the centre of `box` towards (tx, ty) leaves it. */
const border = (box: Box, tx: number, ty: number) => {
  const cx = box.x + box.width / 2
  const cy = box.y + box.height / 2
  const dx = tx - cx
  const dy = ty - cy
  if (dx === 0 && dy === 0) return { x: cx, y: cy }
  const scale = Math.min(
    dx === 0 ? Infinity : box.width / 2 / Math.abs(dx),
    dy === 0 ? Infinity : box.height / 2 / Math.abs(dy)
  )
  return { x: cx + dx * scale, y: cy + dy * scale }
}

export interface DrawnDrd {
  readonly element: SVGSVGElement
  readonly nodeCount: number
}

/**
 * The graph as an SVG element; `current` (a decision id) is highlighted, `open` is called when a decision is clicked
 * (decisions the model has but `open` cannot resolve are drawn, not clickable).
 */
export const drawDrd = (
  drd: Drd,
  options: { readonly current?: string; readonly canOpen: (id: string) => boolean; readonly open: (id: string) => void }
): DrawnDrd => {
  const ownBounds = drd.nodes.every((node) => drd.bounds.has(node.id))
  const boxes = ownBounds ? drd.bounds : layout(drd)
  const all = [...boxes.values()]
  const pad = 24
  const minX = Math.min(...all.map((box) => box.x)) - pad
  const minY = Math.min(...all.map((box) => box.y)) - pad
  const maxX = Math.max(...all.map((box) => box.x + box.width)) + pad
  const maxY = Math.max(...all.map((box) => box.y + box.height)) + pad
  const root = svg("svg", {
    viewBox: `${minX} ${minY} ${maxX - minX} ${maxY - minY}`,
    width: maxX - minX,
    height: maxY - minY,
    class: "drd",
    role: "img",
    "aria-label": "Decision requirements graph"
  })
  root.append(
    svg(
      "defs",
      {},
      svg(
        "marker",
        { id: "drd-arrow", viewBox: "0 0 10 10", refX: 10, refY: 5, markerWidth: 9, markerHeight: 9, orient: "auto" },
        svg("path", { d: "M0,0 L10,5 L0,10 Z", class: "drd-arrow-filled" })
      ),
      svg(
        "marker",
        { id: "drd-open", viewBox: "0 0 10 10", refX: 10, refY: 5, markerWidth: 10, markerHeight: 10, orient: "auto" },
        svg("path", { d: "M0,0 L10,5 L0,10", class: "drd-arrow-open" })
      ),
      svg(
        "marker",
        { id: "drd-dot", viewBox: "0 0 10 10", refX: 5, refY: 5, markerWidth: 8, markerHeight: 8 },
        svg("circle", { cx: 5, cy: 5, r: 4, class: "drd-arrow-filled" })
      )
    )
  )
  for (const edge of drd.edges) {
    const from = boxes.get(edge.from)
    const to = boxes.get(edge.to)
    if (from === undefined || to === undefined) continue
    const start = border(from, to.x + to.width / 2, to.y + to.height / 2)
    const end = border(to, from.x + from.width / 2, from.y + from.height / 2)
    root.append(svg("line", {
      x1: start.x,
      y1: start.y,
      x2: end.x,
      y2: end.y,
      class: `drd-edge drd-edge-${edge.kind}`,
      "data-from": edge.from,
      "data-to": edge.to,
      "marker-end": `url(#${
        edge.kind === "information" ? "drd-arrow" : edge.kind === "knowledge" ? "drd-open" : "drd-dot"
      })`
    }))
  }
  for (const node of drd.nodes) {
    const box = boxes.get(node.id)!
    const clickable = node.kind === "decision" && node.id !== options.current && options.canOpen(node.id)
    const lines = wrap(node.name, Math.max(10, Math.floor(box.width / 8.2)))
    const lineHeight = 16
    const group = svg(
      "g",
      {
        class: `drd-node drd-${node.kind}${node.id === options.current ? " drd-current" : ""}${
          clickable ? " drd-link" : ""
        }`,
        "data-id": node.id
      },
      svg(
        "title",
        {},
        `${node.name} (${
          node.kind === "businessKnowledgeModel"
            ? "business knowledge model"
            : node.kind === "inputData"
            ? "input data"
            : node.kind === "knowledgeSource"
            ? "knowledge source"
            : "decision"
        })`
      ),
      shape(node.kind, box),
      ...lines.map((line, index) =>
        svg("text", {
          x: box.x + box.width / 2,
          y: box.y + box.height / 2 + (index - (lines.length - 1) / 2) * lineHeight,
          "dominant-baseline": "central",
          "text-anchor": "middle"
        }, line)
      )
    )
    if (clickable) {
      group.setAttribute("tabindex", "0")
      group.setAttribute("role", "link")
      group.setAttribute("aria-label", `Open decision ${node.name}`)
      group.addEventListener("click", () => options.open(node.id))
      group.addEventListener("keydown", (event) => {
        if (event.key === "Enter") options.open(node.id)
      })
    }
    root.append(group)
  }
  return { element: root, nodeCount: drd.nodes.length }
}
