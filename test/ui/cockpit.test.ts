// The web UI in a real browser: Debian's Chromium driven by playwright-core against the app booted in-process. A
// person signs in, sees a process's diagram with its counts, finds an instance, retries its incident, and completes a
// task through its form; edits variables per scope, moves a token and recovers incidents (edit and retry, rollback,
// restart); evaluates decisions (a JSON table, an imported DMN file) and sees the matched rules. Each screen is saved
// to test-artifacts/ui/. Without Chromium the test is skipped (locally) or fails (CI=true; .ci/run installs it).
import { createHash } from "node:crypto"
import { existsSync, mkdirSync } from "node:fs"
import { type Browser, chromium, type Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Caller, givenTenant, uniqueName } from "../support/Scenario.ts"
import { ensureUiBuilt } from "../support/UiBundle.ts"

const CHROMIUM = [process.env["CHROMIUM_PATH"], "/usr/bin/chromium", "/usr/bin/chromium-browser"]
  .find((path): path is string => path !== undefined && path !== "" && existsSync(path))
const IN_CI = process.env["CI"] === "true"
const ARTIFACTS = new URL("../../test-artifacts/ui/", import.meta.url).pathname

if (CHROMIUM === undefined && !IN_CI) {
  console.warn("test/ui: SKIPPED — no Chromium (apt-get install -y chromium, or set CHROMIUM_PATH)")
}

