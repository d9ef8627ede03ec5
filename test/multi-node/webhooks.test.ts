// Webhooks with two `custody-sim serve --store esdb` nodes on one EventStoreDB (the gRPC double): each notification is
// attempted by one node (the store's persistent subscriptions share them out), and a node killed mid-delivery loses
// what it held to the other node at once (its connection to the store closes), which records one delivery per
// notification. The message timeout (a node that stalls while connected) is the double's own test.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Credentials } from "../../src/client/index.js"
import { startEsdbDouble, type EsdbDouble } from "../support/esdb-double/index.js"
import { assetId } from "../support/catalogue.js"
import { eventually, startSimProcess, type Answer, type SimProcess } from "../support/sim-process.js"
import { startReceiver, type Receiver } from "../webhooks/receiver.js"

let double: EsdbDouble
let a: SimProcess
let b: SimProcess
let rx: Receiver
let creds: Credentials
let address: string
let webhookId: string

const ok = (r: Answer, status: number) => {
  if (r.status !== status) throw new Error(`expected ${status}, got ${r.status}: ${JSON.stringify(r.body)}`)
  return r.body
}
const keyOf = (r: { body: any }) => r.body.idempotencyKey as string
const deposit = async (n: SimProcess) =>
  ok(
    await n.admin("POST", "/_sim/deposits", {
      blockchain: "ethereum",
      network: "sepolia",
      address,
      assetId: assetId("ethereum", "sepolia", "ETH"),
      amount: "0.01",
    }),
    201,
  )
const deliveries = async (n: SimProcess): Promise<Array<any>> =>
  ok(await n.admin("GET", `/_sim/webhooks/${webhookId}/deliveries?limit=1000`), 200).deliveries

beforeAll(async () => {
  double = await startEsdbDouble()
  rx = await startReceiver()
  const args = ["--store", "esdb", "--esdb", `${double.connectionString}&defaultDeadline=3000`, "--seed", "webhook-nodes"]
  a = await startSimProcess(args)
  b = await startSimProcess(args)
  creds = a.credentials!
  const vault = (await a.call(creds, "GET", "/vaults/test")).body.data.items[0].id as string
  const acct = ok(
    await a.call(creds, "POST", `/vaults/${vault}/vault-account`, { name: "hooks", color: "#000000", isHiddenInDashboard: false }),
    201,
  )
  const asset = ok(
    await a.call(creds, "PUT", `/vaults/${vault}/vault-accounts/${acct.data.item.vaultAccountId}/add-asset`, {
      assetId: assetId("ethereum", "sepolia", "ETH"),
      label: "eth",
    }),
    200,
  )
  address = asset.data.item.address
  ok(await a.admin("PUT", "/_sim/chains/ethereum/sepolia/mining", { mode: "auto", confirmations: 1 }), 200)
  webhookId = ok(await a.admin("POST", "/_sim/webhooks", { url: rx.url, secret: "whsec-nodes", events: ["*"] }), 201).id
}, 180_000)

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()])
  await rx?.close()
  await double?.stop()
})

describe("webhooks on two nodes", () => {
  it("attempt each notification on one node only: every delivery once at the receiver, one attempt recorded", async () => {
    for (let i = 0; i < 30; i++) await deposit(i % 2 === 0 ? a : b)
    await rx.waitFor(30, 60_000)
    // Time for a duplicate to arrive, were one coming.
    await new Promise((r) => setTimeout(r, 1_000))
    const keys = rx.deliveries().map(keyOf)
    expect(keys).toHaveLength(30)
    expect(new Set(keys).size).toBe(30)
    await eventually(async () => (await deliveries(b)).filter((d) => d.status === "delivered").length === 30, 10_000)
    for (const n of [a, b]) {
      const log = await deliveries(n)
      expect(log.map((d) => d.attempts.length)).toEqual(Array(30).fill(1))
    }
    // Both nodes took part: the group had two members.
    const info = double.state.persistentGroups.get(`$all::custody-sim-webhook-${webhookId}`)
    expect(info?.consumers).toHaveLength(2)
  })

  it("hand what a killed node held to the other node, which records one delivery for each", async () => {
    const before = rx.deliveries().length
    // Slow answers, so that the killed node dies with attempts in flight.
    rx.answer = () => ({ status: 200, delayMs: 1_500 })
    for (let i = 0; i < 20; i++) await deposit(b)
    await rx.waitFor(before + 4, 30_000)
    const group = double.state.persistentGroups.get(`$all::custody-sim-webhook-${webhookId}`)!
    const retriedBefore = group.retried
    await a.kill()
    rx.answer = () => ({ status: 200 })
    const settled = async () => {
      const log = await deliveries(b)
      return log.length === 50 && log.every((d) => d.status === "delivered")
    }
    await eventually(settled, 60_000)
    // The killed node held messages, and the store gave them to the other node.
    expect(group.retried).toBeGreaterThan(retriedBefore)
    expect(group.consumers).toHaveLength(1)
    const log = await deliveries(b)
    for (const d of log) expect(d.attempts.filter((x: any) => x.result === "delivered")).toHaveLength(1)
    // Every notification reached the receiver under its key; a duplicate at the wire (an attempt the killed node
    // made but never recorded) carries the same key.
    const seen = new Set(rx.deliveries().map(keyOf))
    expect(log.every((d) => seen.has(d.idempotencyKey))).toBe(true)
    expect(seen.size).toBe(50)
  })
})
