// `npm run bench:profile`: where the service's time went, from the V8 CPU profile its graceful stop wrote.
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"

interface CpuProfile {
  readonly nodes: ReadonlyArray<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number } }>
  readonly samples: ReadonlyArray<number>
  readonly timeDeltas: ReadonlyArray<number>
}

/** Prints self time by package / file and by function, of the newest profile in `dir`. */
export const summarizeNewestProfile = (dir: string) => {
  const newest = readdirSync(dir).filter((f) => f.endsWith(".cpuprofile")).sort().at(-1)
  if (newest === undefined) return
  const profile = JSON.parse(readFileSync(join(dir, newest), "utf8")) as CpuProfile
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const self = new Map<number, number>()
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)))
  const byFile = new Map<string, number>()
  const byFunction = new Map<string, number>()
  for (const [id, micros] of self) {
    const frame = byId.get(id)!.callFrame
    const url = frame.url.replace(/.*node_modules\//, "").replace(/.*\/src\//, "src/")
    const file = url === ""
      ? `(${frame.functionName})`
      : url.split("/").slice(0, url.startsWith("src/") ? 3 : 2).join("/")
    byFile.set(file, (byFile.get(file) ?? 0) + micros)
    const fn = `${frame.functionName || "(anonymous)"} ${url}:${frame.lineNumber}`
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + micros)
  }
  const total = [...self.values()].reduce((a, b) => a + b, 0)
  const top = (m: Map<string, number>, n: number) =>
    [...m].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, v]) =>
      `  ${((100 * v) / total).toFixed(1).padStart(5)} %  ${k}`
    ).join("\n")
  console.log(
    `\nCPU profile ${join(dir, newest)}: self time by file\n${top(byFile, 20)}\nby function\n${top(byFunction, 20)}`
  )
}
