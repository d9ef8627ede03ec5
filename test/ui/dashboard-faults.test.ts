// The dashboard's faults in headless Chromium against a simulator on a real socket: a fault added through the form
// is listed, a refused one shows the server's reason, a matching signed call counts as a hit and is marked with the
// fault's id, a webhook fault's delivery is marked in the webhooks view, and removing or clearing the faults takes
// them off the list.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Page } from "playwright-core"
import { startInProcess, type InProcess } from "../../src/testing/in-process.js"
import { launchBrowser, type Browser } from "../support/browser.js"
import { findTestAsset } from "../../src/testing.js"
import { signedOver } from "../support/faults.js"
import { listen } from "../support/server.js"
import { startReceiver, type Receiver } from "../webhooks/receiver.js"

let p: InProcess
let server: { url: string; close: () => Promise<void> }
let browser: Browser
let page: Page
let rx: Receiver

beforeAll(async () => {
  p = await startInProcess({ seed: "dashboard-faults" })
  server = await listen(p.app)
  rx = await startReceiver()
  browser = await launchBrowser()
  page = browser.page
  await page.goto(`${server.url}/ui/`)
  await page.locator("#token").fill(p.sim.adminToken)
  await page.getByRole("button", { name: "Log in" }).click()
  await page.getByRole("link", { name: "Test vault" }).waitFor()
}, 60_000)
afterAll(async () => {
  await browser?.close()
  await server?.close()
  await rx?.close()
  await p?.close()
})

/** Polls with a generous bound: it only bounds a hang on a loaded machine. */
const poll = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 15_000 })
const message = () => page.getByTestId("message").textContent()
const signed = signedOver(
  () => server.url,
  () => p.credentials!,
)
const faultRows = () => page.locator("tr[data-fault]")
const addThroughForm = async (body: unknown) => {
  await page.locator("#fault-body").fill(typeof body === "string" ? body : JSON.stringify(body))
  await page.getByRole("button", { name: "add fault" }).click()
}

