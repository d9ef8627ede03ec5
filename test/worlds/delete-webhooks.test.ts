// DELETE /_sim/worlds/{id} cancels the world's webhook deliveries still due, over a real socket: two worlds on the
// wall clock, whose receivers refuse every delivery so that each has a retry pending. The deleted world's receiver
// gets nothing after the deletion, though its retry fell due before the other world's, which still arrive.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { assetId } from "../support/catalogue.js"
import { newWorld, startWorldsServer, type WorldsServer } from "../support/worlds-server.js"
import { startReceiver, type Receiver } from "../webhooks/receiver.js"

const fixture = {
  seed: "delete-webhooks",
  vaults: [{ name: "Test vault", type: "test" as const }],
  apiKeys: [{ name: "ci", apiVersion: "2024-05-09" }],
}
/** Seconds between attempts: the first retry leaves the deletion time on a loaded machine, the next ones are quick. */
const retrySchedule = [4, 1, 1, 1, 1, 1, 1, 1]

type World = Awaited<ReturnType<typeof newWorld>>

/** A subscription to `rx`, and a confirmed deposit that it is told of. */
const depositTold = async (w: World, rx: Receiver) => {
  await w.admin("PUT", "/_sim/chains/ethereum/sepolia/mining", { mode: "auto", confirmations: 1 })
  const sub = await w.admin("POST", "/_sim/webhooks", { url: rx.url, secret: "s", events: ["INCOMING_CONFIRMED_COIN_TX"], retrySchedule })
  expect(sub.status).toBe(201)
  const address = (await w.signed("POST", `/vaults/${w.testVaultId}/ethereum/sepolia/addresses`, { label: "hook" })).body.data.item.address
  const ETH = assetId("ethereum", "sepolia", "ETH")
  const deposit = await w.admin("POST", "/_sim/deposits", {
    blockchain: "ethereum",
    network: "sepolia",
    address,
    assetId: ETH,
    amount: "0.5",
  })
  expect(deposit.status).toBe(201)
  return sub.body.id as string
}

describe("deleting a world", () => {
  let s: WorldsServer
  let rxA: Receiver
  let rxB: Receiver
  beforeAll(async () => {
    // Wall-clock worlds: their retries fall due by themselves, as a deleted world's would if it were not cancelled.
    s = await startWorldsServer({ frozenAt: null })
    rxA = await startReceiver()
    rxB = await startReceiver()
    for (const rx of [rxA, rxB]) rx.answer = () => ({ status: 500 })
  })
  afterAll(async () => {
    await rxA.close()
    await rxB.close()
    await s.close()
  })

  it("cancels its pending deliveries; the other world's still arrive", async () => {
    const a = await newWorld(s, { fixture })
    const b = await newWorld(s, { fixture })
    const hookA = await depositTold(a, rxA)
    await rxA.waitFor(1)
    const pending = await a.admin("GET", `/_sim/webhooks/${hookA}/deliveries`)
    expect(pending.body.deliveries.map((d: { status: string }) => d.status)).toEqual(["pending"])
    expect((await s.admin(s.sim.adminToken, "DELETE", `/_sim/worlds/${a.created.id}`)).status).toBe(200)

    // B's first attempt comes after A's, and so its retries after A's would have: three of them arrive.
    await depositTold(b, rxB)
    await rxB.waitFor(4, 30_000)
    expect(rxA.deliveries()).toHaveLength(1)
  }, 60_000)
})
