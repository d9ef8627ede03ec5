// The dashboard's snags of #40 in headless Chromium, in a browser whose own time zone is far from UTC: the vault's
// default account, the asset and network pickers on the vault's own network type, the frozen clock said in the time
// labels, one time zone (UTC) in chart and tables, the timeline's marked block equal to the chain's height at every
// position and now, and the vault pages usable 420 px wide.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Page } from "playwright-core"
import { findTestAsset } from "../../src/testing.js"
import { IN_PROCESS_FIXTURE, startInProcess, type InProcess } from "../../src/testing/in-process.js"
import { launchBrowser, type Browser } from "../support/browser.js"
import { listen } from "../support/server.js"

const ETH = findTestAsset("ETH", "ethereum")
/** UTC+14: a local clock there is on another day than UTC for most of the day. */
const FAR_ZONE = "Pacific/Kiritimati"
let p: InProcess
let server: { url: string; close: () => Promise<void> }
let browser: Browser
let page: Page

beforeAll(async () => {
  p = await startInProcess({
    seed: "dashboard-snags",
    webhooks: false,
    fixture: { ...IN_PROCESS_FIXTURE, apiKeys: [{ name: "snags", apiVersion: "2024-05-09" }] },
  })
  server = await listen(p.app)
  browser = await launchBrowser()
  page = browser.page
  const cdp = await browser.context.newCDPSession(page)
  await cdp.send("Emulation.setTimezoneOverride", { timezoneId: FAR_ZONE })
  await page.goto(`${server.url}/ui/`)
  await page.locator("#token").fill(p.sim.adminToken)
  await page.getByRole("button", { name: "Log in" }).click()
  await page.getByRole("link", { name: "Test vault" }).waitFor()
}, 60_000)
afterAll(async () => {
  await browser?.close()
  await server?.close()
  await p?.close()
})

/** Polls with a generous bound: it only bounds a hang on a loaded machine. */
const poll = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 15_000 })
const done = (label: string) => poll(() => page.getByTestId("message").textContent()).toContain(`${label}: done`)
const iso = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace("T", " ")
    .replace(/\.000Z$/, "Z")
const openVault = async (name: "Test vault" | "Main vault") => {
  await page.getByRole("link", { name: "Overview" }).click()
  await page.getByRole("link", { name }).click()
  await page.getByRole("heading", { name: new RegExp(name) }).waitFor()
}
/** The picker's network types: the selected option's, and every option's (the test's tsconfig has no DOM types). */
const picker = (name: "asset" | "network") =>
  page.locator(`select[name=${name}]`).evaluate(
    (s: any) =>
      ({
        selected: s.selectedOptions[0]?.dataset.networkType,
        first: s.selectedIndex === 0,
        types: [...new Set([...s.options].map((o: any) => o.dataset.networkType))],
        count: s.options.length,
      }) as { selected: string | undefined; first: boolean; types: Array<string>; count: number },
  )
const slider = () => page.locator("#timeline-slider")
const markedBlock = () => page.getByTestId("marked-block")
let ownAddress = ""

