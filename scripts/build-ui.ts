// Builds the web UI (ui/src) into ui/dist, which the server serves at /ui: one JavaScript and one CSS bundle with
// hashed names (bpmn-js, form-js and their fonts included, nothing from a CDN) and an index.html naming them.
// Run by the root package's prepare script, so `npm install` / `npm ci` build it; `npm run build:ui` rebuilds it.
// Without esbuild (an install that omitted devDependencies) it says so and leaves the server to answer that /ui is
// not built.
import { mkdir, rm, writeFile } from "node:fs/promises"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("../", import.meta.url))
const dist = `${root}ui/dist`

let esbuild: typeof import("esbuild")
try {
  esbuild = await import("esbuild")
} catch {
  console.warn("build-ui: esbuild is not installed (devDependencies omitted?); /ui will say the UI is not built")
  process.exit(0)
}

const started = Date.now()
await rm(dist, { recursive: true, force: true })
await mkdir(dist, { recursive: true })
const result = await esbuild.build({
  absWorkingDir: root,
  entryPoints: { app: "ui/src/main.ts" },
  bundle: true,
  format: "esm",
  platform: "browser",
  target: "es2022",
  minify: true,
  sourcemap: "linked",
  legalComments: "linked",
  outdir: dist,
  entryNames: "[name]-[hash]",
  assetNames: "assets/[name]-[hash]",
  loader: { ".woff": "file", ".woff2": "file", ".ttf": "file", ".eot": "file", ".svg": "file" },
  define: { "process.env.NODE_ENV": "\"production\"" },
  metafile: true,
  logLevel: "warning"
})

const outputs = Object.keys(result.metafile.outputs).map((path) => path.slice(path.lastIndexOf("/") + 1))
const script = outputs.find((name) => name.startsWith("app-") && name.endsWith(".js"))
const style = outputs.find((name) => name.startsWith("app-") && name.endsWith(".css"))
if (script === undefined || style === undefined) throw new Error(`build-ui: no app bundle in ${outputs.join(", ")}`)

await writeFile(
  `${dist}/index.html`,
  `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>flowcore</title>
  <link rel="icon" href="data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E%3Crect width='16' height='16' rx='4' fill='%232563eb'/%3E%3Cpath d='M4 8h3l2-3v6l2-3h1' stroke='white' fill='none' stroke-width='1.5'/%3E%3C/svg%3E">
  <link rel="stylesheet" href="${style}">
  <script type="module" src="${script}"></script>
</head>
<body><div id="app"></div></body>
</html>
`
)
const bytes = Object.values(result.metafile.outputs).reduce((sum, output) => sum + output.bytes, 0)
console.log(`build-ui: ui/dist (${(bytes / 1024 / 1024).toFixed(1)} MiB) in ${Date.now() - started} ms`)
