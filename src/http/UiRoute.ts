// GET /ui: the web UI (cockpit and tasklist), a static bundle that `npm install` builds into ui/dist (the root
// package's prepare script runs scripts/build-ui.ts). Public like the API explorer: the page itself holds no data, it
// signs in and then calls /api/v1 with the person's token. Hashed asset names are cached for good; index.html never.
// Without a bundle, /ui answers 503 with what to run.
import { Effect } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { readFile } from "node:fs/promises"
import { extname, normalize } from "node:path"
import { fileURLToPath } from "node:url"

const DIST = fileURLToPath(new URL("../../ui/dist/", import.meta.url))

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".map": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".woff": "font/woff",
  ".woff2": "font/woff2",
  ".ttf": "font/ttf",
  ".eot": "application/vnd.ms-fontobject",
  ".txt": "text/plain; charset=utf-8"
}

const NOT_BUILT = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>flowcore UI not built</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 4rem auto; line-height: 1.5">
<h1>The web UI is not built</h1>
<p>This server serves the UI from <code>ui/dist</code>, which <code>npm install</code> builds. Run
<code>npm run build:ui</code> (or <code>npm install</code>) in the service's directory, then reload this page.</p>
<p>The REST API works without it: <a href="/swagger-ui.html">API explorer</a>.</p>
</body></html>`

const read = (file: string) =>
  Effect.promise(() => readFile(file).then((bytes) => new Uint8Array(bytes), () => undefined))

/** The file under ui/dist a /ui path names (index.html for the root), or undefined if it leaves ui/dist. */
const fileFor = (pathname: string): string | undefined => {
  let relative: string
  try {
    relative = decodeURIComponent(pathname.replace(/^\/ui\/?/, ""))
  } catch {
    return undefined
  }
  if (relative === "" || relative.endsWith("/")) relative += "index.html"
  const file = normalize(DIST + relative)
  return file.startsWith(DIST) ? file : undefined
}

const serve = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  const pathname = request.url.split("?")[0] ?? request.url
  if (pathname === "/ui") return HttpServerResponse.redirect("/ui/", { status: 301 })
  const index = yield* read(DIST + "index.html")
  if (index === undefined) {
    return HttpServerResponse.html(NOT_BUILT).pipe(HttpServerResponse.setStatus(503))
  }
  const file = fileFor(pathname)
  const bytes = file === undefined ? undefined : yield* read(file)
  // The UI routes by the URL's hash, so any other path under /ui is a stale link: answer the app.
  if (file === undefined || bytes === undefined || file.endsWith("index.html")) {
    if (file !== undefined && extname(file) !== "" && !file.endsWith(".html")) {
      return HttpServerResponse.text(`no file ${pathname}`, { status: 404 })
    }
    return HttpServerResponse.uint8Array(index, {
      contentType: CONTENT_TYPES[".html"]!,
      headers: { "cache-control": "no-cache" }
    })
  }
  return HttpServerResponse.uint8Array(bytes, {
    contentType: CONTENT_TYPES[extname(file)] ?? "application/octet-stream",
    headers: { "cache-control": "public, max-age=31536000, immutable" }
  })
})

export const UiRoute = HttpRouter.use(Effect.fnUntraced(function*(router) {
  // "/ui/*" matches "/ui" as well.
  yield* router.add("GET", "/ui/*", serve)
}))