describe("the dashboard's faults", () => {
  it("adds a fault through the form and lists it with its match, effect and schedule", async () => {
    await page.getByRole("link", { name: "Faults" }).click()
    await poll(() => page.locator("main").textContent()).toContain("No faults in force.")
    await addThroughForm({ match: { method: "GET", path: "/vaults" }, effect: { kind: "status", status: 503 }, times: 1 })
    await poll(message).toContain("add a fault: done")
    await poll(() => faultRows().count()).toBe(1)
    const id = (await faultRows().first().getAttribute("data-fault"))!
    expect(p.sim.models.faults.get(id)?.definition).toMatchObject({ target: "api", effect: { kind: "status", status: 503 }, times: 1 })
    const cells = await faultRows().first().locator("td").allTextContents()
    expect(cells.slice(0, 6)).toEqual([id, "api", "method GET, path /vaults", "kind status, status 503", "times 1", "0"])
    await browser.shot("faults")
  })

  it("shows the server's reason when it refuses a fault, and adds nothing", async () => {
    await addThroughForm({ match: { method: "FETCH" }, effect: { kind: "reset" } })
    await poll(message).toContain("add a fault refused — invalid_data")
    expect(await message()).toContain("match.method")
    expect(p.sim.models.faults.all).toHaveLength(1)
    await poll(() => faultRows().count()).toBe(1)
  })

  it("counts a matching signed call as a hit and marks the request with the fault's id", async () => {
    const id = (await faultRows().first().getAttribute("data-fault"))!
    const faulted = await signed("GET", "/vaults")
    expect([faulted.status, faulted.body.error.code]).toEqual([503, "service_unavailable"])
    expect((await signed("GET", "/vaults")).status).toBe(200)
    await poll(() => faultRows().first().getByTestId("fault-hits").textContent()).toBe("1")
    const hit = page.locator(`tr[data-hit="${faulted.body.requestId}"]`)
    await poll(() => hit.count()).toBe(1)
    expect(await hit.getByTestId("fault-badge").textContent()).toBe(`fault ${id}`)
    expect(await hit.textContent()).toContain(`request ${faulted.body.requestId}`)
    expect(await page.locator("tr[data-hit]").count()).toBe(1)
    await browser.shot("faults-hit")
  })

  it("removes a fault with its button, and clears them all", async () => {
    await page.getByRole("button", { name: "remove" }).click()
    await poll(message).toContain("remove the fault: done")
    await poll(() => faultRows().count()).toBe(0)
    expect(p.sim.models.faults.all).toHaveLength(0)
    expect((await signed("GET", "/vaults")).status).toBe(200)

    await addThroughForm({ match: { path: "/vaults" }, effect: { kind: "status", status: 429 } })
    await poll(() => faultRows().count()).toBe(1)
    await addThroughForm({ match: { path: "/vaults/{vaultId}" }, effect: { kind: "status", status: 500 } })
    await poll(() => faultRows().count()).toBe(2)
    page.once("dialog", (d) => void d.accept())
    await page.getByRole("button", { name: "clear all" }).click()
    await poll(message).toContain("clear the faults: done")
    await poll(() => faultRows().count()).toBe(0)
    expect(p.sim.models.faults.all).toHaveLength(0)
    // The hit stays on record after its fault is gone.
    expect(await page.locator("tr[data-hit]").count()).toBe(1)
  })

  it("marks a delivery a webhook fault hit in the webhooks view, and lists it with the faulted requests", async () => {
    const ETH = findTestAsset("ETH", "ethereum")
    expect((await p.admin("PUT", "/_sim/chains/ethereum/sepolia/mining", { mode: "auto", confirmations: 1 })).status).toBe(200)
    const acct = await p.client().call<any>("POST", `/vaults/${p.testVaultId}/vault-account`, {
      item: { name: "faulted", color: "#000000", isHiddenInDashboard: false },
    })
    const added = await p
      .client()
      .call<any>("PUT", `/vaults/${p.testVaultId}/vault-accounts/${acct.body.data.item.vaultAccountId}/add-asset`, {
        item: { assetId: ETH.assetId, label: "eth" },
      })
    const sub = await p.admin("POST", "/_sim/webhooks", { url: rx.url, secret: "s", events: ["INCOMING_CONFIRMED_COIN_TX"] })
    expect(sub.status).toBe(201)
    const fault = await p.admin("POST", "/_sim/faults", {
      target: "webhook",
      match: { webhookId: sub.body.id },
      effect: { kind: "duplicate" },
      times: 1,
    })
    expect(fault.status).toBe(201)
    const deposit = { blockchain: "ethereum", network: "sepolia", address: added.body.data.item.address, assetId: ETH.assetId }
    expect((await p.admin("POST", "/_sim/deposits", { ...deposit, amount: "0.1" })).status).toBe(201)
    await rx.waitFor(2)
    await p.sim.webhooks!.idle()
    expect((await p.admin("POST", "/_sim/deposits", { ...deposit, amount: "0.2" })).status).toBe(201)
    await rx.waitFor(3)
    await p.sim.webhooks!.idle()
    const deliveries = (await p.admin("GET", `/_sim/webhooks/${sub.body.id}/deliveries`)).body.deliveries as Array<{ id: string }>
    expect(deliveries).toHaveLength(2)
    const hit = p.sim.models.faults.get(fault.body.id)
    expect(hit?.hits).toBe(1)

    await page.getByRole("link", { name: "Faults" }).click()
    await poll(() => page.locator("tr[data-hit]").count()).toBe(2)
    const faultedId = (await p.admin("GET", "/_sim/log?stream=faults-registry&type=FaultHit")).body.events[1].data.deliveryId as string
    expect(await page.locator(`tr[data-hit="${faultedId}"]`).getByTestId("fault-badge").textContent()).toBe(`fault ${fault.body.id}`)

    await page.getByRole("link", { name: "Webhooks" }).click()
    await page.getByRole("button", { name: rx.url.slice(0, 20), exact: false }).click()
    await poll(() => page.locator("tr[data-delivery]").count()).toBe(2)
    const marked = page.locator(`tr[data-delivery="${faultedId}"]`)
    expect(await marked.getByTestId("fault-badge").textContent()).toBe(`fault ${fault.body.id}`)
    expect(await page.locator("tr[data-delivery] [data-testid=fault-badge]").count()).toBe(1)
    await browser.shot("faults-webhook")
  })
})
