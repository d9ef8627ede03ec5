// The dashboard end to end in headless Chromium against a simulator on a real socket: login, deposit and mine,
// live updates, the timeline against x-sim-as-of, approvals, webhook redelivery, the audit, logout.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Page } from "playwright-core"
import { findTestAsset } from "../../src/testing.js"
import { startInProcess, type InProcess } from "../../src/testing/in-process.js"
import { launchBrowser, type Browser } from "../support/browser.js"
import { inProcessFixtureAt } from "../support/harness.js"
import { listen } from "../support/server.js"
import { startReceiver, type Receiver } from "../webhooks/receiver.js"

const ETH = findTestAsset("ETH", "ethereum")
let p: InProcess
let server: { url: string; close: () => Promise<void> }
let browser: Browser
let rx: Receiver
let page: Page
let address = ""
let accountId = ""

beforeAll(async () => {
  p = await startInProcess({ seed: "dashboard-browser", fixture: inProcessFixtureAt("2024-05-09") })
  server = await listen(p.app)
  rx = await startReceiver()
  browser = await launchBrowser()
  page = browser.page
}, 60_000)
afterAll(async () => {
  await browser?.close()
  await server?.close()
  await rx?.close()
  await p?.close()
})

const message = () => page.getByTestId("message")
const done = async (label: string) => expect.poll(() => message().textContent(), { timeout: 10_000 }).toContain(`${label}: done`)
const ethCell = (column: "total" | "available") => page.locator(`tr[data-asset="${ETH.symbol}"] [data-testid="${column}"]`).first()
const restAsOf = async (asOf: string | undefined) => {
  const r = await p
    .client()
    .call<{ item: { assets: Array<{ symbol: string; assetData: { totalAmount: string; availableAmount: string } }> } }>(
      "GET",
      `/vaults/${p.testVaultId}/ethereum/addresses/${address}/assets`,
      {
        headers: asOf === undefined ? {} : { "x-sim-as-of": asOf },
      },
    )
  return r.body.data.item.assets.find((a) => a.symbol === ETH.symbol)!.assetData
}

