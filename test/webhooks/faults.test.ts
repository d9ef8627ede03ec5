// Webhook faults (/_sim/faults, `target: "webhook"`) on one node, to a real receiver: a duplicate arrives twice
// with the same idempotency key, a reorder arrives after the subscription's next notification (or after 60
// simulated seconds when none comes), a delay waits for the simulated clock, a fail counts the attempt failed and
// the retry schedule follows; each hit is a FaultHit
// event naming the delivery, and the schedule (times, every) and the event kind decide which attempts are hit; a
// revert puts back the attempts a fault had counted at the snapshot.
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { draw } from "../../src/domain/fault/index.js"
import { T0 } from "../support/harness.js"
import { startScenario, type Scenario } from "./scenario.js"

let s: Scenario
beforeEach(async () => {
  s = await startScenario()
})
afterEach(async () => s.close())

const idle = () => s.h.sim.webhooks!.idle()

const addFault = async (webhookId: string, effect: Record<string, unknown>, schedule: Record<string, unknown> = {}) => {
  const r = await s.h.admin("POST", "/_sim/faults", { target: "webhook", match: { webhookId }, effect, ...schedule })
  if (r.status !== 201) throw new Error(`fault refused: ${JSON.stringify(r.body)}`)
  return r.body.id as string
}

const hitsOf = async () =>
  (await s.h.admin<any>("GET", "/_sim/events?limit=10000")).body.events
    .filter((e: { type: string }) => e.type === "FaultHit")
    .map((e: { data: { faultId: string; call: number; deliveryId: string; requestId: string | null } }) => e.data)

const amounts = () => s.rx.deliveries().map((d) => d.body.data.item.amount as string)

describe("a duplicate", () => {
  it("sends the delivery twice with the same idempotency key and body, records one attempt and the hit", async () => {
    const sub = (await s.subscribe()).body
    const fault = await addFault(sub.id, { kind: "duplicate" }, { times: 1 })
    await s.deposit("1")
    await s.rx.waitFor(2)
    await idle()
    const [first, second] = s.rx.deliveries()
    expect(second!.body.idempotencyKey).toBe(first!.body.idempotencyKey)
    expect(second!.raw.equals(first!.raw)).toBe(true)
    const [logged] = await s.deliveriesOf(sub.id)
    expect(logged.status).toBe("delivered")
    expect(logged.attempts).toHaveLength(1)
    expect(await hitsOf()).toEqual([expect.objectContaining({ faultId: fault, call: 1, deliveryId: logged.id, requestId: null })])
    expect((await s.h.admin<any>("GET", "/_sim/faults")).body.faults[0].hits).toBe(1)
    // Used up: the next notification arrives once.
    await s.deposit("2")
    await s.rx.waitFor(3)
    await idle()
    expect(amounts()).toEqual(["1", "1", "2"])
  })

  it("with `every: 2` hits only the second and fourth matching attempts", async () => {
    const sub = (await s.subscribe()).body
    await addFault(sub.id, { kind: "duplicate" }, { every: 2 })
    for (const amount of ["1", "2", "3", "4"]) {
      await s.deposit(amount)
      await idle()
    }
    await s.rx.waitFor(6)
    await idle()
    expect(amounts()).toEqual(["1", "2", "2", "3", "4", "4"])
    expect((await hitsOf()).map((h: { call: number }) => h.call)).toEqual([2, 4])
  })

  it("does not touch another event kind or another subscription", async () => {
    const sub = (await s.subscribe()).body
    const other = (await s.subscribe()).body
    await addFault(sub.id, { kind: "duplicate" }, { match: { webhookId: sub.id, event: "OUTGOING_MINED" } })
    await addFault(other.id, { kind: "duplicate" }, { match: { webhookId: other.id, event: "INCOMING_CONFIRMED_COIN_TX" } })
    await s.deposit("1")
    await s.rx.waitFor(3)
    await idle()
    const byHook = (id: string) => s.rx.deliveries().filter((d) => d.body.webhookId === id).length
    expect([byHook(sub.id), byHook(other.id)]).toEqual([1, 2])
    expect(await hitsOf()).toHaveLength(1)
  })
})

describe("a revert", () => {
  it("puts back the attempts a webhook fault had counted at the snapshot", async () => {
    const sub = (await s.subscribe()).body
    await addFault(sub.id, { kind: "duplicate" }, { every: 2 })
    await s.deposit("1")
    await s.rx.waitFor(1)
    await idle()
    const snap = await s.h.admin("POST", "/_sim/snapshots")
    expect(snap.status).toBe(201)
    await s.deposit("2")
    await s.rx.waitFor(3)
    await idle()
    expect((await s.h.admin("POST", `/_sim/snapshots/${snap.body.id}/revert`)).status).toBe(200)
    // The second attempt again, as at the snapshot: duplicated.
    await s.deposit("3")
    await s.rx.waitFor(5)
    await idle()
    expect(amounts()).toEqual(["1", "2", "2", "3", "3"])
    expect((await hitsOf()).map((h: { call: number }) => h.call)).toEqual([2])
  })
})

