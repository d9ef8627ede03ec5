// Payloads follow the subscription's API version: apiVersion, the item's names, and the signature encoding chosen.
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { verifyWebhookSignature } from "../../src/client/index.js"
import { startHarness } from "../support/harness.js"
import { exportText, importText, parseFile, writeFile } from "../support/log-file.js"
import { SECRET, startScenario, type Scenario } from "./scenario.js"

let s: Scenario
beforeEach(async () => {
  s = await startScenario()
})
afterEach(async () => s.close())

describe("a subscription pinned to a version", () => {
  it("2026-03-20 with hex signatures (the v-2 documentation's encoding): apiVersion and amountUnit, beside a 2024-05-09 one", async () => {
    const now = await s.subscribe({ apiVersion: "2026-03-20", signatureEncoding: "hex" })
    expect(now.status).toBe(201)
    expect(now.body.apiVersion).toBe("2026-03-20")
    const old = await s.subscribe({ apiVersion: "2024-05-09" })
    expect(old.body.apiVersion).toBe("2024-05-09")
    await s.deposit("2.5")
    await s.rx.waitFor(2)
    await s.h.sim.webhooks!.idle()
    const byHook = new Map(s.rx.deliveries().map((d) => [d.body.webhookId as string, d]))
    const d26 = byHook.get(now.body.id)!
    expect(d26.body.apiVersion).toBe("2026-03-20")
    expect(d26.body.data.item).toMatchObject({ amount: "2.5", amountUnit: "ETH" })
    expect(d26.body.data.item.unit).toBeUndefined()
    expect(Object.keys(d26.body.data.item).slice(0, 6)).toEqual([
      "blockchain",
      "network",
      "address",
      "amount",
      "amountUnit",
      "transactionId",
    ])
    expect(
      verifyWebhookSignature({ body: d26.raw, signature: d26.headers["x-signature"] as string, secret: SECRET, encoding: "hex" }),
    ).toBe(true)
    const d24 = byHook.get(old.body.id)!
    expect(d24.body.apiVersion).toBe("2024-05-09")
    expect(d24.body.data.item).toMatchObject({ amount: "2.5", unit: "ETH" })
    const [logged] = await s.deliveriesOf(now.body.id)
    expect(logged.payload).toEqual(d26.body)
  })

  it("without a version, the newest, as a key created without one: stored with the subscription and written in its payloads", async () => {
    const r = await s.h.admin("POST", "/_sim/webhooks", { url: s.rx.url, secret: SECRET, events: ["INCOMING_CONFIRMED_COIN_TX"] })
    expect([r.status, r.body.apiVersion]).toEqual([201, "2026-03-20"])
    const key = await s.h.admin("POST", "/_sim/api-keys", {})
    expect(key.body.apiVersion).toBe(r.body.apiVersion)
    await s.deposit("1")
    await s.rx.waitFor(1)
    const [d] = s.rx.deliveries()
    expect(d!.body.apiVersion).toBe("2026-03-20")
    expect(d!.body.data.item).toMatchObject({ amount: "1", amountUnit: "ETH" })
  })

  it("a subscription of a log written before versions existed: no apiVersion, its own verification, 2024-05-09 payloads in today's shape", async () => {
    const sub = (await s.subscribe({ verification: "request", apiVersion: "2024-05-09" })).body
    await s.deposit("1")
    await s.rx.waitFor(1)
    await s.h.sim.webhooks!.idle()
    const { header, events } = parseFile(await exportText(s.h))
    const older = events.map((e) => {
      if (e.type !== "WebhookSubscribed") return e
      const { apiVersion: _v, ...data } = e.data
      return { ...e, data }
    })
    const b = await startHarness({ sim: { defaultWorkspace: false, seed: "harness", webhooks: false } })
    try {
      expect((await importText(b, writeFile(header, older))).status).toBe(200)
      const got = (await b.admin("GET", `/_sim/webhooks/${sub.id}`)).body
      expect(got).toMatchObject({ verification: "request", status: "active", lastVerification: { method: "request", statusCode: 200 } })
      expect(got).not.toHaveProperty("apiVersion")
      const [d] = (await b.admin("GET", `/_sim/webhooks/${sub.id}/deliveries`)).body.deliveries
      expect(d.payload.apiVersion).toBe("2024-05-09")
      expect(Object.keys(d.payload.data)).toEqual(["event", "item"])
      expect(d.payload.data.item).toMatchObject({ amount: "1", unit: "ETH" })
    } finally {
      await b.close()
    }
  })

  it("refuses an unknown version", async () => {
    const r = await s.subscribe({ apiVersion: "2026-01-01" })
    expect(r.status).toBe(400)
    expect(r.body.error.details[0].attribute).toBe("apiVersion")
  })
})