describe("the dashboard in a browser", () => {
  it("logs in with the admin token and shows the overview", async () => {
    await page.goto(`${server.url}/ui/`)
    await page.locator("#token").fill("wrong")
    await page.getByRole("button", { name: "Log in" }).click()
    await expect.poll(() => page.getByRole("alert").textContent()).toContain("not the admin token")
    await page.locator("#token").fill(p.sim.adminToken)
    await page.getByRole("button", { name: "Log in" }).click()
    await page.getByRole("link", { name: "Test vault" }).waitFor()
    const cookies = await browser.context.cookies()
    expect(cookies.find((c) => c.name === "custody_sim_session")).toMatchObject({ httpOnly: true, sameSite: "Strict" })
    expect(await page.evaluate("document.cookie")).toBe("")
    await browser.shot("overview")
  })

  it("sets the chain's mining mode, creates an account and adds an asset", async () => {
    await page.goto(`${server.url}/ui/#/chain/ethereum/sepolia`)
    await page.locator("select[name=mode]").selectOption("manual")
    await page.locator("input[name=confirmations]").fill("1")
    await page.getByRole("button", { name: "set mining" }).click()
    await done("set the mining mode")
    await expect.poll(() => page.locator("main p").first().textContent()).toContain("mining manual")
    await browser.shot("chain")

    await page.getByRole("link", { name: "Overview" }).click()
    await page.getByRole("link", { name: "Test vault" }).click()
    await page.locator("input[name=account-name]").fill("alice")
    await page.getByRole("button", { name: "create account" }).click()
    await done("create a vault account")
    await page.getByRole("button", { name: "alice" }).waitFor()
    await page.locator("select[name=asset]").selectOption(ETH.assetId)
    await page.getByRole("button", { name: "add asset" }).click()
    await done("add an asset")
    await ethCell("total").waitFor()
    address = (await page.locator(`tr[data-asset="${ETH.symbol}"]`).first().getAttribute("data-address"))!
    accountId = [...p.sim.models.holdings.accounts.values()].find((a) => a.name === "alice")!.vaultAccountId
    expect(p.sim.models.holdings.address("ethereum", "sepolia", address, undefined)?.facts.vaultAccountId).toBe(accountId)
    expect(await ethCell("total").textContent()).toBe("0")
  })

  let beforeMined = -1n
  let afterMined = -1n
  it("makes a deposit and mines it: the balance changes", async () => {
    await page.locator("input[name=amount]").first().fill("1.5")
    await page.getByRole("button", { name: "deposit" }).first().click()
    await done("deposit")
    beforeMined = p.sim.models.position
    expect(await ethCell("total").textContent()).toBe("0")
    await page.getByRole("button", { name: "mine 1" }).first().click()
    await done("mine")
    await expect.poll(() => ethCell("total").textContent()).toBe("1.5")
    afterMined = p.sim.models.position
    expect(await restAsOf(undefined)).toMatchObject({ totalAmount: "1.5", availableAmount: "1.5" })
  })

  it("follows the log live: a deposit made elsewhere shows without a reload", async () => {
    const r = await p.admin("POST", "/_sim/deposits", {
      blockchain: "ethereum",
      network: "sepolia",
      address,
      assetId: ETH.assetId,
      amount: "0.25",
    })
    expect(r.status).toBe(201)
    expect((await p.admin("POST", "/_sim/chains/ethereum/sepolia/mine", { blocks: 1 })).status).toBe(200)
    await expect.poll(() => ethCell("total").textContent(), { timeout: 10_000 }).toBe("1.75")
    await browser.shot("vault")
  })

  it("moves the timeline back: every figure is the REST answer with x-sim-as-of, and 'now' returns", async () => {
    const slider = page.locator("#timeline-slider")
    await slider.fill(String(beforeMined))
    await expect.poll(() => page.getByTestId("as-of-position").textContent()).toBe(String(beforeMined))
    await expect.poll(() => ethCell("total").textContent()).toBe((await restAsOf(`position:${beforeMined}`)).totalAmount)
    expect(await ethCell("total").textContent()).toBe("0")
    await browser.shot("timeline-past")
    await slider.fill(String(afterMined))
    await expect.poll(() => ethCell("total").textContent()).toBe((await restAsOf(`position:${afterMined}`)).totalAmount)
    expect(await ethCell("total").textContent()).toBe("1.5")
    // A drag with the mouse to the far left: the earliest position, before the account existed.
    const box = (await slider.boundingBox())!
    await page.mouse.move(box.x + box.width - 4, box.y + box.height / 2)
    await page.mouse.down()
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 5 })
    await page.mouse.move(box.x + 1, box.y + box.height / 2, { steps: 5 })
    await page.mouse.up()
    await expect.poll(() => page.getByTestId("as-of-position").textContent()).toBe("1") // positions count from 1
    // Before alice: the vault's default account alone.
    await expect.poll(() => page.getByRole("button", { name: "alice" }).count()).toBe(0)
    expect(await page.locator("ul.chips button").allTextContents()).toEqual(["Default default"])
    await page.getByRole("button", { name: "now" }).click()
    await expect.poll(() => ethCell("total").textContent()).toBe("1.75")
  })

  it("moves the timeline with the keyboard", async () => {
    const slider = page.locator("#timeline-slider")
    await slider.focus()
    await page.keyboard.press("Home")
    await expect.poll(() => page.getByTestId("as-of-position").textContent()).toBe("1")
    await page.keyboard.press("ArrowRight")
    await expect.poll(() => page.getByTestId("as-of-position").textContent()).toBe("2")
    await page.keyboard.press("End")
    await expect.poll(() => page.locator(".timeline .live").count()).toBe(1)
    await expect.poll(() => ethCell("total").textContent()).toBe("1.75")
  })

  it("draws the balance over time with links to the causing events", async () => {
    await page.locator(`tr[data-asset="${ETH.symbol}"] a`).first().click()
    await page.locator(".chart canvas").first().waitFor()
    const links = page.getByRole("region", { name: "balance changes" }).getByRole("link")
    expect(await links.count()).toBe(2)
    await browser.shot("balance")
    // A click on the chart picks the nearest change: at the right edge, the latest one, whose event opens.
    const latest = (await p.admin("GET", `/_sim/balances/history?address=${address}&assetId=${ETH.assetId}`)).body.changes.at(-1).position
    const over = (await page.locator(".chart .u-over").boundingBox())!
    await page.mouse.click(over.x + over.width - 2, over.y + over.height / 2)
    await expect.poll(() => page.evaluate<string>("location.hash")).toBe(`#/events?at=${latest}`)
    await expect.poll(() => page.locator("tr.selected").count()).toBe(1)
    await page.goBack()
    await links.first().waitFor()
    await links.first().click()
    await expect.poll(() => page.locator("tr.selected").count()).toBe(1)
    await expect.poll(() => page.locator("pre.json").textContent()).toContain('"type": "DepositCredited"')
    await browser.shot("events")
  })

  it("approves a pending transaction request and shows its new status", async () => {
    expect((await p.admin("PUT", `/_sim/vaults/${p.testVaultId}/approval-policy`, { mode: "manual", levels: 1 })).status).toBe(200)
    const created = await p
      .client()
      .call<{ item: { transactionRequestId: string } }>("POST", `/vaults/${p.testVaultId}/transaction-requests/single-transfer`, {
        item: {
          vaultAccountId: accountId,
          assetId: ETH.assetId,
          fromAddress: address,
          toAddress: "0x000000000000000000000000000000000000dEaD",
          amount: "0.5",
        },
      })
    expect(created.status).toBe(201)
    const id = created.body.data.item.transactionRequestId
    await page.getByRole("link", { name: "Requests" }).click()
    const row = page.locator(`tr[data-request="${id}"]`)
    await expect.poll(() => row.getByTestId("request-status").textContent(), { timeout: 10_000 }).toBe("await-approval")
    await browser.shot("requests")
    await row.getByRole("button", { name: "approve" }).click()
    await done("approve")
    const rest = await p.client().call<{ item: { transactionRequestStatus: string } }>("GET", `/transactionRequests/${id}`)
    expect(rest.body.data.item.transactionRequestStatus).toBe("broadcasted")
    await expect.poll(() => row.getByTestId("request-status").textContent()).toBe("broadcasted")
  })

  it("redelivers a webhook whose delivery failed", async () => {
    rx.answer = () => ({ status: 500 })
    const sub = await p.admin("POST", "/_sim/webhooks", {
      url: rx.url,
      secret: "s",
      events: ["INCOMING_CONFIRMED_COIN_TX"],
      retrySchedule: [1],
    })
    expect(sub.status).toBe(201)
    await p.admin("POST", "/_sim/deposits", { blockchain: "ethereum", network: "sepolia", address, assetId: ETH.assetId, amount: "0.1" })
    await p.admin("POST", "/_sim/chains/ethereum/sepolia/mine", { blocks: 1 })
    await rx.waitFor(1)
    await p.sim.webhooks!.idle()
    await p.admin("POST", "/_sim/clock/advance", { seconds: 1 })
    await rx.waitFor(2)
    await p.sim.webhooks!.idle()
    const [given] = (await p.admin("GET", `/_sim/webhooks/${sub.body.id}/deliveries`)).body.deliveries
    expect(given.status).toBe("given-up")
    const givenUpAt = Number(p.sim.models.position)
    rx.answer = () => ({ status: 200 })
    await page.getByRole("link", { name: "Webhooks" }).click()
    await page.getByRole("button", { name: rx.url.slice(0, 20), exact: false }).click()
    const row = page.locator(`tr[data-delivery="${given.id}"]`)
    await expect.poll(() => row.getByTestId("delivery-status").textContent()).toBe("given-up")
    expect(await row.getByTestId("delivery-attempts").textContent()).toBe("2 (500, 500)")
    await row.getByRole("button", { name: "redeliver" }).click()
    await done("redeliver")
    await rx.waitFor(3)
    await p.sim.webhooks!.idle()
    await expect.poll(() => row.getByTestId("delivery-status").textContent(), { timeout: 10_000 }).toBe("delivered")
    expect(await row.getByTestId("delivery-attempts").textContent()).toBe("3 (500, 500, 200)")
    await row.getByRole("button", { name: "INCOMING_CONFIRMED_COIN_TX" }).click()
    await browser.shot("webhooks")
    // The timeline moved back to before the redelivery: the delivery as it stood then, redelivery disabled.
    const slider = page.locator("#timeline-slider")
    await slider.fill(String(givenUpAt))
    await expect.poll(() => row.getByTestId("delivery-status").textContent()).toBe("given-up")
    expect(await row.getByTestId("delivery-attempts").textContent()).toBe("2 (500, 500)")
    expect(await row.getByRole("button", { name: "redeliver" }).isDisabled()).toBe(true)
    await page.getByRole("button", { name: "now" }).click()
    await expect.poll(() => row.getByTestId("delivery-status").textContent()).toBe("delivered")
  })

  it("runs the audit and shows its report with the report's charts", async () => {
    await page.getByRole("link", { name: "Audit" }).click()
    await page.getByRole("button", { name: /run the audit/ }).click()
    const frame = page.frameLocator("iframe.report")
    await frame.locator("h1").waitFor()
    expect(await frame.locator("h1").textContent()).toContain("OK")
    const chart = frame.locator("[data-chart][data-drawn]").first()
    await chart.waitFor()
    expect(Number(await chart.getAttribute("data-drawn"))).toBeGreaterThan(1)
    expect(await chart.locator("canvas").count()).toBe(1)
    expect(await chart.locator(".u-legend").textContent()).toMatch(/total \(ETH\)[\s\S]*available \(ETH\)/)
    await browser.shot("audit")
  })

  it("shows an action's error in the page", async () => {
    await page.getByRole("link", { name: "Overview" }).click()
    await page.locator("input[name=seconds]").fill("-5")
    await page.getByRole("button", { name: "advance" }).click()
    await expect.poll(() => page.getByRole("alert").textContent()).toContain("invalid_data")
  })

  it("reads well in a narrow window", async () => {
    await page.setViewportSize({ width: 420, height: 900 })
    await page.goto(`${server.url}/ui/#/vault/${p.testVaultId}`)
    await page.getByRole("button", { name: "alice" }).click()
    await ethCell("total").waitFor()
    expect(await page.evaluate<number>("document.documentElement.scrollWidth")).toBeLessThanOrEqual(420)
    await browser.shot("vault-narrow")
    await page.setViewportSize({ width: 1280, height: 900 })
  })

  it("logs out: the page asks for the token again and the old session's changes are refused", async () => {
    const csrf = await page.evaluate(async () => ((await (await fetch("/ui/session")).json()) as { csrfToken: string }).csrfToken)
    await page.getByRole("button", { name: "Log out" }).click()
    await page.locator("#token").waitFor()
    const height = (await p.admin("GET", "/_sim/chains/ethereum/sepolia")).body.height
    const refused = await page.evaluate(async (token) => {
      const r = await fetch("/_sim/chains/ethereum/sepolia/mine", {
        method: "POST",
        headers: { "content-type": "application/json", "x-csrf-token": token },
        body: "{}",
      })
      return { status: r.status, body: await r.json() }
    }, csrf)
    expect(refused).toMatchObject({ status: 401, body: { error: { code: "unauthorized" } } })
    expect((await p.admin("GET", "/_sim/chains/ethereum/sepolia")).body.height).toBe(height)
    await page.reload()
    await page.locator("#token").waitFor()
  })
})
