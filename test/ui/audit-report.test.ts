// The audit report as a file saved and opened later: it draws its charts with nothing but the page itself (no
// request leaves it), by time when the clock moved between changes and by log position when it stood still.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, expect, it } from "vitest"
import { runAudit } from "../support/audit.js"
import { auditHtml } from "../../src/audit/html.js"
import { assetId } from "../support/catalogue.js"
import { startHarness, type Harness } from "../support/harness.js"
import { launchBrowser, type Browser } from "../support/browser.js"

const ETH = assetId("ethereum", "sepolia", "ETH")
let h: Harness
let browser: Browser
let dir: string
const requests: Array<string> = []

beforeAll(async () => {
  h = await startHarness()
  dir = mkdtempSync(join(tmpdir(), "custody-sim-audit-"))
  browser = await launchBrowser()
  browser.page.on("request", (r) => void (r.url().startsWith("file:") ? undefined : requests.push(r.url())))
}, 60_000)
afterAll(async () => {
  await browser?.close()
  await h?.close()
  rmSync(dir, { recursive: true, force: true })
})

const newAddress = async (name: string) => {
  const acct = (
    await h.client.call<any>("POST", `/vaults/${h.testVaultId}/vault-account`, {
      item: { name, color: "#000000", isHiddenInDashboard: false },
    })
  ).body.data.item.vaultAccountId
  return (
    await h.client.call<any>("PUT", `/vaults/${h.testVaultId}/vault-accounts/${acct}/add-asset`, { item: { assetId: ETH, label: name } })
  ).body.data.item.address as string
}
const deposit = async (address: string, amount: string) => {
  await h.admin("POST", "/_sim/deposits", { blockchain: "ethereum", network: "sepolia", address, assetId: ETH, amount })
  await h.admin("POST", "/_sim/chains/ethereum/sepolia/mine", { blocks: 1 })
}

it("draws every chart offline from the saved file, each on its own axis", async () => {
  await h.admin("PUT", "/_sim/chains/ethereum/sepolia/mining", { mode: "manual", confirmations: 1 })
  const still = await newAddress("still")
  await deposit(still, "1")
  await deposit(still, "2")
  const moving = await newAddress("moving")
  await deposit(moving, "1")
  await h.admin("POST", "/_sim/clock/advance", { seconds: 3600 })
  await deposit(moving, "0.5")

  const file = join(dir, "report.html")
  writeFileSync(file, auditHtml(await runAudit(h.sim, undefined), h.sim.models))
  await browser.page.goto(`file://${file}`)
  const charts = browser.page.locator("[data-chart]")
  expect(await charts.count()).toBe(2)
  await expect.poll(() => browser.page.locator("[data-chart][data-drawn]").count()).toBe(2)
  expect(await charts.evaluateAll((els) => els.map((e) => e.getAttribute("aria-label")))).toEqual([
    "balance over log position",
    "balance over simulated time",
  ])
  for (const i of [0, 1]) {
    expect(await charts.nth(i).locator("canvas").count()).toBe(1)
    expect(await charts.nth(i).locator(".u-legend").textContent()).toMatch(/total \(ETH\)[\s\S]*available \(ETH\)/)
  }
  expect(requests).toEqual([])
  await browser.shot("audit-report-file")
})
