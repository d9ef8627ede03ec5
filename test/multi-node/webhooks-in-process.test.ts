// Two in-process simulators following one EventStoreDB (the gRPC double): without being told, they share the
// deliveries through the store's consumer groups, and each notification reaches the receiver once.
import { Effect, Exit } from "effect"
import { afterAll, beforeAll, expect, it } from "vitest"
import { createApp } from "../../src/api/app.js"
import { toNewEvents } from "../../src/commands/run-decider.js"
import { createSimulator, type Simulator } from "../../src/simulator.js"
import { EventStore } from "../../src/store/event-store.js"
import { makeEsdbStore } from "../../src/store/esdb.js"
import { startEsdbDouble, type EsdbDouble } from "../support/esdb-double/index.js"
import { eventually } from "../support/sim-process.js"
import { startReceiver, type Receiver } from "../webhooks/receiver.js"

let double: EsdbDouble
let rx: Receiver
let firstWebhookId: string | undefined
const nodes: Array<Simulator> = []

beforeAll(async () => {
  double = await startEsdbDouble()
  rx = await startReceiver()
  for (const nodeId of ["", "~1"]) {
    const store = makeEsdbStore(`${double.connectionString}&defaultDeadline=30000`)
    nodes.push(await createSimulator({ store, seed: "shared-in-process", nodeId, follow: true, defaultWorkspace: true }))
  }
}, 60_000)

afterAll(async () => {
  for (const n of nodes) await n.close()
  await rx?.close()
  await double?.stop()
})

const raise = async (sim: Simulator, vaultId: string, from: number, n: number) => {
  const exit = await sim.run(
    Effect.gen(function* () {
      const at = sim.clock.now()
      const events = yield* toNewEvents(
        Array.from({ length: n }, (_, i) => {
          const txid = `0x${(from + i).toString(16).padStart(64, "0")}`
          return {
            type: "NotificationRaised",
            data: { vaultId, kind: "INCOMING_CONFIRMED_COIN_TX", subject: txid, payload: { transactionId: txid }, at },
          }
        }),
      )
      yield* (yield* EventStore).append(`testNotifications-${sim.ids.next("transaction")}`, events, "no_stream")
    }),
  )
  expect(Exit.isSuccess(exit)).toBe(true)
}

it("share the deliveries of two nodes following one store: every notification once at the receiver", { timeout: 120_000 }, async () => {
  const [a, b] = nodes as [Simulator, Simulator]
  const res = await createApp(a).request("/_sim/webhooks", {
    method: "POST",
    headers: { authorization: `Bearer ${a.adminToken}`, "content-type": "application/json" },
    body: JSON.stringify({ url: rx.url, secret: "whsec-in-process", events: ["*"] }),
  })
  const webhook = (await res.json()) as { id: string; status: string }
  expect(webhook.status).toBe("active")
  firstWebhookId = webhook.id
  const vaultId = a.models.workspace.vaultList(undefined)[0]!.profile.vaultId
  await raise(a, vaultId, 0, 20)
  await raise(b, vaultId, 20, 20)
  const delivered = (sim: Simulator) =>
    sim.models.outbox.subscriptions.get(webhook.id)?.deliveries.filter((d) => d.status === "delivered").length ?? 0
  await eventually(async () => delivered(a) === 40 && delivered(b) === 40, 60_000)
  await new Promise((r) => setTimeout(r, 500))
  const keys = rx.deliveries().map((r) => r.body.idempotencyKey as string)
  expect(keys).toHaveLength(40)
  expect(new Set(keys).size).toBe(40)
  for (const sim of nodes)
    expect(sim.models.outbox.subscriptions.get(webhook.id)!.deliveries.every((d) => d.attempts.length === 1)).toBe(true)
  expect(double.state.persistentGroups.get(`$all::custody-sim-webhook-${webhook.id}`)?.consumers).toHaveLength(2)
})

it("retry a failed delivery on two nodes: each attempt number once at the receiver and once in the log", { timeout: 120_000 }, async () => {
  const [a, b] = nodes as [Simulator, Simulator]
  // Only this test's subscription receives.
  if (firstWebhookId !== undefined)
    expect(
      (
        await createApp(a).request(`/_sim/webhooks/${firstWebhookId}`, {
          method: "DELETE",
          headers: { authorization: `Bearer ${a.adminToken}` },
        })
      ).status,
    ).toBeLessThan(300)
  // The first attempt of each delivery fails; the retry, due a second later, succeeds.
  const seen = new Set<string>()
  rx.answer = (r) => {
    const key = r.body.idempotencyKey as string
    if (seen.has(key)) return { status: 200 }
    seen.add(key)
    return { status: 500 }
  }
  const before = rx.deliveries().length
  const res = await createApp(b).request("/_sim/webhooks", {
    method: "POST",
    headers: { authorization: `Bearer ${b.adminToken}`, "content-type": "application/json" },
    body: JSON.stringify({ url: `${rx.url}/retrying`, secret: "whsec-retrying", events: ["*"], retrySchedule: [1] }),
  })
  const webhook = (await res.json()) as { id: string; status: string }
  expect(webhook.status).toBe("active")
  const vaultId = a.models.workspace.vaultList(undefined)[0]!.profile.vaultId
  await raise(a, vaultId, 100, 10)
  await raise(b, vaultId, 110, 10)
  const deliveries = (sim: Simulator) => sim.models.outbox.subscriptions.get(webhook.id)?.deliveries ?? []
  await eventually(
    async () => nodes.every((sim) => deliveries(sim).length === 20 && deliveries(sim).every((d) => d.status === "delivered")),
    60_000,
  )
  await new Promise((r) => setTimeout(r, 500))
  const perKey = new Map<string, number>()
  for (const r of rx.deliveries().slice(before))
    perKey.set(r.body.idempotencyKey as string, (perKey.get(r.body.idempotencyKey as string) ?? 0) + 1)
  expect(perKey.size).toBe(20)
  expect([...perKey.values()].every((n) => n === 2)).toBe(true)
  for (const sim of nodes)
    for (const d of deliveries(sim)) {
      expect(d.attempts.map((t) => t.attempt)).toEqual([1, 2])
      expect(d.attempts.map((t) => t.result)).toEqual(["retrying", "delivered"])
    }
  rx.answer = () => ({ status: 200 })
})
