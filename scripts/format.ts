// `npm run format` formats the TypeScript sources (src, test, bench, scripts) with dprint's TypeScript formatter, run
// as WebAssembly from npm (no native binary, nothing fetched); `npm run format:check` lists the files that differ and
// fails (.ci/run checks it). One style: 120 columns, no semicolons, double quotes, no trailing commas.
import { createContext } from "@dprint/formatter"
import { readdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"

const check = process.argv.includes("--check")
const ROOTS = ["src", "test", "bench", "scripts", "clients", "ui"]

const context = createContext({ lineWidth: 120, indentWidth: 2, useTabs: false, newLineKind: "lf" })
context.addPlugin(readFileSync(new URL("../node_modules/@dprint/typescript/plugin.wasm", import.meta.url)), {
  semiColons: "asi",
  quoteStyle: "alwaysDouble",
  trailingCommas: "never",
  operatorPosition: "maintain",
  "arrowFunction.useParentheses": "force"
})

const files = (dir: string): Array<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : files(path)
    return entry.name.endsWith(".ts") ? [path] : []
  })

const differing: Array<string> = []
for (const file of ROOTS.flatMap(files)) {
  const text = readFileSync(file, "utf8")
  const formatted = context.formatText({ filePath: file, fileText: text })
  if (formatted === text) continue
  differing.push(file)
  if (!check) writeFileSync(file, formatted)
}
if (check && differing.length > 0) {
  console.error(`not formatted (run npm run format):\n${differing.map((f) => `  ${f}`).join("\n")}`)
  process.exit(1)
}
console.log(check ? "all files formatted" : `formatted ${differing.length} file(s)`)
