// GET /ui: the web UI's files, served by the service itself without a token; nothing outside ui/dist.
import { beforeAll, describe, expect, it } from "vitest"
import { testApp } from "../support/TestApp.ts"
import { ensureUiBuilt } from "../support/UiBundle.ts"

const get = async (path: string) => fetch(`${(await testApp()).baseUrl}${path}`, { redirect: "manual" })

describe("the web UI route", () => {
  beforeAll(ensureUiBuilt)

  it("redirects /ui to /ui/ and answers the app's page, never cached", async () => {
    const bare = await get("/ui")
    expect(bare.status).toBe(301)
    expect(bare.headers.get("location")).toBe("/ui/")
    const page = await get("/ui/")
    expect(page.status).toBe(200)
    expect(page.headers.get("content-type")).toContain("text/html")
    expect(page.headers.get("cache-control")).toBe("no-cache")
    const html = await page.text()
    expect(html).toMatch(/<script type="module" src="app-[\w-]+\.js"><\/script>/)
    // A stale deep link is answered with the app too (it routes by the URL's hash).
    expect(await (await get("/ui/instances/123")).text()).toBe(html)
  })

  it("serves the hashed bundles with their content types, cached for good", async () => {
    const html = await (await get("/ui/")).text()
    const script = /src="(app-[\w-]+\.js)"/.exec(html)![1]!
    const style = /href="(app-[\w-]+\.css)"/.exec(html)![1]!
    const js = await get(`/ui/${script}`)
    expect(js.status).toBe(200)
    expect(js.headers.get("content-type")).toContain("text/javascript")
    expect(js.headers.get("cache-control")).toContain("immutable")
    expect((await js.text()).length).toBeGreaterThan(100_000)
    expect((await get(`/ui/${style}`)).headers.get("content-type")).toContain("text/css")
    expect((await get("/ui/app-missing.js")).status).toBe(404)
  })

  it("serves nothing outside ui/dist", async () => {
    for (const path of ["/ui/%2e%2e/%2e%2e/package.json", "/ui/..%2f..%2fpackage.json", "/ui/%2e%2e%2fsrc%2fApp.ts"]) {
      const reply = await get(path)
      expect([200, 404]).toContain(reply.status)
      const text = await reply.text()
      expect(text).not.toContain("\"dependencies\"")
      expect(text).not.toContain("makeApp")
    }
  })
})
