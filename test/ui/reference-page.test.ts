// The API reference at /docs/{version} in headless Chromium: Redoc, served by the simulator itself, lists the
// version's operations with their schemas; /docs is the newest version; the dashboard links to it.
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { IN_PROCESS_FIXTURE, startInProcess, type InProcess } from "../../src/testing/in-process.js"
import { launchBrowser, SCREENSHOTS, type Browser } from "../support/browser.js"
import { listen } from "../support/server.js"

let p: InProcess
let server: { url: string; close: () => Promise<void> }
let browser: Browser

beforeAll(async () => {
  p = await startInProcess({ seed: "reference-page", webhooks: false, fixture: IN_PROCESS_FIXTURE })
  server = await listen(p.app)
  browser = await launchBrowser()
}, 60_000)
afterAll(async () => {
  await browser?.close()
  await server?.close()
  await p?.close()
})

/** Opens a page; the addresses it got answers from (a request the page's policy blocks gets none). */
const opened = async (path: string) => {
  const requests: Array<string> = []
  browser.page.on("response", (r) => requests.push(r.url()))
  await browser.page.goto(`${server.url}${path}`)
  return requests
}

describe("the API reference page", () => {
  it("shows the operations of 2026-03-20 with their schemas, from the simulator alone", async () => {
    const requests = await opened("/docs/2026-03-20")
    const page = browser.page
    await page.getByRole("heading", { name: "Create vault account" }).first().waitFor({ timeout: 30_000 })
    for (const summary of ["List UTXOs", "Create batch transaction request", "Get vault account details"])
      await expect.poll(() => page.getByText(summary).count(), { timeout: 15_000 }).toBeGreaterThan(0)
    expect(await page.locator("body").textContent()).toContain("vault_as_a_service_vault_recovery_not_initialized")
    // The viewport only: the whole page is too tall for one image.
    await page.screenshot({ path: join(SCREENSHOTS, "reference-2026-03-20.png") })
    expect(requests.filter((u) => !u.startsWith(server.url) && !u.startsWith("data:") && !u.startsWith("blob:"))).toEqual([])
  }, 90_000)

  it("shows each version's own operations, and /docs the newest", async () => {
    await opened("/docs/2024-05-09")
    await browser.page.getByRole("heading", { name: "Create coin transaction request from address" }).first().waitFor({ timeout: 30_000 })
    expect(await browser.page.getByRole("heading", { name: "List UTXOs" }).count()).toBe(0)
    await opened("/docs")
    await browser.page.getByRole("heading", { name: "List UTXOs" }).first().waitFor({ timeout: 30_000 })
    expect(await browser.page.getByRole("link", { name: "2024-05-09" }).getAttribute("href")).toBe("/docs/2024-05-09")
  }, 90_000)

  it("is linked from the dashboard", async () => {
    const page = browser.page
    await page.goto(`${server.url}/ui/`)
    await page.locator("#token").fill(p.sim.adminToken)
    await page.getByRole("button", { name: "Log in" }).click()
    expect(await page.getByRole("link", { name: "API reference" }).getAttribute("href")).toBe("/docs")
  }, 60_000)

  it("answers an unknown version as an unknown route", async () => {
    const r = await fetch(`${server.url}/docs/2020-01-01`)
    expect(r.status).toBe(400)
    expect(((await r.json()) as { error: { code: string } }).error.code).toBe("uri_not_found")
  })
})
