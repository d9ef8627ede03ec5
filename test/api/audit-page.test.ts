// The audit report as a browser opens it: from the `?token=` link serve prints, over a real socket; its charts run
// against the log position when the simulated clock stands still (the testing default), with labelled axes.
import { request } from "undici"
import { afterAll, beforeAll, expect, it } from "vitest"
import { startHarness, type Harness } from "../support/harness.js"
import { assetId } from "../support/catalogue.js"
import { listen } from "../support/server.js"

let h: Harness
let server: { url: string; close: () => Promise<void> }
beforeAll(async () => {
  h = await startHarness()
  server = await listen(h.app)
  const ETH = assetId("ethereum", "sepolia", "ETH")
  const acct = (await h.client.call<any>("POST", `/vaults/${h.testVaultId}/vault-account`, { item: { name: "a", color: "#000000", isHiddenInDashboard: false } })).body.data.item.vaultAccountId
  const address = (await h.client.call<any>("PUT", `/vaults/${h.testVaultId}/vault-accounts/${acct}/add-asset`, { item: { assetId: ETH, label: "a" } })).body.data.item.address
  await h.admin("PUT", "/_sim/chains/ethereum/sepolia/mining", { mode: "manual", confirmations: 1 })
  for (const amount of ["1", "2.5"]) {
    await h.admin("POST", "/_sim/deposits", { blockchain: "ethereum", network: "sepolia", address, assetId: ETH, amount })
    await h.admin("POST", "/_sim/chains/ethereum/sepolia/mine", { blocks: 1 })
  }
})
afterAll(async () => {
  await server?.close()
  await h?.close()
})

const page = (query: string) => request(`${server.url}${query}`, { headers: { accept: "text/html,application/xhtml+xml" } })

it("opens from the ?token= link as an HTML page; a wrong token or another route is refused", async () => {
  const ok = await page(`/_sim/audit?token=${encodeURIComponent(h.sim.adminToken)}`)
  expect([ok.statusCode, ok.headers["content-type"]]).toEqual([200, expect.stringMatching(/^text\/html/)])
  expect(await ok.body.text()).toMatch(/^<!doctype html>/)
  const wrong = await page("/_sim/audit?token=not-the-token")
  expect([wrong.statusCode, JSON.parse(await wrong.body.text()).error.code]).toEqual([401, "unauthorized"])
  const other = await page(`/_sim/events?token=${encodeURIComponent(h.sim.adminToken)}`)
  expect(other.statusCode).toBe(401)
  await other.body.text()
})

it("charts each balance against the log position when time stood still, with both axes named", async () => {
  const res = await page(`/_sim/audit?token=${encodeURIComponent(h.sim.adminToken)}`)
  const html = await res.body.text()
  const svg = /<svg [^>]*aria-label="balance over log position"[\s\S]*?<\/svg>/.exec(html)?.[0]
  expect(svg).toBeDefined()
  expect(svg).toContain("x: log position (simulated time did not move)")
  expect(svg).toContain("y: amount (ETH), one scale for total and available")
  expect(svg).toContain(">3.5 ETH<")
  const total = /points="([^"]+)" class="total"/.exec(svg!)![1]!
  expect(new Set(total.split(" ").map((p) => p.split(",")[0])).size).toBeGreaterThan(1)
})
