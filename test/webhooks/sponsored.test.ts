// Webhooks of a gas-sponsored transfer: the request's kinds, each in its subscription's version, naming the fee payer.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { findNetwork } from "../../src/domain/chains/index.js"
import { batchFee } from "../../src/domain/chains/fees.js"
import { assetId } from "../support/catalogue.js"
import { EXTERNAL_ETH, startSponsorWorld, type SponsorWorld } from "../support/sponsor-world.js"
import { startScenario, type Scenario } from "./scenario.js"

let w: SponsorWorld
let s: Scenario
beforeAll(async () => {
  w = await startSponsorWorld()
  s = await startScenario({}, w.h)
})
afterAll(async () => {
  await s?.rx.close()
  await w?.close()
})

describe("a sponsored transfer's notifications", () => {
  it("TRANSACTION_REQUEST, TRANSACTION_APPROVED and OUTGOING_MINED in 2024-05-09 and 2026-03-20 payloads, with the fee payer", async () => {
    const sender = await w.account("ethereum", "sepolia", { ETH: "0", USDC: "10" })
    const payer = await w.account("ethereum", "sepolia", { ETH: "1" })
    const now = await s.subscribe({ apiVersion: "2026-03-20" })
    const old = await s.subscribe()
    const r = await w.post(`/vaults/${w.vaultId}/transaction-requests/gas-sponsorship-transfer`, {
      vaultAccountId: sender.acct,
      assetId: assetId("ethereum", "sepolia", "USDC"),
      fromAddress: sender.address,
      toAddress: EXTERNAL_ETH,
      amount: "4",
      feePayer: payer.address,
      note: "n",
    })
    expect(r.status).toBe(201)
    const id = r.body.data.item.transactionRequestId
    await s.rx.waitFor(6)
    await w.h.sim.webhooks!.idle()
    for (const [hook, version, unitName] of [
      [now.body.id, "2026-03-20", "amountUnit"],
      [old.body.id, "2024-05-09", "unit"],
    ] as const) {
      const mine = s.rx.deliveries().filter((d) => d.body.webhookId === hook)
      expect(mine.map((d) => d.body.data.event)).toEqual(["TRANSACTION_REQUEST", "TRANSACTION_APPROVED", "OUTGOING_MINED"])
      for (const d of mine) {
        expect(d.body.apiVersion).toBe(version)
        expect(d.body.data.item).toMatchObject({
          transactionRequestId: id,
          address: sender.address,
          feePayer: payer.address,
          blockchain: "ethereum",
          network: "sepolia",
        })
        expect(Object.hasOwn(d.body.data.item, unitName)).toBe(true)
      }
      const mined = mine[2]!.body.data.item
      expect(mined.fee).toBe(batchFee(findNetwork("ethereum", "sepolia")!, ["token"], "standard").toString())
      expect(w.balance("ethereum", "sepolia", payer.address, "ETH").total).toBe(10n ** 18n - BigInt(mined.fee))
    }
  })
  it("a batch's OUTGOING_FAILED after an execution fault, per version, naming the sender, the fee payer and every recipient", async () => {
    const sender = await w.account("ethereum", "sepolia", { ETH: "1", USDC: "10" })
    const payer = await w.account("ethereum", "sepolia", { ETH: "1" })
    const start = s.rx.deliveries().length
    await w.h.admin("POST", "/_sim/chains/ethereum/sepolia/faults", { kind: "execution-failure", count: 1 })
    const r = await w.post(`/vaults/${w.vaultId}/transaction-requests/batch`, {
      senderAddress: sender.address,
      feePayer: { address: payer.address, assetId: assetId("ethereum", "sepolia", "ETH") },
      feePriority: "slow",
      note: "n",
      recipients: [
        { address: EXTERNAL_ETH, amount: "1", assetId: assetId("ethereum", "sepolia", "USDC") },
        { address: "0x0000000000000000000000000000000000000001", amount: "0.5", assetId: assetId("ethereum", "sepolia", "ETH") },
      ],
    })
    expect(r.status).toBe(201)
    await s.rx.waitFor(start + 6)
    await w.h.sim.webhooks!.idle()
    const mine = s.rx
      .deliveries()
      .slice(start)
      .filter((d) => d.body.data.item.transactionRequestId === r.body.data.item.transactionRequestId)
    expect(mine.map((d) => [d.body.apiVersion, d.body.data.event]).sort()).toEqual(
      [
        ["2024-05-09", "OUTGOING_FAILED"],
        ["2024-05-09", "TRANSACTION_APPROVED"],
        ["2024-05-09", "TRANSACTION_REQUEST"],
        ["2026-03-20", "OUTGOING_FAILED"],
        ["2026-03-20", "TRANSACTION_APPROVED"],
        ["2026-03-20", "TRANSACTION_REQUEST"],
      ].sort(),
    )
    for (const d of mine) expect(d.body.data.item).toMatchObject({ address: sender.address, feePayer: payer.address })
    // 2024-05-09: the addresses joined by commas, as ever; 2026-03-20: one object per call, in its own asset.
    for (const d of mine.filter((x) => x.body.apiVersion === "2024-05-09"))
      expect(d.body.data.item.recipients).toBe(`${EXTERNAL_ETH},0x0000000000000000000000000000000000000001`)
    for (const d of mine.filter((x) => x.body.apiVersion === "2026-03-20"))
      expect(d.body.data.item.recipients).toEqual([
        { address: EXTERNAL_ETH, amount: "1", amountUnit: "USDC", assetId: assetId("ethereum", "sepolia", "USDC") },
        {
          address: "0x0000000000000000000000000000000000000001",
          amount: "0.5",
          amountUnit: "ETH",
          assetId: assetId("ethereum", "sepolia", "ETH"),
        },
      ])
    const failed = mine.find((d) => d.body.data.event === "OUTGOING_FAILED")!.body.data.item
    expect(BigInt(failed.fee)).toBe(10n ** 18n - w.balance("ethereum", "sepolia", payer.address, "ETH").total)
    expect(w.balance("ethereum", "sepolia", sender.address, "USDC").total).toBe(10_000_000n)
  })
  it("a 2025-09-23 subscription lists the recipients as objects under that version's names (unit); the delivery log shows each payload as it was sent", async () => {
    const sender = await w.account("ethereum", "sepolia", { ETH: "1", USDC: "10" })
    const payer = await w.account("ethereum", "sepolia", { ETH: "1" })
    const mid = await s.subscribe({ apiVersion: "2025-09-23", events: ["TRANSACTION_REQUEST"] })
    const start = s.rx.deliveries().length
    const r = await w.post(`/vaults/${w.vaultId}/transaction-requests/gas-sponsorship-transfer`, {
      vaultAccountId: sender.acct,
      assetId: assetId("ethereum", "sepolia", "USDC"),
      fromAddress: sender.address,
      toAddress: EXTERNAL_ETH,
      amount: "2.5",
      feePayer: payer.address,
      note: "n",
    })
    expect(r.status).toBe(201)
    await s.rx.waitFor(start + 1)
    await w.h.sim.webhooks!.idle()
    const got = s.rx.deliveries().filter((d) => d.body.webhookId === mid.body.id)
    expect(got).toHaveLength(1)
    expect(got[0]!.body.apiVersion).toBe("2025-09-23")
    expect(got[0]!.body.data.item.recipients).toEqual([
      { address: EXTERNAL_ETH, amount: "2.5", unit: "USDC", assetId: assetId("ethereum", "sepolia", "USDC") },
    ])
    const logged = await s.deliveriesOf(mid.body.id)
    expect(logged.map((d) => d.payload)).toEqual(got.map((d) => d.body))
  })
})
