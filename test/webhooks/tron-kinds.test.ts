// Webhooks of the tron request kinds, in 2024-05-09 and 2026-03-20 payloads: manage-resource and contract-interaction
// requests raise TRANSACTION_REQUEST, TRANSACTION_APPROVED and OUTGOING_MINED; a transfer-from beyond the allowance
// is mined with errors and raises OUTGOING_FAILED with the fee the fee payer spent.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startHarness } from "../support/harness.js"
import { EXTERNAL_TRON, runTronKinds, TRX, USDT, type TronKinds } from "../support/tron-kinds.js"
import { startScenario, type Scenario } from "./scenario.js"

let s: Scenario
let world: TronKinds
const hooks: Record<"2024-05-09" | "2026-03-20", string> = { "2024-05-09": "", "2026-03-20": "" }
beforeAll(async () => {
  s = await startScenario({}, await startHarness())
  hooks["2024-05-09"] = (await s.subscribe()).body.id
  hooks["2026-03-20"] = (await s.subscribe({ apiVersion: "2026-03-20" })).body.id
  world = await runTronKinds(s.h)
  await s.h.sim.webhooks!.idle()
})
afterAll(async () => s?.close())

/** What one subscription received about one request, in order. */
const about = (version: keyof typeof hooks, requestId: string) =>
  s.rx
    .deliveries()
    .filter((d) => d.body.webhookId === hooks[version] && d.body.data.item.transactionRequestId === requestId)
    .map((d) => d.body)

const waitFor = async (version: keyof typeof hooks, requestId: string, kinds: number) => {
  while (about(version, requestId).length < kinds) {
    await s.h.sim.webhooks!.idle()
    if (about(version, requestId).length < kinds) await new Promise((r) => setTimeout(r, 20))
  }
  return about(version, requestId)
}

describe("tron request kinds' notifications", () => {
  it("manage-resource: TRANSACTION_REQUEST, TRANSACTION_APPROVED, OUTGOING_MINED per version, from the staking address, no recipients", async () => {
    for (const id of [world.freeze, world.delegate, world.unfreeze]) {
      const old = await waitFor("2024-05-09", id, 3)
      const now = await waitFor("2026-03-20", id, 3)
      expect(old.map((b) => b.data.event)).toEqual(["TRANSACTION_REQUEST", "TRANSACTION_APPROVED", "OUTGOING_MINED"])
      expect(now.map((b) => b.data.event)).toEqual(["TRANSACTION_REQUEST", "TRANSACTION_APPROVED", "OUTGOING_MINED"])
      for (const b of old) {
        expect(b.apiVersion).toBe("2024-05-09")
        expect(b.data.item).toMatchObject({
          blockchain: "tron",
          network: "nile",
          address: world.payer,
          assetId: TRX,
          recipients: "",
          unit: null,
        })
      }
      for (const b of now) {
        expect(b.apiVersion).toBe("2026-03-20")
        expect(b.data.item).toMatchObject({
          blockchain: "tron",
          network: "nile",
          address: world.payer,
          assetId: TRX,
          recipients: [],
          amountUnit: null,
        })
        expect(Object.hasOwn(b.data.item, "unit")).toBe(false)
      }
      // The same notification in both versions: everything but the names and the recipients' shape agrees.
      expect(now.map((b) => b.data.item.transactionId)).toEqual(old.map((b) => b.data.item.transactionId))
    }
  })
  it("contract-interaction: approve and a transfer-from within the allowance are mined; the recipient is listed per version", async () => {
    for (const id of [world.approve, world.pull]) {
      for (const version of ["2024-05-09", "2026-03-20"] as const) {
        const got = await waitFor(version, id, 3)
        expect(got.map((b) => b.data.event)).toEqual(["TRANSACTION_REQUEST", "TRANSACTION_APPROVED", "OUTGOING_MINED"])
        for (const b of got) expect(b.data.item).toMatchObject({ address: world.holder, feePayer: world.payer, assetId: USDT })
      }
    }
    expect((await waitFor("2024-05-09", world.pull, 3)).map((b) => b.data.item.recipients)).toEqual([
      EXTERNAL_TRON,
      EXTERNAL_TRON,
      EXTERNAL_TRON,
    ])
    for (const b of await waitFor("2026-03-20", world.pull, 3))
      expect(b.data.item.recipients).toEqual([{ address: EXTERNAL_TRON, amount: "5", amountUnit: "USDT", assetId: USDT }])
    expect((await waitFor("2026-03-20", world.approve, 3))[0]!.data.item.recipients).toEqual([])
  })
  it("a transfer-from beyond the allowance: OUTGOING_FAILED in both versions, with the fee the fee payer spent and the reason", async () => {
    const old = await waitFor("2024-05-09", world.refused, 3)
    const now = await waitFor("2026-03-20", world.refused, 3)
    for (const got of [old, now]) {
      expect(got.map((b) => b.data.event)).toEqual(["TRANSACTION_REQUEST", "TRANSACTION_APPROVED", "OUTGOING_FAILED"])
      const failed = got[2]!.data.item
      expect(failed).toMatchObject({
        address: world.holder,
        feePayer: world.payer,
        reason: "mined with errors (execution failed)",
        minedInBlockHeight: expect.any(Number),
      })
      // The fee payer's staked energy (1,000 TRX: 10,000 units) paid part; the rest of the 65,000 was burned.
      expect(failed.fee).toBe(String((65_000 - 10_000) * 280))
    }
    expect(old[2]!.data.item.recipients).toBe(EXTERNAL_TRON)
    expect(now[2]!.data.item.recipients).toEqual([{ address: EXTERNAL_TRON, amount: "5", amountUnit: "USDT", assetId: USDT }])
    const mined = s.h.sim.models.txRequests.byId.get(world.refused)?.mined
    expect(mined?.fee).toBe(old[2]!.data.item.fee)
  })
})