describe("a probability with a seed", () => {
  it("hits the attempts its seed draws: the same pattern for the same seed, another for another", async () => {
    const pattern = async (seed: string) => {
      const sub = (await s.subscribe()).body
      const fault = await addFault(sub.id, { kind: "duplicate" }, { probability: 0.5, seed })
      const before = (await hitsOf()).length
      for (let i = 0; i < 8; i++) {
        await s.deposit("1")
        await idle()
      }
      await s.h.admin("DELETE", `/_sim/webhooks/${sub.id}`)
      const hits = (await hitsOf()).slice(before)
      expect(hits.every((h: { faultId: string }) => h.faultId === fault)).toBe(true)
      expect(s.rx.deliveries().filter((d) => d.body.webhookId === sub.id)).toHaveLength(8 + hits.length)
      return hits.map((h: { call: number }) => h.call)
    }
    const expected = (seed: string) => [1, 2, 3, 4, 5, 6, 7, 8].filter((call) => draw(seed, call) < 0.5)
    const a = await pattern("alpha")
    expect(a).toEqual(expected("alpha"))
    expect(await pattern("alpha")).toEqual(a)
    const b = await pattern("bravo")
    expect(b).toEqual(expected("bravo"))
    expect(b).not.toEqual(a)
  })
})

describe("a reorder", () => {
  it("holds the delivery until the subscription's next notification has been sent", async () => {
    const sub = (await s.subscribe()).body
    await addFault(sub.id, { kind: "reorder" }, { times: 1 })
    await s.deposit("1")
    await idle()
    expect(s.rx.deliveries()).toHaveLength(0)
    expect(await hitsOf()).toHaveLength(1)
    await s.deposit("2")
    await s.rx.waitFor(2)
    await idle()
    expect(amounts()).toEqual(["2", "1"])
    const logged = await s.deliveriesOf(sub.id)
    expect(logged.map((d: { status: string }) => d.status)).toEqual(["delivered", "delivered"])
  })

  it("with no later notification lets the delivery go after 60 simulated seconds, not before", async () => {
    const sub = (await s.subscribe()).body
    await addFault(sub.id, { kind: "reorder" }, { times: 1 })
    await s.deposit("1")
    await idle()
    await s.advance(59)
    await idle()
    expect(s.rx.deliveries()).toHaveLength(0)
    await s.advance(1)
    await s.rx.waitFor(1)
    await idle()
    const [logged] = await s.deliveriesOf(sub.id)
    expect(logged.attempts.map((a: { at: number; result: string }) => [a.at, a.result])).toEqual([[T0 + 60_000, "delivered"]])
    expect(amounts()).toEqual(["1"])
  })
})

describe("a delay", () => {
  it("holds the delivery for simulated seconds: sent when the clock reaches them, not before", async () => {
    const sub = (await s.subscribe()).body
    await addFault(sub.id, { kind: "delay", seconds: 60 }, { times: 1 })
    await s.deposit("1")
    await idle()
    expect(s.rx.deliveries()).toHaveLength(0)
    await s.advance(59)
    await idle()
    expect(s.rx.deliveries()).toHaveLength(0)
    await s.advance(1)
    await s.rx.waitFor(1)
    await idle()
    const [logged] = await s.deliveriesOf(sub.id)
    expect(logged.attempts.map((a: { at: number; result: string }) => [a.at, a.result])).toEqual([[T0 + 60_000, "delivered"]])
    expect(await hitsOf()).toHaveLength(1)
  })
})

describe("a fail", () => {
  it("counts attempts failed with its status though the receiver answered 200, retries as scheduled, then delivers", async () => {
    const sub = (await s.subscribe()).body
    await addFault(sub.id, { kind: "fail", status: 503 }, { times: 2 })
    await s.deposit("1")
    await s.rx.waitFor(1)
    await idle()
    await s.advance(9)
    await idle()
    expect(s.rx.deliveries()).toHaveLength(1)
    await s.advance(1)
    await s.rx.waitFor(2)
    await idle()
    await s.advance(30)
    await s.rx.waitFor(3)
    await idle()
    const [logged] = await s.deliveriesOf(sub.id)
    expect(logged.status).toBe("delivered")
    expect(logged.attempts.map((a: { statusCode: number; result: string; at: number }) => [a.statusCode, a.result, a.at])).toEqual([
      [503, "retrying", T0],
      [503, "retrying", T0 + 10_000],
      [200, "delivered", T0 + 40_000],
    ])
    expect(new Set(s.rx.deliveries().map((d) => d.body.idempotencyKey)).size).toBe(1)
    expect((await hitsOf()).map((h: { call: number }) => h.call)).toEqual([1, 2])
  })
})
