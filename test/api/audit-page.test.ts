// The audit report as a browser opens it: from the `?token=` link serve prints, over a real socket; its charts run
// against the log position when the simulated clock stands still (the testing default), with labelled axes.
import { createHash } from "node:crypto"
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
  const acct = (
    await h.client.call<any>("POST", `/vaults/${h.testVaultId}/vault-account`, {
      item: { name: "a", color: "#000000", isHiddenInDashboard: false },
    })
  ).body.data.item.vaultAccountId
  const address = (
    await h.client.call<any>("PUT", `/vaults/${h.testVaultId}/vault-accounts/${acct}/add-asset`, { item: { assetId: ETH, label: "a" } })
  ).body.data.item.address
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

it("charts each balance against the log position when time stood still, drawn by the inlined chart script", async () => {
  const res = await page(`/_sim/audit?token=${encodeURIComponent(h.sim.adminToken)}`)
  const html = await res.body.text()
  const holder =
    /<div class="chart" data-chart role="img" aria-label="balance over log position"><script type="application\/json" class="series">([^<]*)<\/script><\/div>/.exec(
      html,
    )
  expect(holder).not.toBeNull()
  const series = JSON.parse(holder![1]!) as {
    unit: string
    byTime: boolean
    x: Array<number>
    total: Array<number>
    available: Array<number>
  }
  expect([series.unit, series.byTime]).toEqual(["ETH", false])
  expect(series.total.at(-1)).toBe(3.5)
  expect(new Set(series.x).size).toBeGreaterThan(1)
  expect(series.x).toEqual([...series.x].sort((a, b) => a - b))
  expect([series.x.length, series.available.length]).toEqual([series.total.length, series.total.length])
  // uPlot and the drawing code travel inside the page: it draws wherever the file is saved and opened.
  const script = /<script type="module">([\s\S]*)<\/script>\s*<\/body>/.exec(html)?.[1] ?? ""
  expect(script).toContain("log position (the changes share one simulated time)")
  expect(script).toContain("u-legend")
  expect(html).toContain(".uplot")
  // Served, the page may run that one script and load nothing: a note or label in the report cannot run code.
  const digest = createHash("sha256").update(script).digest("base64")
  expect(res.headers["content-security-policy"]).toBe(
    `default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'self'; base-uri 'none'; form-action 'none'; script-src 'sha256-${digest}'`,
  )
})
