// The house rules, checked on the sources (ARCHITECTURE.md and the "engine's house" issue):
//  - the pure core (src/engine, src/bpmn) imports nothing from http, services, persistence, schema or actors;
//    persistence imports nothing from services, http or actors;
//  - no import cycles between files of src, nor between its folders (the subfolders of services/, decision/ and
//    persistence/ each count as one);
//  - no source file over 400 lines. Files still over it are listed below with the size they had when the rule came;
//    they may only shrink (a ratchet), and a file that falls under the limit must leave the list;
//  - no function over 80 lines in the pure core (src/engine, src/bpmn), with the same kind of ratchet.
import { readdirSync, readFileSync } from "node:fs"
import { dirname, join, normalize, relative } from "node:path"
import { describe, expect, it } from "vitest"

const SRC = join(process.cwd(), "src")

const sources = (dir: string): Array<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sources(path)
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") ? [path] : []
  })

const files = sources(SRC)
const rel = (path: string) => relative(SRC, path).split("\\").join("/")

/**
 * Relative imports of a file (static, type-only, re-exports and dynamic), resolved to paths under src. `import type`
 * vanishes when TypeScript is stripped, but a type is knowledge of the other file too: it counts for the directions
 * and for cycles.
 */
const importsOf = (path: string): Array<string> => {
  const text = readFileSync(path, "utf8")
  const found: Array<string> = []
  for (
    const match of text.matchAll(
      /^(import|export)(\s+type)?\b[^;]*?\bfrom\s*["'](\.{1,2}\/[^"']+)["']|\bimport\s*\(\s*["'](\.{1,2}\/[^"']+)["']/gm
    )
  ) {
    const specifier = match[3] ?? match[4]
    if (specifier !== undefined) found.push(rel(normalize(join(dirname(path), specifier))))
  }
  return found
}

const allImports = new Map(files.map((path) => [rel(path), importsOf(path)]))
const folderOf = (file: string) => file.split("/")[0]!
/**
 * Folders whose subfolders are layers of their own (each a concept, services/work or persistence/jobs, or a
 * language below the rest, decision/feel): no subfolder of theirs imports one that imports it back, their root files included.
 */
const LAYERED_FOLDERS = ["services", "decision", "persistence"]
/** The part of the house a file belongs to: its top folder, or its subfolder in a layered folder. */
const areaOf = (file: string) => {
  const parts = file.split("/")
  return LAYERED_FOLDERS.includes(parts[0]!) && parts.length > 2 ? `${parts[0]}/${parts[1]}` : parts[0]!
}

/** Every cycle of a graph (node -> the nodes it imports), each as "a -> b -> a", found by one depth-first walk. */
const cyclesIn = (graph: ReadonlyMap<string, Iterable<string>>): Array<string> => {
  const cycles: Array<string> = []
  const state = new Map<string, "visiting" | "done">()
  const visit = (node: string, stack: Array<string>) => {
    if (state.get(node) === "done") return
    if (state.get(node) === "visiting") {
      cycles.push([...stack.slice(stack.indexOf(node)), node].join(" -> "))
      return
    }
    state.set(node, "visiting")
    for (const target of graph.get(node) ?? []) visit(target, [...stack, node])
    state.set(node, "done")
  }
  for (const node of graph.keys()) visit(node, [])
  return cycles
}

const FORBIDDEN: Record<string, ReadonlyArray<string>> = {
  engine: ["http", "services", "persistence", "schema", "actors"],
  bpmn: ["http", "services", "persistence", "schema", "actors", "engine"],
  decision: ["http", "services", "persistence", "schema", "actors", "engine"],
  persistence: ["services", "http", "actors", "cluster"],
  // the cluster's runtime and the entities' protocols, below the services that send to them and the handlers
  cluster: ["http", "services", "actors"]
}

/** Files over 400 lines when the rule came in (as dprint formats them), with their size then: they may only shrink. */
const OVER_THE_LIMIT: Record<string, number> = {}
const LIMIT = 400

/**
 * Functions of the pure core over 80 lines when the rule came (file:line of their first line may move, so they are
 * keyed by file and name), with their length then: they may only shrink, and leave the list under the limit.
 */
const LONG_FUNCTIONS: Record<string, number> = {}
const FUNCTION_LIMIT = 80

/**
 * The length of every named function of a file, formatted by dprint (a closing brace sits at the indentation of the
 * line that opened it, which is what makes this simple scan exact enough). Nested functions count inside their parent.
 */
const functionLengths = (text: string): Array<{ readonly name: string; readonly lines: number }> => {
  const lines = text.split("\n")
  const found: Array<{ name: string; lines: number }> = []
  lines.forEach((line, i) => {
    const named = /^\s*(?:export\s+)?(?:const|function\*?|let)\s+([\w$]+)/.exec(line) ??
      /^\s*(?:static\s+|private\s+|readonly\s+)*([\w$]+)\s*(?:=|:)?\s*\(/.exec(line)
    if (named === null || !/(=>|function\b|\)\s*(?::[^=]+)?|=\s*\()\s*[{(]?\s*$/.test(line)) return
    if (/^\s*(if|for|while|switch|return|else|catch)\b/.test(line)) return
    const indent = /^\s*/.exec(line)![0].length
    for (let j = i + 1; j < lines.length; j++) {
      const next = lines[j]!
      const depth = /^\s*/.exec(next)![0].length
      if (next.trim() === "") continue
      if (depth < indent) break
      if (depth === indent) {
        // the end of a signature written over several lines: the body follows
        if (/^\s*\).*[{(]\s*$/.test(next)) continue
        if (/^\s*[})\]]/.test(next)) found.push({ name: named[1]!, lines: j - i + 1 })
        break
      }
    }
  })
  return found
}

describe("the house", () => {
  it("import directions hold", () => {
    const violations: Array<string> = []
    for (const [file, imports] of allImports) {
      const forbidden = FORBIDDEN[folderOf(file)] ?? []
      for (const target of imports) if (forbidden.includes(folderOf(target))) violations.push(`${file} -> ${target}`)
    }
    expect(violations).toEqual([])
  })

  // Type imports count too: a circle of types is still parts that cannot be understood one without the other (the
  // engine's parts reach each other through engine/Run.ts, an interface, not through the class that wires them).
  it("no file imports itself through a cycle, types included", () => {
    const files = new Map([...allImports].map(([file, imports]) => [file, imports.filter((t) => allImports.has(t))]))
    expect(cyclesIn(files)).toEqual([])
  })

  // A folder that imports another which imports it back is one concept cut in two: the folders stand in layers.
  it("no folder imports itself through a cycle (subfolders of services/, decision/ and persistence/ count apart)", () => {
    const areas = new Map<string, Set<string>>()
    for (const [file, imports] of allImports) {
      const from = areaOf(file)
      const targets = areas.get(from) ?? new Set<string>()
      for (const target of imports) if (allImports.has(target) && areaOf(target) !== from) targets.add(areaOf(target))
      areas.set(from, targets)
    }
    expect(cyclesIn(areas)).toEqual([])
  })

  it(`no source file is over ${LIMIT} lines (the listed ones only shrink)`, () => {
    const linesOf = (text: string) => text.split("\n").length - (text.endsWith("\n") ? 1 : 0)
    const sizes = new Map(files.map((path) => [rel(path), linesOf(readFileSync(path, "utf8"))]))
    const over = [...sizes].filter(([file, lines]) => lines > (OVER_THE_LIMIT[file] ?? LIMIT)).map(([file, lines]) =>
      `${file}: ${lines}`
    )
    expect(over).toEqual([])
    const fixed = Object.keys(OVER_THE_LIMIT).filter((file) => (sizes.get(file) ?? 0) <= LIMIT)
    expect(fixed, "under the limit now: take them off OVER_THE_LIMIT").toEqual([])
  })

  it(`no function of the pure core is over ${FUNCTION_LIMIT} lines (the listed ones only shrink)`, () => {
    const long = new Map<string, number>()
    for (const path of files) {
      const file = rel(path)
      if (!file.startsWith("engine/") && !file.startsWith("bpmn/")) continue
      for (const { name, lines } of functionLengths(readFileSync(path, "utf8"))) {
        const key = `${file} ${name}`
        if (lines > FUNCTION_LIMIT) long.set(key, Math.max(lines, long.get(key) ?? 0))
      }
    }
    const over = [...long].filter(([key, lines]) => lines > (LONG_FUNCTIONS[key] ?? FUNCTION_LIMIT))
      .map(([key, lines]) => `${key}: ${lines}`)
    expect(over).toEqual([])
    const fixed = Object.keys(LONG_FUNCTIONS).filter((key) => !long.has(key))
    expect(fixed, "under the limit now: take them off LONG_FUNCTIONS").toEqual([])
  })
})