describe("the dashboard's snags", () => {
  it("runs in a browser whose time zone is not UTC", async () => {
    expect(await page.evaluate<string>("Intl.DateTimeFormat().resolvedOptions().timeZone")).toBe(FAR_ZONE)
  }, 120_000)

  it("says in the time labels that the clock is frozen", async () => {
    const timeline = (await p.admin("GET", "/_sim/timeline")).body
    expect(timeline).toMatchObject({ frozen: true, now: timeline.headTime })
    expect(await page.getByTestId("timeline-time").textContent()).toBe(`${iso(timeline.now)} (clock frozen)`)
    // No simulated time passed over the log: one label under the track says so, not three equal times.
    expect(await page.locator(".timeline .ticks span").allTextContents()).toEqual([`${iso(timeline.now)} throughout, clock frozen`])
    expect(await page.locator("main").textContent()).toContain("clock frozen")
    await browser.shot("snags-frozen")
  }, 120_000)

  it("shows the vault's default account, whose id is the vault's, with the vault's own addresses", async () => {
    expect((await p.admin("PUT", "/_sim/chains/ethereum/sepolia/mining", { mode: "manual", confirmations: 1 })).status).toBe(200)
    await openVault("Test vault")
    const chip = page.locator(`button[data-account="${p.testVaultId}"]`)
    expect(await chip.textContent()).toBe("Default default")
    expect(await chip.getAttribute("aria-pressed")).toBe("true")
    expect(await page.getByTestId("account-id").textContent()).toContain(p.testVaultId)
    // The default account derives addresses (REST #6 without an account): the network picker is on test networks.
    expect(await picker("network")).toMatchObject({ selected: "test", first: true, types: ["test"] })
    await page.locator("select[name=network]").selectOption("ethereum/sepolia")
    await page.getByRole("button", { name: "new address" }).click()
    await done("derive an address")
    const row = page.locator(`tr[data-asset="${ETH.symbol}"]`).first()
    await row.waitFor()
    ownAddress = (await row.getAttribute("data-address"))!
    expect(p.sim.models.holdings.address("ethereum", "sepolia", ownAddress, undefined)?.facts).toMatchObject({
      vaultId: p.testVaultId,
      vaultAccountId: null,
    })
    const listed = await p.admin("GET", `/_sim/vaults/${p.testVaultId}/vault-accounts`)
    expect(listed.body.items).toEqual([
      expect.objectContaining({ vaultAccountId: p.testVaultId, name: "Default", isDefault: true, index: 0 }),
    ])
    // A deposit to it, mined: the default account's balance, as REST #8 answers for the address.
    await page.locator("input[name=amount]").first().fill("1")
    await page.getByRole("button", { name: "deposit" }).first().click()
    await done("deposit")
    await page.getByRole("button", { name: "mine 1" }).first().click()
    await done("mine")
    await poll(() => row.getByTestId("total").textContent()).toBe("1")
    const rest = await p.client().call<any>("GET", `/vaults/${p.testVaultId}/ethereum/addresses/${ownAddress}/assets`)
    expect(rest.body.data.item.assets[0].assetData.totalAmount).toBe("1")
    await browser.shot("snags-default-account")
  }, 120_000)

  it("draws a balance whose changes share one frozen time by log position, and says why", async () => {
    await page.locator(`tr[data-address="${ownAddress}"] a`).first().click()
    await page.locator(".chart canvas").first().waitFor()
    expect(await page.locator(".chart").getAttribute("data-by")).toBe("position")
    expect(await page.locator(".chart .u-legend .u-series").first().locator(".u-label").textContent()).toBe("position")
    await browser.shot("snags-balance-frozen")
  }, 120_000)

  it("starts the asset picker on the vault's own network type, whichever vault was open before", async () => {
    for (const name of ["main", "test"]) {
      const vault = name === "main" ? p.mainVaultId : p.testVaultId
      expect(
        (
          await p.admin("POST", `/_sim/vaults/${vault}/vault-accounts`, {
            name: `${name}-account`,
            color: "#112233",
            isHiddenInDashboard: false,
          })
        ).status,
      ).toBe(201)
    }
    await openVault("Test vault")
    await page.getByRole("button", { name: "test-account" }).click()
    expect(await picker("asset")).toMatchObject({ selected: "test", first: true, types: ["test"] })
    // A choice made here is a test asset: the main vault's picker does not keep it.
    await page.locator("select[name=asset]").selectOption(ETH.assetId)
    await openVault("Main vault")
    expect(await picker("network")).toMatchObject({ selected: "main", first: true, types: ["main"] })
    await page.getByRole("button", { name: "main-account" }).click()
    const main = await picker("asset")
    expect(main).toMatchObject({ selected: "main", first: true, types: ["main"] })
    expect(main.count).toBeGreaterThan(1)
    await page.getByRole("button", { name: "add asset" }).click()
    await done("add an asset")
    const added = [...p.sim.models.holdings.vaultAddresses(p.mainVaultId, undefined)]
    expect(added.map((a) => a.facts.network)).not.toContain("sepolia")
    expect(added).toHaveLength(1)
    await browser.shot("snags-main-picker")
  }, 120_000)

  let timed: { address: string; times: Array<number> } = { address: "", times: [] }
  it("uses UTC in the balance chart as in its table and the log, whatever the browser's zone", async () => {
    // Two deposits an hour and a half apart (the clock moves), mined on the manual schedule.
    expect((await p.admin("PUT", "/_sim/chains/ethereum/sepolia/mining", { mode: "manual", confirmations: 1 })).status).toBe(200)
    for (const amount of ["0.5", "0.25"]) {
      expect(
        (
          await p.admin("POST", "/_sim/deposits", {
            blockchain: "ethereum",
            network: "sepolia",
            address: ownAddress,
            assetId: ETH.assetId,
            amount,
          })
        ).status,
      ).toBe(201)
      expect((await p.admin("POST", "/_sim/chains/ethereum/sepolia/mine", { blocks: 1 })).status).toBe(200)
      expect((await p.admin("POST", "/_sim/clock/advance", { seconds: 5400 })).status).toBe(200)
    }
    const history = (await p.admin("GET", `/_sim/balances/history?vaultId=${p.testVaultId}&address=${ownAddress}&assetId=${ETH.assetId}`))
      .body.changes
    timed = { address: ownAddress, times: history.map((c: { timeMs: number }) => c.timeMs) }
    await page.goto(`${server.url}/ui/#/balance/${p.testVaultId}/ethereum/sepolia/${ownAddress}/${ETH.assetId}`)
    await page.locator(".chart canvas").first().waitFor()
    expect(await page.locator(".chart").getAttribute("data-by")).toBe("time")
    const firstRow = page.getByRole("region", { name: "balance changes" }).locator("tbody tr").first()
    const latest = iso(timed.times.at(-1)!)
    expect(await firstRow.locator("td").nth(1).textContent()).toBe(latest)
    // The chart's legend names the point under the cursor: the latest change, at the right edge, in UTC too.
    // Hovered through the locator and retried: the chart is drawn again when the view reads a changed answer.
    const over = page.locator(".chart .u-over")
    const legend = page.locator(".chart .u-legend .u-series").first()
    const valueAtEdge = async (edge: "left" | "right") => {
      const box = await over.boundingBox()
      if (box === null) return null
      await over.hover({ position: { x: edge === "right" ? box.width - 2 : 2, y: box.height / 2 } })
      return legend.locator(".u-value").textContent()
    }
    await poll(() => valueAtEdge("right")).toBe(latest)
    expect(await legend.locator(".u-label").textContent()).toBe("time (UTC)")
    await poll(() => valueAtEdge("left")).toBe(iso(timed.times[0]!))
    await browser.shot("snags-balance-utc")
    // The event log's times are the events' own, in UTC.
    const [last] = (await p.admin("GET", `/_sim/events?fromPosition=${p.sim.models.position}`)).body.events
    await page.goto(`${server.url}/ui/#/events?at=${last.position}`)
    await poll(() => page.locator("tr.selected td").nth(1).textContent()).toBe(iso(last.metadata.at))
  }, 120_000)

  it("marks on the timeline the block the chain has at every position, and now", async () => {
    // Interval mining: blocks fall due with simulated time and are not recorded one by one.
    const chain = (asOf?: number) =>
      p
        .admin("GET", `/_sim/chains/ethereum/sepolia${asOf === undefined ? "" : `?asOf=position:${asOf}`}`)
        .then((r) => r.body.height as number)
    expect((await p.admin("PUT", "/_sim/chains/ethereum/sepolia/mining", { mode: "interval", confirmations: 1 })).status).toBe(200)
    const interval = (await p.admin("GET", "/_sim/chains/ethereum/sepolia")).body.intervalSeconds as number
    for (const amount of ["0.1", "0.2"]) {
      expect((await p.admin("POST", "/_sim/clock/advance", { seconds: interval * 3 })).status).toBe(200)
      expect(
        (
          await p.admin("POST", "/_sim/deposits", {
            blockchain: "ethereum",
            network: "sepolia",
            address: ownAddress,
            assetId: ETH.assetId,
            amount,
          })
        ).status,
      ).toBe(201)
    }
    const { first, head, blockCount } = (await p.admin("GET", "/_sim/timeline")).body
    await page.goto(`${server.url}/ui/#/chain/ethereum/sepolia`)
    await poll(() => page.getByTestId("as-of-position").textContent()).toBe(String(head))
    expect(await page.locator(".timeline .block").count()).toBe(blockCount)
    let seen = 0
    for (let position = first; position < head; position++) {
      await slider().fill(String(position))
      await poll(() => page.getByTestId("as-of-position").textContent()).toBe(String(position))
      const height = await chain(position)
      await poll(() => page.getByTestId("chain-height").textContent()).toBe(String(height))
      if (height === 0) expect(await markedBlock().count()).toBe(0)
      else
        await poll(() => markedBlock().textContent()).toMatch(
          new RegExp(`^ · marked block ethereum/sepolia #${height} \\(position \\d+\\)$`),
        )
      if (height > 0) seen++
    }
    expect(seen).toBeGreaterThan(0)
    // Now, after the clock moved on with no event: the chain's height now, which no position marks.
    await page.getByRole("button", { name: "now" }).click()
    expect((await p.admin("POST", "/_sim/clock/advance", { seconds: interval * 2 })).status).toBe(200) // mines the last deposit
    const before = p.sim.models.position
    expect((await p.admin("POST", "/_sim/clock/advance", { seconds: interval * 2 })).status).toBe(200)
    expect(p.sim.models.position).toBe(before)
    await page.reload()
    const now = await chain()
    await poll(() => page.getByTestId("chain-height").textContent()).toBe(String(now))
    await poll(() => markedBlock().textContent()).toBe(` · marked block ethereum/sepolia #${now} (the clock moved it since the last event)`)
    await browser.shot("snags-marked-block")
  }, 120_000)

  it("keeps the vault pages usable 420 px wide: the page never scrolls sideways, a table in its own box at most", async () => {
    await page.setViewportSize({ width: 420, height: 900 })
    // Measured in the page: the document's width, and each table's box (its right edge, whether it holds its table).
    const measure = () =>
      page.evaluate<{ page: [number, number]; tables: Array<{ label: string; right: number; fits: boolean; scrolls: boolean }> }>(`({
        page: [document.documentElement.scrollWidth, document.documentElement.clientWidth],
        tables: [...document.querySelectorAll("main .scroll")].map((box) => ({
          label: box.getAttribute("aria-label"),
          right: box.getBoundingClientRect().right,
          fits: box.scrollWidth <= box.clientWidth,
          scrolls: getComputedStyle(box).overflowX === "auto",
        })),
      })`)
    for (const [hash, name, ready] of [
      ["#/", "overview", 'main [aria-label="vaults"] tbody tr'],
      [`#/vault/${p.testVaultId}`, "test-vault", 'main [aria-label="transactions"] tbody tr'],
      [`#/vault/${p.mainVaultId}`, "main-vault", "main button[data-account]"],
    ] as const) {
      await page.goto(`${server.url}/ui/${hash}`)
      await page.locator(ready).first().waitFor({ timeout: 8000 })
      await page
        .locator("main select")
        .first()
        .waitFor({ state: name === "overview" ? "detached" : "visible", timeout: 8000 })
      const m = await measure()
      expect([name, m.page[0]! <= m.page[1]!]).toEqual([name, true])
      for (const t of m.tables) {
        expect([name, t.label, t.right <= 420]).toEqual([name, t.label, true])
        expect([name, t.label, t.fits || t.scrolls]).toEqual([name, t.label, true])
      }
      // The vaults table fits: its columns wrap.
      if (name === "overview") expect(m.tables.find((t) => t.label === "vaults")?.fits).toBe(true)
      await browser.shot(`snags-narrow-${name}`)
    }
    // A table wider than its box scrolls there: its last column comes into view and the page stays put.
    await page.goto(`${server.url}/ui/#/vault/${p.testVaultId}`)
    const box = page.getByRole("region", { name: "addresses and balances" })
    await box.locator("tbody tr").first().waitFor()
    await box.evaluate((b: any) => b.scrollTo({ left: b.scrollWidth }))
    const mine = box.getByRole("button", { name: "mine 1" }).first()
    const at = (await mine.boundingBox())!
    const frame = (await box.boundingBox())!
    expect(at.x >= frame.x && at.x + at.width <= frame.x + frame.width + 1).toBe(true)
    expect(await page.evaluate<number>("window.scrollX")).toBe(0)
    await page.setViewportSize({ width: 1280, height: 900 })
  }, 120_000)

  it("says so when the clock is frozen again, and not while it follows the wall clock", async () => {
    await page.goto(`${server.url}/ui/#/`)
    await page.reload() // live, whatever position an earlier test left the timeline at
    await page.getByRole("button", { name: "follow wall clock" }).click()
    await done("follow the wall clock")
    await poll(() => page.getByTestId("timeline-time").textContent()).not.toContain("frozen")
    await page.getByRole("button", { name: "freeze" }).click()
    await done("freeze the clock")
    await poll(() => page.getByTestId("timeline-time").textContent()).toMatch(/ \(clock frozen\)$/)
    expect((await p.admin("GET", "/_sim/clock")).body.frozen).toBe(true)
  }, 120_000)
})
