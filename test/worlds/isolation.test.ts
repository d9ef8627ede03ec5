// Two worlds from one fixture on one server, over HTTP: each answers only for itself in every read and write, in
// snapshots, reverts and resets, clocks, rate limits and webhooks; deleting one leaves the other as it was.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startReceiver, type Receiver } from "../webhooks/receiver.js"
import { assetId } from "../support/catalogue.js"
import { digestOf, runFlow } from "../support/worlds-flow.js"
import { newWorld, startWorldsServer, type WorldsServer } from "../support/worlds-server.js"

const fixture = {
  seed: "isolation",
  vaults: [
    { name: "Test vault", type: "test" as const },
    { name: "Main vault", type: "main" as const },
  ],
  apiKeys: [{ name: "ci", apiVersion: "2024-05-09", rateLimit: { perSecond: 1_000_000, burst: 1_000_000 } }],
}
/** A key of three calls (one more every 10,000 s). */
const limited = { ...fixture, apiKeys: [{ name: "slow", apiVersion: "2024-05-09", rateLimit: { perSecond: 0.0001, burst: 3 } }] }

type World = Awaited<ReturnType<typeof newWorld>>

const vaultNames = async (w: World) => (await w.signed("GET", "/vaults?limit=50")).body.data.items.map((v: { name: string }) => v.name)

describe("two worlds from one fixture", () => {
  let s: WorldsServer
  let a: World
  let b: World
  beforeAll(async () => {
    s = await startWorldsServer()
    a = await newWorld(s, { fixture })
    b = await newWorld(s, { fixture })
  })
  afterAll(() => s.close())

  it("have the same ids but their own credentials", () => {
    expect(a.created.vaults).toEqual(b.created.vaults)
    expect(a.key.key).not.toBe(b.key.key)
    expect(a.adminToken).not.toBe(b.adminToken)
  })

  it("see only their own writes, REST and control plane alike", async () => {
    expect((await a.admin("POST", "/_sim/vaults", { name: "only in a", type: "test" })).status).toBe(201)
    const flow = await runFlow(b)
    expect(await vaultNames(a)).toContain("only in a")
    expect(await vaultNames(b)).not.toContain("only in a")
    const assets = await a.signed("GET", `/vaults/${a.testVaultId}/assets`)
    expect(assets.status).toBe(200)
    expect(JSON.stringify(assets.body)).not.toContain(flow.address.toLowerCase().slice(2))
    const bAssets = await b.signed("GET", `/vaults/${b.testVaultId}/assets`)
    expect(JSON.stringify(bAssets.body)).toContain("ETH")
    expect((await a.admin("GET", "/_sim/events?limit=1000")).body.events.length).toBeLessThan(
      (await b.admin("GET", "/_sim/events?limit=1000")).body.events.length,
    )
    // B's transaction request is not A's, though A gives the same ids.
    expect((await a.signed("GET", `/transactionRequests/${flow.requestId}`)).status).toBe(404)
    expect((await b.signed("GET", `/transactionRequests/${flow.requestId}`)).status).toBe(200)
  })

  it("keep their own clocks", async () => {
    const before = (await b.admin("GET", "/_sim/clock")).body.nowMs
    expect((await a.admin("POST", "/_sim/clock/advance", { seconds: 3600 })).status).toBe(200)
    expect((await a.admin("GET", "/_sim/clock")).body.nowMs).toBe(before + 3_600_000)
    expect((await b.admin("GET", "/_sim/clock")).body.nowMs).toBe(before)
  })

  it("snapshot, revert and reset each their own world", async () => {
    const snap = await a.admin("POST", "/_sim/snapshots")
    expect(snap.status).toBe(201)
    await a.admin("POST", "/_sim/vaults", { name: "a after the snapshot", type: "test" })
    await b.admin("POST", "/_sim/vaults", { name: "b meanwhile", type: "test" })
    expect((await b.admin("POST", `/_sim/snapshots/${snap.body.id}/revert`)).status).toBe(404)
    expect((await a.admin("POST", `/_sim/snapshots/${snap.body.id}/revert`)).status).toBe(200)
    expect(await vaultNames(a)).not.toContain("a after the snapshot")
    expect(await vaultNames(a)).toContain("only in a")
    expect(await vaultNames(b)).toContain("b meanwhile")
    const bDigest = await digestOf(b)
    expect((await a.admin("POST", "/_sim/reset")).status).toBe(200)
    expect(await vaultNames(a)).toEqual(["Test vault", "Main vault"])
    expect(await digestOf(b)).toBe(bDigest)
  })

  it("rate-limit each key in its own world", async () => {
    const c = await newWorld(s, { fixture: limited })
    const d = await newWorld(s, { fixture: limited })
    const statuses = []
    for (let i = 0; i < 4; i++) statuses.push((await c.signed("GET", "/vaults")).status)
    expect(statuses).toEqual([200, 200, 200, 429])
    expect((await d.signed("GET", "/vaults")).status).toBe(200)
  })

  it("deliver each world's webhooks to its own subscriptions only", async () => {
    const rxA: Receiver = await startReceiver()
    const rxB: Receiver = await startReceiver()
    try {
      const w = [await newWorld(s, { fixture }), await newWorld(s, { fixture })] as const
      const ETH = assetId("ethereum", "sepolia", "ETH")
      for (const [world, rx, amount] of [
        [w[0], rxA, "0.25"],
        [w[1], rxB, "0.75"],
      ] as const) {
        await world.admin("PUT", "/_sim/chains/ethereum/sepolia/mining", { mode: "auto", confirmations: 1 })
        const sub = await world.admin("POST", "/_sim/webhooks", { url: rx.url, secret: "s", events: ["INCOMING_CONFIRMED_COIN_TX"] })
        expect(sub.status).toBe(201)
        const address = (await world.signed("POST", `/vaults/${world.testVaultId}/ethereum/sepolia/addresses`, { label: "hook" })).body.data
          .item.address
        await world.admin("POST", "/_sim/deposits", { blockchain: "ethereum", network: "sepolia", address, assetId: ETH, amount })
        await world.admin("POST", "/_sim/chains/ethereum/sepolia/mine", { blocks: 2 })
      }
      await rxA.waitFor(1)
      await rxB.waitFor(1)
      expect(rxA.deliveries().every((d) => JSON.stringify(d.body).includes("0.25") && !JSON.stringify(d.body).includes("0.75"))).toBe(true)
      expect(rxB.deliveries().every((d) => JSON.stringify(d.body).includes("0.75") && !JSON.stringify(d.body).includes("0.25"))).toBe(true)
    } finally {
      await rxA.close()
      await rxB.close()
    }
  })

  it("deleting one leaves the other as it was", async () => {
    const digest = await digestOf(b)
    const names = await vaultNames(b)
    expect((await s.admin(s.sim.adminToken, "DELETE", `/_sim/worlds/${a.created.id}`)).status).toBe(200)
    expect((await a.signed("GET", "/vaults")).status).toBe(401)
    expect(await digestOf(b)).toBe(digest)
    expect(await vaultNames(b)).toEqual(names)
  })
})