describe.skipIf(CHROMIUM === undefined && !IN_CI)("web UI in Chromium", () => {
  let browser: Browser
  let page: Page
  let admin: Caller
  let tenantId: string
  let username: string
  const password = "ui-password-123"
  const processKey = uniqueName("ui-order")
  const jobType = `${processKey}-charge`
  let deploymentId: string
  let instanceId: string
  let shipment: string
  const shippingKey = uniqueName("ui-shipping")

  /** The whole page from its top (so the sticky header stays on top); a dialog in the window only (its backdrop). */
  const shot = async (name: string, options: { readonly dialog?: boolean } = {}) => {
    if (options.dialog !== true) await page.evaluate(() => window.scrollTo(0, 0))
    await page.screenshot({ path: `${ARTIFACTS}${name}.png`, fullPage: options.dialog !== true })
  }

  beforeAll(async () => {
    if (CHROMIUM === undefined) throw new Error("CI=true but no Chromium: apt-get install -y chromium")
    ensureUiBuilt()
    mkdirSync(ARTIFACTS, { recursive: true })
    const tenant = await givenTenant()
    tenantId = tenant.id
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

  it("shows a process's diagram with the instances waiting and failing on its elements", async () => {
    const formKey = `${processKey}-form`
    const form = (await admin.post("/form-definitions", {
      name: "Approve order",
      key: formKey,
      schema: {
        type: "default",
        id: formKey,
        schemaVersion: 16,
        components: [
          { type: "textfield", key: "approver", id: "approver", label: "Approver", validate: { required: true } },
          { type: "checkbox", key: "approved", id: "approved", label: "Approved" }
        ]
      }
    })).ok(201)
    for (const step of ["validate", "publish", "deploy"]) {
      ;(await admin.post(`/form-definitions/${form.id}/${step}`)).ok()
    }
    deploymentId = (await admin.deploy({
      id: processKey,
      name: "Order approval",
      nodes: [
        { id: "received", type: "startEvent", name: "Order received" },
        { id: "charge", type: "serviceTask", name: "Charge card", properties: { taskType: jobType, retries: 1 } },
        { id: "approve", type: "userTask", name: "Approve order", properties: { formKey } },
        { id: "done", type: "endEvent", name: "Done" }
      ],
      flows: [
        { id: "f1", source: "received", target: "charge" },
        { id: "f2", source: "charge", target: "approve" },
        { id: "f3", source: "approve", target: "done" }
      ]
    })).id
    instanceId = (await admin.start(deploymentId, { orderId: "A-17", amount: 120 })).id
    await admin.start(deploymentId, { orderId: "A-18", amount: 80 })
    const [job] = await admin.activateJobs(jobType, { maxJobsToActivate: 1 })
    expect(job.processInstanceId).toBe(instanceId)
    ;(await admin.post(`/jobs/${job.id}/fail`, { retries: 0, errorMessage: "card service unavailable" })).ok()

    await page.locator(".nav").getByRole("link", { name: "Processes" }).click()
    await page.getByTestId("processes").getByText("Order approval").waitFor()
    await expect.poll(() => page.getByTestId("processes").locator(".badge-danger").count()).toBeGreaterThan(0)
    await shot("02-processes")
    await page.getByTestId("processes").getByText("Order approval").click()
    await page.getByTestId("legend").getByText("2 running").waitFor()
    // One instance waits at "Charge card" (its job), the other failed there.
    await expect.poll(() => page.locator(".count-active[data-node=charge]").textContent()).toBe("1")
    expect(await page.locator(".count-incident[data-node=charge]").textContent()).toBe("1")
    await shot("03-process-diagram")
  })

  it("lists instances with filters and shows one on its diagram; retries its incident after a confirmation", async () => {
    await page.locator(".nav").getByRole("link", { name: "Instances" }).click()
    await page.getByLabel("Process").selectOption(processKey)
    await page.getByTestId("instances").locator("tbody tr").nth(1).waitFor()
    await page.getByLabel("With open incidents").check()
    await expect.poll(() => page.getByTestId("instances").locator("tbody tr").count()).toBe(1)
    expect(page.url()).toContain("incidents=true")
    // Started between: none started tomorrow or later, this one today.
    const day = (offset: number) =>
      page.evaluate((offset) => {
        const date = new Date()
        date.setDate(date.getDate() + offset)
        return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, "0")}-${
          String(date.getDate()).padStart(2, "0")
        }`
      }, offset)
    // (Each change re-renders the screen from the URL: wait for it before the next.)
    const [today, tomorrow] = [await day(0), await day(1)]
    await page.getByLabel("Started from").fill(tomorrow)
    await expect.poll(() => page.url()).toContain(`from=${tomorrow}`)
    await page.getByTestId("instances").getByText("No instance matches these filters.").waitFor()
    await page.getByLabel("Started from").fill(today)
    await expect.poll(() => page.url()).toContain(`from=${today}`)
    await page.getByLabel("Started to").fill(today)
    await expect.poll(() => page.url()).toContain(`to=${today}`)
    await page.getByTestId("instances").locator("tbody tr", { hasText: "Order approval" }).waitFor()
    expect(await page.getByTestId("instances").locator("tbody tr").count()).toBe(1)
    // By a variable: the incident's instance is order A-17; no instance with the incident has A-18.
    await page.getByLabel("Variable name").fill("orderId")
    await page.getByLabel("Variable value").fill("A-18")
    await page.getByLabel("Variable value").press("Enter")
    await expect.poll(() => page.url()).toContain("variable=orderId&value=A-18")
    await page.getByTestId("instances").getByText("No instance matches these filters.").waitFor()
    await page.getByLabel("Variable value").fill("\"A-17\"")
    await page.getByRole("button", { name: "Filter" }).click()
    await expect.poll(() => decodeURIComponent(page.url())).toContain(`value="A-17"`)
    await page.getByTestId("instances").locator("tbody tr", { hasText: "Order approval" }).waitFor()
    expect(await page.getByTestId("instances").locator("tbody tr").count()).toBe(1)
    await shot("04-instances")

    await page.getByTestId("instances").locator("tbody tr").first().click()
    await page.getByTestId("incidents").getByText("card service unavailable").waitFor()
    expect(await page.locator(".count-incident[data-node=charge]").textContent()).toBe("1")
    await shot("05-instance-incident")

    await page.getByTestId("incidents").getByRole("button", { name: "Retry" }).click()
    await page.getByTestId("confirm-dialog").waitFor()
    await page.getByTestId("confirm").click()
    await page.getByTestId("incidents").getByText("resolved").waitFor()
    expect((await admin.get(`/incidents?processInstanceId=${instanceId}`)).ok().items[0].state).toBe("RESOLVED")
    // The job runs again: the token now waits at "Charge card" without an incident.
    await expect.poll(() => page.locator(".count-active[data-node=charge]").textContent()).toBe("1")
    await shot("06-instance-retried")
  })

  it("completes a task through its form after claiming it", async () => {
    const [job] = await admin.activateJobs(jobType, { maxJobsToActivate: 5 })
    expect(job.processInstanceId).toBe(instanceId)
    await admin.completeJob(job.id, { charged: true })
    await page.reload()
    await expect.poll(() => page.locator(".count-active[data-node=approve]").textContent()).toBe("1")
    expect(await page.locator(".count-active[data-node=charge]").count()).toBe(0)
    await shot("07-instance-at-task")

    await page.locator(".nav").getByRole("link", { name: "Tasks" }).click()
    await page.getByRole("link", { name: "Unassigned" }).click()
    await page.getByTestId("task-list").getByText("Approve order").first().click()
    await page.getByTestId("task-form").getByLabel("Approver").waitFor()
    expect(await page.getByRole("button", { name: "Complete task" }).isDisabled()).toBe(true)
    await shot("08-tasklist")
    await page.getByTestId("task-detail").getByRole("button", { name: "Claim" }).click()
    await page.getByTestId("task-detail").getByRole("button", { name: "Unclaim" }).waitFor()
    // Required fields are checked before anything is sent.
    await page.getByRole("button", { name: "Complete task" }).click()
    await page.getByTestId("task-form").getByText("Field is required.").waitFor()
    await page.getByTestId("task-form").getByLabel("Approver").fill("Dana")
    await page.getByTestId("task-form").getByLabel("Approved").check()
    await shot("09-task-form")
    await page.getByRole("button", { name: "Complete task" }).click()
    await page.getByText("Completed \"Approve order\"").waitFor()
    await expect.poll(async () => (await admin.instance(instanceId)).state).toBe("COMPLETED")
    expect((await admin.instance(instanceId)).variables).toMatchObject({
      approver: "Dana",
      approved: true,
      charged: true
    })
    await shot("10-tasklist-after-completion")

    await page.goto(`${admin.app.baseUrl}/ui/#/instances/${instanceId}`)
    await page.getByTestId("instance-state").getByText("completed").waitFor()
    await shot("11-instance-completed")
  })

  it("edits variables per scope, moves a token and recovers an incident by editing variables, from the instance", async () => {
    const key = shippingKey
    const deployment = await admin.deploy({
      id: key,
      name: "Shipping",
      nodes: [
        { id: "start", type: "startEvent", name: "Order paid" },
        {
          id: "pack",
          type: "subProcess",
          name: "Pack order",
          properties: {
            inputMappings: [{ source: "= 1", target: "boxes" }],
            nodes: [
              { id: "packStart", type: "startEvent" },
              { id: "pick", type: "serviceTask", name: "Pick items", properties: { taskType: `${key}-pick` } },
              {
                id: "label",
                type: "serviceTask",
                name: "Print label",
                properties: { taskType: `${key}-label`, retries: 1 }
              },
              { id: "packEnd", type: "endEvent" }
            ],
            flows: [
              { id: "p1", source: "packStart", target: "pick" },
              { id: "p2", source: "pick", target: "label" },
              { id: "p3", source: "label", target: "packEnd" }
            ]
          }
        },
        { id: "ship", type: "serviceTask", name: "Hand to carrier", properties: { taskType: `${key}-ship` } },
        { id: "end", type: "endEvent", name: "Shipped" }
      ],
      flows: [
        { id: "f1", source: "start", target: "pack" },
        { id: "f2", source: "pack", target: "ship" },
        { id: "f3", source: "ship", target: "end" }
      ]
    })
    shipment = (await admin.start(deployment.id, { orderId: "A-19", weight: 2.5 })).id
    await page.goto(`${admin.app.baseUrl}/ui/#/instances/${shipment}`)
    await page.reload() // without the previous screens' notices
    await expect.poll(() => page.locator(".count-active[data-node=pick]").textContent()).toBe("1")

    // A variable of the root scope, edited after a confirmation.
    await page.getByRole("tab", { name: /Variables/ }).click()
    const root = page.locator(`[data-scope="${shipment}"]`)
    await root.locator("tr", { hasText: "weight" }).getByRole("button", { name: "Edit" }).click()
    await page.getByLabel("Value (JSON)").fill("3.75")
    await shot("12-instance-edit-variable", { dialog: true })
    await page.getByTestId("form-dialog").getByTestId("confirm").click()
    await root.locator("tr", { hasText: "weight" }).getByText("3.75").waitFor()
    expect((await admin.get(`/process-instances/${shipment}/variables`)).ok().variables).toMatchObject({ weight: 3.75 })

    // A variable of the subprocess's own scope.
    const scope = page.locator(".scope").nth(1)
    await scope.getByText("Pack order").waitFor()
    const scopeId = await scope.getAttribute("data-scope")
    await scope.locator("tr", { hasText: "boxes" }).getByRole("button", { name: "Edit" }).click()
    await page.getByLabel("Value (JSON)").fill("2")
    await page.getByTestId("form-dialog").getByTestId("confirm").click()
    await scope.locator("tr", { hasText: "boxes" }).locator("pre").getByText("2", { exact: true }).waitFor()
    expect((await admin.get(`/scopes/${scopeId}/variables/boxes`)).ok()).toEqual({ name: "boxes", value: 2, scopeId })
    expect((await admin.get(`/process-instances/${shipment}/variables`)).ok().variables).not.toHaveProperty("boxes")
    await shot("13-instance-variables")

    // The token at "Pick items" moves on to "Print label" (the same scope).
    await page.getByRole("tab", { name: /Tokens/ }).click()
    await page.getByTestId("tokens").locator("tr", { hasText: "Pick items" }).getByRole("button", { name: "Move…" })
      .click()
    // Only the elements of its own scope (the subprocess) are offered.
    expect(
      await page.getByLabel("Move to").locator("option").evaluateAll((options) =>
        options.map((option) => (option as HTMLOptionElement).value).sort()
      )
    ).toEqual(["label", "packEnd", "packStart"])
    await page.getByLabel("Move to").selectOption("label")
    await shot("14-instance-move-token", { dialog: true })
    await page.getByTestId("form-dialog").getByTestId("confirm").click()
    await expect.poll(() => page.locator(".count-active[data-node=label]").textContent()).toBe("1")
    expect(await page.locator(".count-active[data-node=pick]").count()).toBe(0)
    const tokens = (await admin.get(`/process-instances/${shipment}/tokens`)).ok()
    expect(tokens.map((token: { nodeId: string }) => token.nodeId).sort()).toEqual(["label", "pack"])
    await shot("15-instance-token-moved")

    // Its job fails for good; the incident is recovered by correcting a variable and retrying.
    const [job] = await admin.activateJobs(`${key}-label`, { maxJobsToActivate: 1 })
    ;(await admin.post(`/jobs/${job.id}/fail`, { retries: 0, errorMessage: "label printer: weight over limit" })).ok()
    await page.reload()
    await page.getByTestId("incidents").getByText("weight over limit").waitFor()
    // "Print label" is drawn inside the collapsed subprocess: its incident shows on "Pack order" too.
    expect(await page.locator(".count-incident[data-node=pack]").textContent()).toBe("1")
    expect(await page.locator("[data-element-id=pack].marker-incident").count()).toBe(1)
    await page.getByTestId("incidents").getByText("More ▾").click()
    await shot("16-incident-recoveries-menu")
    await page.getByRole("button", { name: "Edit variables and retry…" }).click()
    const area = page.getByLabel("Variables (JSON object)")
    await area.fill((await area.inputValue()).replace("3.75", "1.5"))
    await shot("17-incident-edit-and-retry", { dialog: true })
    await page.getByTestId("form-dialog").getByTestId("confirm").click()
    await page.getByTestId("incidents").getByText("resolved").waitFor()
    expect((await admin.get(`/process-instances/${shipment}/variables`)).ok().variables).toMatchObject({ weight: 1.5 })
    const [again] = await admin.activateJobs(`${key}-label`, { maxJobsToActivate: 1 })
    expect(again.processInstanceId).toBe(shipment) // It fails again: the variables are rolled back to how the instance started, and the step runs again.
    ;(await admin.post(`/jobs/${again.id}/fail`, { retries: 0, errorMessage: "label printer jammed" })).ok()
    const [started] = await admin.history(shipment)
    await page.reload()
    await page.getByTestId("incidents").getByText("label printer jammed").waitFor()
    await page.getByTestId("incidents").locator("tr", { hasText: "jammed" }).getByText("More ▾").click()
    await page.getByRole("button", { name: "Roll back variables…" }).click()
    await page.getByLabel("Restore the variables as of").selectOption(String(started.eventSeq))
    await page.getByTestId("form-dialog").locator(".preview").getByText("\"weight\": 2.5").waitFor()
    await shot("18-incident-rollback", { dialog: true })
    await page.getByTestId("form-dialog").getByTestId("confirm").click()
    await page.getByText("Variables rolled back").waitFor()
    await expect.poll(async () => (await admin.get(`/process-instances/${shipment}/variables`)).ok().variables)
      .toMatchObject({ weight: 2.5 })

    // And once more: this time it restarts at "Pick items".
    const [third] = await admin.activateJobs(`${key}-label`, { maxJobsToActivate: 1 })
    ;(await admin.post(`/jobs/${third.id}/fail`, { retries: 0, errorMessage: "label printer offline" })).ok()
    await page.reload()
    await page.getByTestId("incidents").locator("tr", { hasText: "offline" }).getByText("More ▾").click()
    await page.getByRole("button", { name: "Restart from element…" }).click()
    await page.getByLabel("Restart at").selectOption("pick")
    await page.getByTestId("form-dialog").getByTestId("confirm").click()
    await expect.poll(() => page.locator(".count-active[data-node=pick]").textContent()).toBe("1")
    expect((await admin.get(`/incidents?processInstanceId=${shipment}&state=OPEN`)).ok().totalItems).toBe(0)
  })

  it("shows a decision's table, evaluates it with typed inputs and highlights the matched rule", async () => {
    const decisionKey = uniqueName("ui-discount")
    ;(await admin.post("/decisions", {
      id: decisionKey,
      name: "Order discount",
      hitPolicy: "FIRST",
      inputs: [
        { id: "tier", label: "Customer tier", expression: "tier", typeRef: "string" },
        { id: "amount", label: "Order amount", expression: "amount", typeRef: "number" },
        { id: "member", label: "Member", expression: "member", typeRef: "boolean" }
      ],
      outputs: [
        { id: "discount", name: "discount", typeRef: "number" },
        { id: "reason", name: "reason", typeRef: "string" }
      ],
      rules: [
        {
          id: "r-gold-large",
          inputEntries: ["\"gold\"", ">= 1000", "-"],
          outputEntries: ["0.15", "\"gold, large order\""],
          annotations: ["large gold orders"]
        },
        { id: "r-gold", inputEntries: ["\"gold\"", "-", "-"], outputEntries: ["0.1", "\"gold\""] },
        { id: "r-member", inputEntries: ["-", "-", "true"], outputEntries: ["0.05", "\"member\""] },
        { id: "r-none", inputEntries: ["-", "-", "-"], outputEntries: ["0", "\"none\""], annotations: ["otherwise"] }
      ]
    })).ok(201)

    await page.reload() // without the previous screens' notices
    await page.locator(".nav").getByRole("link", { name: "Decisions" }).click()
    await page.getByTestId("decisions").getByText("Order discount").waitFor()
    await shot("19-decisions")
    await page.getByTestId("decisions").getByText("Order discount").click()
    await page.getByTestId("decision-table").locator("tbody tr").nth(3).waitFor()
    await page.getByTestId("input-tier").fill("gold")
    await page.getByTestId("input-amount").fill("250")
    await page.getByTestId("input-member").selectOption("true")
    await page.getByRole("button", { name: "Evaluate" }).click()
    // Rules 2, 3 and 4 match (rule 1 needs 1000 or more); FIRST answers rule 2's outputs.
    await page.getByTestId("decision-result").getByText("3 rules matched").waitFor()
    const table = page.getByTestId("decision-table")
    expect(await table.locator("tr.matched").evaluateAll((rows) => rows.map((row) => row.dataset["ruleId"])))
      .toEqual(["r-gold", "r-member", "r-none"])
    expect(await table.locator("tr.winner").getAttribute("data-rule-id")).toBe("r-gold")
    expect(await page.getByTestId("decision-result").locator("dd").allTextContents()).toEqual(["0.1", "\"gold\""])
    await shot("20-decision-evaluated")
  })

  it("imports a DMN file and evaluates a decision with its required decision, inputs typed by the input data", async () => {
    const rule = (id: string, inputs: ReadonlyArray<string>, output: string) =>
      `<rule id="${id}">${
        inputs.map((text, k) => `<inputEntry id="${id}-in${k}"><text>${text}</text></inputEntry>`).join("")
      }<outputEntry id="${id}-out"><text>${output}</text></outputEntry></rule>`
    const dmn = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/" id="loans" name="Loans" namespace="urn:ui-test:loans">
  <inputData id="appliedOn" name="Applied on"><variable name="Applied on" typeRef="date"/></inputData>
  <inputData id="income" name="Income"><variable name="Income" typeRef="number"/></inputData>
  <decision id="risk" name="Risk">
    <variable name="Risk" typeRef="string"/>
    <informationRequirement id="req-income"><requiredInput href="#income"/></informationRequirement>
    <decisionTable id="risk-table" hitPolicy="UNIQUE">
      <input id="risk-income" label="Income"><inputExpression id="risk-income-x" typeRef="number"><text>Income</text></inputExpression></input>
      <output id="risk-out" name="risk" typeRef="string"/>
      ${rule("risk-high", ["&lt; 30000"], "\"high\"")}
      ${rule("risk-low", ["&gt;= 30000"], "\"low\"")}
      ${rule("risk-wealthy", ["&gt;= 1000000"], "\"none\"")}
    </decisionTable>
  </decision>
  <decision id="offer" name="Loan offer">
    <variable name="Loan offer" typeRef="string"/>
    <informationRequirement id="req-risk"><requiredDecision href="#risk"/></informationRequirement>
    <informationRequirement id="req-applied"><requiredInput href="#appliedOn"/></informationRequirement>
    <decisionTable id="offer-table" hitPolicy="FIRST">
      <input id="offer-risk" label="Risk"><inputExpression id="offer-risk-x" typeRef="string"><text>Risk</text></inputExpression></input>
      <input id="offer-date" label="Applied on"><inputExpression id="offer-date-x" typeRef="date"><text>Applied on</text></inputExpression></input>
      <output id="offer-out" name="offer" typeRef="string"/>
      ${rule("offer-early", ["\"low\"", "&lt; date(\"2026-01-01\")"], "\"early bird\"")}
      ${rule("offer-standard", ["\"low\"", "-"], "\"standard\"")}
      ${rule("offer-declined", ["\"high\"", "-"], "\"declined\"")}
    </decisionTable>
  </decision>
</definitions>`
    await page.locator(".nav").getByRole("link", { name: "Decisions" }).click()
    await page.locator("input[type=file]").setInputFiles({
      name: "loans.dmn",
      mimeType: "application/xml",
      buffer: Buffer.from(dmn)
    })
    await page.getByText("Imported 2 decisions").waitFor()
    await page.getByTestId("decision-table").waitFor() // it opens the first one
    await page.locator(".nav").getByRole("link", { name: "Decisions" }).click()
    await page.getByTestId("decisions").getByText("Loan offer").click()
    await page.getByTestId("decision-table").locator("tbody tr").nth(2).waitFor()
    // The values to enter are the input data, through the required decision too, each typed by its declaration.
    expect(await page.getByTestId("input-Applied on").getAttribute("type")).toBe("date")
    expect(await page.getByTestId("input-Income").getAttribute("type")).toBe("number")
    await page.getByTestId("input-Applied on").fill("2025-06-30")
    await page.getByTestId("input-Income").fill("52000")
    await page.getByRole("button", { name: "Evaluate" }).click()
    await page.getByTestId("decision-result").getByText("2 rules matched").waitFor()
    const table = page.getByTestId("decision-table")
    expect(await table.locator("tr.winner").getAttribute("data-rule-id")).toBe("offer-early")
    expect(await page.getByTestId("decision-result").locator("dd").allTextContents()).toEqual(["\"early bird\""])
    await page.getByTestId("decision-result").getByText("Required decisions evaluated").waitFor()
    // Without diagram positions in the file the UI lays the graph out: what a decision requires in the row below it.
    const rowOf = (id: string) => page.getByTestId("drd").locator(`.drd-node[data-id=${id}] rect`).getAttribute("y")
    expect(await rowOf("appliedOn")).not.toBe(await rowOf("income"))
    expect(Number(await rowOf("offer"))).toBeLessThan(Number(await rowOf("risk")))
    await shot("21-decision-dmn-evaluated")

    // Risk is a Unique table: an income matching two of its rules is refused, and the two rules are marked.
    await page.locator(".nav").getByRole("link", { name: "Decisions" }).click()
    await page.getByTestId("decisions").getByText("Risk", { exact: true }).click()
    await page.getByTestId("input-Income").fill("2000000")
    await page.getByRole("button", { name: "Evaluate" }).click()
    await page.getByTestId("evaluate-form").locator("xpath=..").getByRole("alert").waitFor()
    expect(
      await page.getByTestId("decision-table").locator("tr.conflict").evaluateAll((rows) =>
        rows.map((row) => row.dataset["ruleId"])
      )
    ).toEqual(["risk-low", "risk-wealthy"])
    await shot("22-decision-unique-violated")
  })

  it("comments on a task and delegates it to a task user, who sees the tasklist only and works on it", async () => {
    const taskUser = uniqueName("ui-worker")
    await admin.createUser({ username: taskUser, password, roles: ["TASK_USER"] })
    const review = await admin.deploy({
      id: uniqueName("ui-contract"),
      name: "Contract review",
      nodes: [
        { id: "in", type: "startEvent" },
        { id: "review", type: "userTask", name: "Review contract" },
        { id: "out", type: "endEvent" }
      ],
      flows: [{ id: "r1", source: "in", target: "review" }, { id: "r2", source: "review", target: "out" }]
    })
    const contract = (await admin.start(review.id, { contractId: "C-7" })).id
    await page.goto(`${admin.app.baseUrl}/ui/#/tasks?view=unassigned`)
    await page.reload() // without the previous screens' notices
    await page.getByTestId("task-list").getByText("Review contract").click()
    await page.getByTestId("task-detail").getByRole("button", { name: "Claim" }).click()
    await page.getByTestId("task-detail").getByRole("button", { name: "Delegate…" }).waitFor()
    await page.getByLabel("Comment").fill("Clause 4 needs a lawyer's eye.")
    await page.getByRole("button", { name: "Comment", exact: true }).click()
    await page.getByTestId("comments").getByText("Clause 4 needs a lawyer's eye.").waitFor()
    await page.getByTestId("task-detail").getByRole("button", { name: "Delegate…" }).click()
    await page.getByLabel("Delegate to (user name)").fill(taskUser)
    await page.getByTestId("form-dialog").getByTestId("confirm").click()
    await page.getByText(`Delegated to ${taskUser}`).waitFor()
    const [task] = await admin.tasks(`?processInstanceId=${contract}`)
    expect(task).toMatchObject({ assignee: taskUser, owner: username, delegationState: "PENDING" })

    await page.getByTestId("sign-out").click()
    await page.getByLabel("Username").fill(taskUser)
    await page.getByLabel("Password").fill(password)
    await page.getByRole("button", { name: "Sign in" }).click()
    await page.getByRole("heading", { name: "Tasks" }).waitFor()
    expect(await page.locator(".nav a").allTextContents()).toEqual(["Tasks"])
    await page.getByTestId("task-list").getByText("Review contract").click()
    await page.getByTestId("comments").getByText("Clause 4 needs a lawyer's eye.").waitFor()
    await page.getByTestId("task-detail").getByText("Delegated by").waitFor()
    await shot("23-task-delegated")
    // Done by the delegate, the task goes back to its owner (the instance waits until the owner completes it).
    await page.getByRole("button", { name: "Complete task" }).click()
    await page.getByText(`goes back to ${username}`).waitFor()
    expect((await admin.tasks(`?processInstanceId=${contract}`))[0]).toMatchObject({
      assignee: username,
      delegationState: "RESOLVED"
    })

    // An instance with an incident, as a task user sees it (reads are open): no action is offered.
    const [job] = await admin.activateJobs(`${shippingKey}-pick`, { maxJobsToActivate: 1 })
    ;(await admin.post(`/jobs/${job.id}/fail`, { retries: 0, errorMessage: "scanner offline" })).ok()
    await page.goto(`${admin.app.baseUrl}/ui/#/instances/${shipment}`)
    await page.getByTestId("incidents").getByText("scanner offline").waitFor()
    expect(await page.locator(".page-head button").count()).toBe(0)
    for (const tab of ["Incidents", "Tokens", "Variables"]) {
      await page.getByRole("tab", { name: new RegExp(tab) }).click()
      expect(await page.locator(".tab-panel :is(button, summary)").count()).toBe(0)
    }
    await page.getByTestId("sign-out").click()
    await page.getByLabel("Username").waitFor()
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0)
  })

  const signIn = async (name: string) => {
    await page.goto(`${admin.app.baseUrl}/ui/#/login`)
    await page.getByLabel("Username").fill(name)
    await page.getByLabel("Password").fill(password)
    await page.getByRole("button", { name: "Sign in", exact: true }).click()
    await page.locator(".user-name").getByText(name).waitFor()
  }
  const groupNamed = async (name: string) =>
    ((await admin.get("/auth/groups?size=500")).ok().items as Array<any>).find((group) => group.name === name)
  const clerk = uniqueName("ui-clerk")
  const clerks = uniqueName("ui-clerks")

  it("administers users, groups and their members, invitations and authorizations (admins only)", async () => {
    await signIn(username)
    await page.locator(".nav").getByRole("link", { name: "Admin" }).click()
    await page.getByTestId("users").getByText(username).waitFor()
    await page.getByTestId("new-user").click()
    const dialog = page.getByTestId("form-dialog")
    await dialog.getByLabel("Username").fill(clerk)
    await dialog.getByLabel("Password").fill(password)
    await dialog.getByLabel("PROCESS_OWNER").check()
    await dialog.getByTestId("confirm").click()
    await page.getByTestId("users").getByText(clerk).waitFor()
    const users = (await admin.get("/auth/users?size=500")).ok().items as Array<any>
    const clerkUser = users.find((user) => user.username === clerk)
    expect(clerkUser.roles).toEqual(["PROCESS_OWNER", "TASK_USER"])
    await shot("24-admin-users")

    // A group, with the clerk and the admin as members; the clerk removed again.
    await page.getByRole("link", { name: "Groups" }).click()
    await page.getByTestId("new-group").click()
    await dialog.getByLabel("Name").fill(clerks)
    await dialog.getByLabel("Description").fill("Back-office clerks who check orders")
    await dialog.getByTestId("confirm").click()
    await page.getByTestId("groups").getByText(clerks).click()
    for (const member of [clerk, username]) {
      await page.getByTestId("add-member").click()
      await dialog.getByLabel("User").selectOption({ label: member })
      await dialog.getByTestId("confirm").click()
      await page.getByTestId("members").getByText(member).waitFor()
    }
    await shot("25-admin-group-members")
    // The admin is in the group now: their tasklist's "My groups" knows it from the memberships.
    await page.goto(`${admin.app.baseUrl}/ui/#/tasks?view=groups`)
    await page.getByTestId("my-groups").getByText("your group memberships").waitFor()
    await page.getByTestId("my-groups").getByText(clerks).waitFor()
    await page.goto(`${admin.app.baseUrl}/ui/#/admin/groups/${(await groupNamed(clerks)).id}`)
    await page.getByTestId("members").getByText(clerk).waitFor()
    await page.getByTestId("members").locator("tr", { hasText: clerk }).getByRole("button", { name: "Remove" }).click()
    await page.getByTestId("confirm-dialog").getByTestId("confirm").click()
    await expect.poll(() => page.getByTestId("members").locator("tbody tr").count()).toBe(1)
    const group = await groupNamed(clerks)
    expect(((await admin.get(`/auth/groups/${group.id}/members`)).ok().items as Array<any>).map((m) => m.username))
      .toEqual([username])

    // An invitation: its link (shown once) opens the acceptance page, where the invited person picks a name.
    await page.getByRole("link", { name: "Invitations" }).click()
    await page.getByTestId("new-invitation").click()
    await dialog.getByLabel("Email").fill("new.hire@example.com")
    await dialog.getByTestId("confirm").click()
    const acceptLink = await page.getByTestId("invitation-link").textContent()
    expect(acceptLink).toContain("#/accept?token=")
    await shot("26-admin-invitation", { dialog: true })
    await page.getByTestId("confirm-dialog").getByTestId("confirm").click()
    await page.getByTestId("invitations").getByText("new.hire@example.com").waitFor()

    // A grant to the group, then revoked (a grant restricts the resource to its grantees).
    await page.getByRole("link", { name: "Authorizations" }).click()
    await page.getByTestId("new-authorization").click()
    await dialog.getByLabel("Resource type").selectOption("DECISION")
    await dialog.getByLabel("Resource id").fill("loan-offer")
    await dialog.getByLabel("EXECUTE").check()
    await dialog.getByLabel("Grantee").selectOption({ label: clerks })
    await dialog.getByTestId("confirm").click()
    await page.getByTestId("authorizations").getByText(clerks).waitFor()
    expect((await admin.get("/auth/authorizations?resourceId=loan-offer")).ok().items).toMatchObject([
      { resourceType: "DECISION", permissions: ["READ", "EXECUTE"], groupId: group.id }
    ])
    await shot("27-admin-authorizations")
    await page.getByTestId("authorizations").locator("tr", { hasText: clerks }).getByRole("button", { name: "Revoke" })
      .click()
    await page.getByTestId("confirm-dialog").getByTestId("confirm").click()
    await page.getByTestId("authorizations").getByText("No grants").waitFor()

    // The invited person accepts (no session needed) and can sign in.
    await page.getByTestId("sign-out").click()
    await page.goto(acceptLink!)
    await page.getByRole("heading", { name: "Accept your invitation" }).waitFor()
    const hire = uniqueName("ui-hire")
    await page.getByLabel("Username").fill(hire)
    await page.getByLabel("Password (8 characters or more)").fill(password)
    await page.getByRole("button", { name: "Create my account" }).click()
    await page.getByRole("heading", { name: "Welcome" }).waitFor()
    await signIn(hire)
    // A task user is offered no administration; the admin screen says so when opened by its address.
    expect(await page.locator(".nav a").allTextContents()).toEqual(["Tasks"])
    await page.goto(`${admin.app.baseUrl}/ui/#/admin/users`)
    await page.getByText("Administration is for admins only.").waitFor()
    // A task user's groups are not readable through the API: they choose them, kept in the browser.
    await page.goto(`${admin.app.baseUrl}/ui/#/tasks?view=groups`)
    await page.getByTestId("my-groups").getByText("No groups known").waitFor()
    await page.getByTestId("edit-my-groups").click()
    await page.getByTestId("form-dialog").getByLabel("Group names").fill(`${clerks}, auditors`)
    await page.getByTestId("form-dialog").getByTestId("confirm").click()
    await page.getByTestId("my-groups").getByText("chosen in this browser").waitFor()
    await expect.poll(() => page.getByTestId("my-groups").locator(".badge").allTextContents()).toEqual([
      clerks,
      "auditors"
    ])
  })

  it("migrates an instance to a new version: maps a renamed element, shows the API's refusal, then migrates a batch", async () => {
    const key = uniqueName("ui-claims")
    const version = (review: string, name: string) => ({
      id: key,
      name: "Insurance claim",
      nodes: [
        { id: "filed", type: "startEvent", name: "Claim filed" },
        { id: review, type: "userTask", name },
        { id: "settle", type: "serviceTask", name: "Settle", properties: { taskType: `${key}-settle` } },
        { id: "closed", type: "endEvent", name: "Closed" }
      ],
      flows: [
        { id: "c1", source: "filed", target: review },
        { id: "c2", source: review, target: "settle" },
        { id: "c3", source: "settle", target: "closed" }
      ]
    })
    const v1 = (await admin.deploy(version("review", "Review claim"))).id
    const claims = [(await admin.start(v1)).id, (await admin.start(v1)).id, (await admin.start(v1)).id]
    const v2 = (await admin.deploy(version("assess", "Assess claim"))).id
    await signIn(username)

    await page.goto(`${admin.app.baseUrl}/ui/#/instances/${claims[0]}`)
    await page.getByRole("link", { name: "Migrate…" }).click()
    await page.getByTestId("mapping").waitFor()
    // "review" is gone in version 2: the plan says so, and the API refuses the migration with its reasons.
    await page.getByTestId("plan-problems").getByText("review").waitFor()
    await page.getByTestId("migrate").click()
    await page.getByTestId("confirm-dialog").getByText("the service will refuse").waitFor()
    await page.getByTestId("confirm-dialog").getByTestId("confirm").click()
    await page.getByTestId("migration-error").getByText("VALIDATION_ERROR").waitFor()
    expect(await page.getByTestId("migration-error").textContent()).toContain(
      "active node review (userTask) is not mapped"
    )
    await shot("28-migration-refused")
    await page.getByLabel("Target of review").selectOption("assess")
    await page.getByTestId("plan-ok").waitFor()
    await shot("29-migration-plan")
    await page.getByTestId("migrate").click()
    await page.getByTestId("confirm-dialog").getByTestId("confirm").click()
    await page.getByText("1 instance migrated to version 2").waitFor()
    await page.getByTestId("instance-state").waitFor()
    expect(await admin.instance(claims[0]!)).toMatchObject({ deploymentId: v2, version: 2 })
    expect((await admin.get(`/process-instances/${claims[0]}/tokens`)).ok()).toMatchObject([{ nodeId: "assess" }])

    // The others from the version's page, as a batch operation.
    await page.goto(`${admin.app.baseUrl}/ui/#/processes/${v1}`)
    await page.getByRole("link", { name: "Migrate instances…" }).click()
    await expect.poll(() => page.getByTestId("migrate-instances").locator("tbody tr").count()).toBe(2)
    await page.getByLabel("Target of review").selectOption("assess")
    await page.getByLabel("Run as a batch operation").check()
    await page.getByTestId("migrate").click()
    await page.getByTestId("confirm-dialog").getByTestId("confirm").click()
    await page.getByTestId("migration-batch").getByText("2 migrated").waitFor({ timeout: 20_000 })
    await shot("30-migration-batch")
    for (const id of claims.slice(1)) expect(await admin.instance(id)).toMatchObject({ deploymentId: v2 })
  })

  it("draws a decision requirements graph (decisions, input data, knowledge model, source) and opens a decision from it", async () => {
    const dmn = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/" xmlns:dmndi="https://www.omg.org/spec/DMN/20191111/DMNDI/"
    xmlns:dc="http://www.omg.org/spec/DMN/20180521/DC/" id="lending" name="Lending" namespace="urn:ui-test:lending">
  <inputData id="age" name="Applicant age"><variable name="age" typeRef="number"/></inputData>
  <inputData id="income" name="Monthly income"><variable name="income" typeRef="number"/></inputData>
  <inputData id="debts" name="Monthly debts"><variable name="debts" typeRef="number"/></inputData>
  <knowledgeSource id="policy" name="Lending policy 2026"/>
  <businessKnowledgeModel id="ratio" name="Debt ratio">
    <variable name="ratio"/>
    <encapsulatedLogic>
      <formalParameter name="income" typeRef="number"/><formalParameter name="debts" typeRef="number"/>
      <literalExpression><text>debts / income</text></literalExpression>
    </encapsulatedLogic>
  </businessKnowledgeModel>
  <decision id="burden" name="Debt burden">
    <variable name="burden" typeRef="number"/>
    <informationRequirement id="b-i"><requiredInput href="#income"/></informationRequirement>
    <informationRequirement id="b-d"><requiredInput href="#debts"/></informationRequirement>
    <knowledgeRequirement id="b-k"><requiredKnowledge href="#ratio"/></knowledgeRequirement>
    <literalExpression><text>ratio(income, debts)</text></literalExpression>
  </decision>
  <decision id="eligible" name="Eligible for a loan">
    <variable name="eligible" typeRef="boolean"/>
    <informationRequirement id="e-a"><requiredInput href="#age"/></informationRequirement>
    <informationRequirement id="e-b"><requiredDecision href="#burden"/></informationRequirement>
    <authorityRequirement id="e-p"><requiredAuthority href="#policy"/></authorityRequirement>
    <literalExpression><text>age &gt;= 18 and burden &lt; 0.4</text></literalExpression>
  </decision>
  <dmndi:DMNDI><dmndi:DMNDiagram id="lending-drd">${
      Object.entries({
        eligible: [330, 40, 180, 80],
        policy: [600, 48, 160, 64],
        age: [90, 215, 150, 50],
        burden: [330, 200, 180, 80],
        ratio: [600, 210, 160, 60],
        income: [230, 380, 150, 50],
        debts: [460, 380, 150, 50]
      }).map(([id, [x, y, width, height]]) =>
        `<dmndi:DMNShape id="shape-${id}" dmnElementRef="${id}"><dc:Bounds x="${x}" y="${y}" width="${width}" height="${height}"/></dmndi:DMNShape>`
      ).join("")
    }</dmndi:DMNDiagram></dmndi:DMNDI>
</definitions>`
    ;(await admin.call("POST", "/decisions/import", { rawBody: dmn, contentType: "application/xml" })).ok(201)
    const decisions = (await admin.get("/decisions?size=200")).ok().items as Array<any>
    const eligible = decisions.find((decision) => decision.key === "eligible")
    await page.goto(`${admin.app.baseUrl}/ui/#/decisions/${eligible.id}`)
    await page.reload() // without the previous screens' notices
    const drd = page.getByTestId("drd")
    await drd.locator(".drd-node").nth(6).waitFor()
    expect(await drd.locator(".drd-node").evaluateAll((nodes) => nodes.map((node) => node.getAttribute("class"))))
      .toEqual(expect.arrayContaining([
        "drd-node drd-decision drd-current",
        "drd-node drd-decision drd-link",
        "drd-node drd-businessKnowledgeModel",
        "drd-node drd-knowledgeSource",
        "drd-node drd-inputData"
      ]))
    expect(await drd.locator(".drd-edge-knowledge").count()).toBe(1)
    expect(await drd.locator(".drd-edge-authority").count()).toBe(1)
    expect(await drd.locator(".drd-edge-information").count()).toBe(4)
    // Drawn where the model's own diagram (DMNDI) puts each element.
    expect(await drd.locator(".drd-node[data-id=age] rect").getAttribute("x")).toBe("90")
    expect(await drd.locator(".drd-node[data-id=burden] rect").getAttribute("y")).toBe("200")
    await drd.scrollIntoViewIfNeeded()
    await shot("31-decision-requirements")
    await drd.locator(".drd-node[data-id=burden]").click()
    await page.getByRole("heading", { name: "Debt burden" }).waitFor()
    await page.getByTestId("drd").locator(".drd-current[data-id=burden]").waitFor()
  })

  it("signs in with a token of the OIDC provider and lists the tasks of the caller's groups", async () => {
    const processKey_ = uniqueName("ui-refunds")
    const refunds = await admin.deploy({
      id: processKey_,
      name: "Refund",
      nodes: [
        { id: "asked", type: "startEvent" },
        { id: "approve", type: "userTask", name: "Approve refund", properties: { candidateGroups: [clerks] } },
        { id: "other", type: "userTask", name: "Audit refund", properties: { candidateGroups: ["auditors"] } },
        { id: "split", type: "parallelGateway" },
        { id: "paid", type: "endEvent" }
      ],
      flows: [
        { id: "x0", source: "asked", target: "split" },
        { id: "x1", source: "split", target: "approve" },
        { id: "x2", source: "split", target: "other" },
        { id: "x3", source: "approve", target: "paid" },
        { id: "x4", source: "other", target: "paid" }
      ]
    })
    await admin.start(refunds.id, { amount: 40 })
    const person = uniqueName("ui-sso")
    const token = await admin.app.oidc.sign({
      sub: person,
      preferred_username: person,
      tenantId,
      roles: ["TASK_USER"],
      groups: [clerks]
    })

    await page.goto(`${admin.app.baseUrl}/ui/#/login`)
    await page.evaluate(() => sessionStorage.clear())
    await page.reload()
    await page.getByText("Use a token from idp.example.test").click()
    await page.getByLabel("Token from idp.example.test").fill(token)
    await shot("32-sign-in-oidc-token")
    await page.getByRole("button", { name: "Use this token" }).click()
    await page.locator(".user-name").getByText(person).waitFor()
    await page.getByRole("link", { name: "My groups" }).click()
    await page.getByTestId("my-groups").getByText("from your sign-in token").waitFor()
    await page.getByTestId("task-list").getByText("Approve refund").waitFor()
    expect(await page.getByTestId("task-list").getByText("Audit refund").count()).toBe(0)
    await shot("33-tasks-my-groups")
    // A token the service does not accept (another issuer's key) is refused on the sign-in page.
    await page.getByTestId("sign-out").click()
    await page.getByText("Use a token from idp.example.test").click()
    await page.getByLabel("Token from idp.example.test").fill(token.slice(0, -6) + "AAAAAA")
    await page.getByRole("button", { name: "Use this token" }).click()
    await page.getByRole("alert").getByText("does not accept this token").waitFor()
  })

  it("signs in with the OIDC provider by authorization code and PKCE when the configuration names a client id", async () => {
    const person = uniqueName("ui-pkce")
    const token = await admin.app.oidc.sign({ sub: person, tenantId, roles: ["ADMIN"] })
    const issuer = "https://idp.example.test"
    let challenge = ""
    // GET /auth/config does not name a client id today: the test adds one, and plays the provider.
    await page.route("**/api/v1/auth/config", async (route) => {
      const config = await (await route.fetch()).json()
      await route.fulfill({
        json: { ...config, data: { ...config.data, oidc: { ...config.data.oidc, clientId: "flowcore-ui" } } }
      })
    })
    await page.route(`${issuer}/**`, async (route) => {
      const url = new URL(route.request().url())
      const cors = { "access-control-allow-origin": "*", "access-control-allow-headers": "*" }
      if (url.pathname === "/.well-known/openid-configuration") {
        await route.fulfill({
          headers: cors,
          json: { issuer, authorization_endpoint: `${issuer}/authorize`, token_endpoint: `${issuer}/token` }
        })
      } else if (url.pathname === "/authorize") {
        expect(url.searchParams.get("client_id")).toBe("flowcore-ui")
        expect(url.searchParams.get("code_challenge_method")).toBe("S256")
        challenge = url.searchParams.get("code_challenge") ?? ""
        const back = new URL(url.searchParams.get("redirect_uri")!)
        back.searchParams.set("code", "the-code")
        back.searchParams.set("state", url.searchParams.get("state")!)
        await route.fulfill({ status: 302, headers: { location: back.toString() } })
      } else if (url.pathname === "/token") {
        if (route.request().method() === "OPTIONS") return route.fulfill({ status: 204, headers: cors })
        const form = new URLSearchParams(route.request().postData() ?? "")
        const verifier = form.get("code_verifier") ?? ""
        const expected = createHash("sha256").update(verifier).digest("base64url")
        expect(form.get("code")).toBe("the-code")
        expect(expected).toBe(challenge)
        await route.fulfill({ headers: cors, json: { access_token: token, token_type: "Bearer", expires_in: 600 } })
      } else await route.fulfill({ status: 404 })
    })
    await page.goto(`${admin.app.baseUrl}/ui/#/login`)
    await page.evaluate(() => sessionStorage.clear())
    await page.reload()
    await page.getByRole("button", { name: "Sign in with idp.example.test" }).waitFor()
    await shot("34-sign-in-oidc-provider")
    await page.getByRole("button", { name: "Sign in with idp.example.test" }).click()
    await page.locator(".user-name").getByText(person).waitFor()
    expect(page.url()).not.toContain("code=")
    await page.unrouteAll()
  })
})
