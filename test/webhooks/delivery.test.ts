// Deliveries to a real receiver: payload, signatures, retries on the simulated clock, redelivery, giving up,
// idempotency keys, filters.
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { computeWebhookSignature, verifyWebhookSignature } from "../../src/client/index.js"
import { DEFAULT_RETRY_SCHEDULE } from "../../src/domain/webhook/index.js"
import { T0 } from "../support/harness.js"
import { SECRET, startScenario, type Scenario } from "./scenario.js"

let s: Scenario
beforeEach(async () => {
  s = await startScenario()
})
afterEach(async () => s.close())

const idle = () => s.h.sim.webhooks!.idle()

describe("a confirmed deposit", () => {
  it("is delivered once, signed in Base64 over the raw body, with the documented payload", async () => {
    const sub = (await s.subscribe()).body
    const txid = await s.deposit("1.25")
    await s.rx.waitFor(1)
    await idle()
    const [d] = s.rx.deliveries()
    expect(d!.headers["content-type"]).toBe("application/json")
    const signature = d!.headers["x-signature"] as string
    expect(signature).toBe(computeWebhookSignature(d!.raw, SECRET))
    expect(verifyWebhookSignature({ body: d!.raw, signature, secret: SECRET })).toBe(true)
    expect(verifyWebhookSignature({ body: d!.raw.toString("utf8"), signature, secret: SECRET, encoding: "base64" })).toBe(true)
    expect(verifyWebhookSignature({ body: d!.raw, signature, secret: `${SECRET}x` })).toBe(false)
    expect(verifyWebhookSignature({ body: Buffer.concat([d!.raw, Buffer.from(" ")]), signature, secret: SECRET })).toBe(false)
    expect(verifyWebhookSignature({ body: d!.raw, signature: undefined, secret: SECRET })).toBe(false)
    expect(d!.body).toEqual({
      walletId: s.h.testVaultId,
      webhookId: sub.id,
      idempotencyKey: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
      apiVersion: expect.any(String),
      data: {
        event: "INCOMING_CONFIRMED_COIN_TX",
        item: {
          blockchain: "ethereum",
          network: "sepolia",
          address: expect.stringMatching(/^0x/),
          amount: "1.25",
          unit: "ETH",
          transactionId: txid,
          minedInBlockHeight: 1,
          minedInBlockHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
          currentConfirmations: 1,
          targetConfirmations: 1,
          timestamp: T0 / 1000,
        },
      },
    })
    // Minified, keys in the documented order: the bytes are exactly JSON.stringify of the envelope.
    expect(d!.raw.toString("utf8")).toBe(JSON.stringify(d!.body))
    const [logged] = await s.deliveriesOf(sub.id)
    expect(logged).toMatchObject({
      status: "delivered",
      idempotencyKey: d!.body.idempotencyKey,
      event: "INCOMING_CONFIRMED_COIN_TX",
      walletId: s.h.testVaultId,
      subject: txid,
    })
    expect(logged.attempts).toEqual([
      { attempt: 1, at: T0, statusCode: 200, error: null, durationMs: expect.any(Number), result: "delivered", nextAttemptAt: null },
    ])
    expect(logged.payload).toEqual(d!.body)
  })

  it("is signed in hex when the subscription asks", async () => {
    await s.subscribe({ signatureEncoding: "hex" })
    await s.deposit()
    await s.rx.waitFor(1)
    const [d] = s.rx.deliveries()
    const signature = d!.headers["x-signature"] as string
    expect(signature).toMatch(/^[0-9a-f]{64}$/)
    expect(verifyWebhookSignature({ body: d!.raw, signature, secret: SECRET, encoding: "hex" })).toBe(true)
    expect(verifyWebhookSignature({ body: d!.raw, signature: signature.toUpperCase(), secret: SECRET, encoding: "hex" })).toBe(true)
    expect(verifyWebhookSignature({ body: d!.raw, signature, secret: SECRET })).toBe(false)
  })
})

describe("retries on the simulated clock", () => {
  it("delivers again after the backoff with the same idempotency key when the receiver answered 500", async () => {
    let calls = 0
    s.rx.answer = () => ({ status: ++calls === 1 ? 500 : 200 })
    const sub = (await s.subscribe()).body
    await s.deposit()
    await s.rx.waitFor(1)
    await idle()
    let [logged] = await s.deliveriesOf(sub.id)
    expect(logged).toMatchObject({
      status: "pending",
      nextAttemptAt: T0 + 10_000,
      attempts: [{ attempt: 1, statusCode: 500, result: "retrying", nextAttemptAt: T0 + 10_000 }],
    })

    await s.advance(9)
    await idle()
    expect(s.rx.deliveries()).toHaveLength(1)
    await s.advance(1)
    await s.rx.waitFor(2)
    await idle()
    const [first, second] = s.rx.deliveries()
    expect(second!.body.idempotencyKey).toBe(first!.body.idempotencyKey)
    expect(second!.raw.equals(first!.raw)).toBe(true)
    ;[logged] = await s.deliveriesOf(sub.id)
    expect(logged.status).toBe("delivered")
    expect(logged.attempts.map((a: { statusCode: number; result: string; at: number }) => [a.statusCode, a.result, a.at])).toEqual([
      [500, "retrying", T0],
      [200, "delivered", T0 + 10_000],
    ])
    const events = (await s.h.admin<any>("GET", "/_sim/events?limit=10000")).body.events.filter(
      (e: { type: string }) => e.type === "WebhookDeliveryAttempted",
    )
    expect(events).toHaveLength(2)
    expect(events[0].stream).toBe(`webhookDelivery-${logged.id}`)
  })

  it("gives up after the default schedule is exhausted, then delivers again on request", async () => {
    s.rx.answer = () => ({ status: 500 })
    const sub = (await s.subscribe()).body
    await s.deposit()
    await s.rx.waitFor(1)
    await idle()
    for (const [i, seconds] of DEFAULT_RETRY_SCHEDULE.entries()) {
      await s.advance(seconds)
      await s.rx.waitFor(i + 2)
      await idle()
    }
    await s.advance(86_400)
    await idle()
    expect(s.rx.deliveries()).toHaveLength(DEFAULT_RETRY_SCHEDULE.length + 1)
    let [logged] = await s.deliveriesOf(sub.id)
    expect(logged.status).toBe("given-up")
    expect(logged.nextAttemptAt).toBeNull()
    expect(logged.attempts.map((a: { result: string }) => a.result)).toEqual([...DEFAULT_RETRY_SCHEDULE.map(() => "retrying"), "given-up"])
    const gaps = logged.attempts.slice(1).map((a: { at: number }, i: number) => (a.at - logged.attempts[i].at) / 1000)
    expect(gaps).toEqual(DEFAULT_RETRY_SCHEDULE)
    expect((await s.h.admin("GET", `/_sim/webhooks/${sub.id}`)).body.deliveries).toEqual({ total: 1, pending: 0, delivered: 0, givenUp: 1 })

    s.rx.answer = () => ({ status: 204 })
    const again = await s.h.admin("POST", `/_sim/webhooks/${sub.id}/deliveries/${logged.id}/redeliver`)
    expect(again.status).toBe(200)
    expect(again.body).toMatchObject({ status: "pending", redeliveries: 1 })
    await s.rx.waitFor(DEFAULT_RETRY_SCHEDULE.length + 2)
    await idle()
    ;[logged] = await s.deliveriesOf(sub.id)
    expect(logged.status).toBe("delivered")
    expect(new Set(s.rx.deliveries().map((r) => r.body.idempotencyKey)).size).toBe(1)
  })

  it("follows a subscription's own schedule, and the simulator's global one", async () => {
    s.rx.answer = () => ({ status: 502 })
    const sub = (await s.subscribe({ retrySchedule: [1, 2] })).body
    await s.deposit()
    await s.rx.waitFor(1)
    await idle()
    await s.advance(1)
    await s.rx.waitFor(2)
    await idle()
    await s.advance(2)
    await s.rx.waitFor(3)
    await idle()
    expect((await s.deliveriesOf(sub.id))[0]).toMatchObject({ status: "given-up" })

    const g = await startScenario({ webhooks: { retrySchedule: [5] } })
    try {
      g.rx.answer = () => ({ status: 500 })
      const gsub = (await g.subscribe()).body
      await g.deposit()
      await g.rx.waitFor(1)
      await g.h.sim.webhooks!.idle()
      expect((await g.deliveriesOf(gsub.id))[0]).toMatchObject({ nextAttemptAt: T0 + 5_000 })
      await g.advance(5)
      await g.rx.waitFor(2)
      await g.h.sim.webhooks!.idle()
      expect((await g.deliveriesOf(gsub.id))[0]).toMatchObject({ status: "given-up" })
    } finally {
      await g.close()
    }
  })

  it("counts a receiver that does not answer in time as a network error", async () => {
    const t = await startScenario({ webhooks: { timeoutMs: 200 } })
    try {
      t.rx.answer = () => ({ status: 200, delayMs: 1_000 })
      const sub = (await t.subscribe()).body
      await t.deposit()
      await t.rx.waitFor(1)
      await t.h.sim.webhooks!.idle()
      expect((await t.deliveriesOf(sub.id))[0].attempts[0]).toMatchObject({
        statusCode: null,
        error: expect.stringContaining("timeout"),
        result: "retrying",
      })
    } finally {
      await t.close()
    }
  })
})

describe("on the delivery thread (as custody-sim serve runs it)", () => {
  it("delivers, records every attempt as an event and retries with the same idempotency key", async () => {
    const t = await startScenario({ webhooks: { thread: true } })
    try {
      let calls = 0
      t.rx.answer = () => ({ status: ++calls === 1 ? 503 : 200 })
      const sub = (await t.subscribe()).body
      await t.deposit()
      await t.rx.waitFor(1, 10_000)
      await t.h.sim.webhooks!.idle()
      await t.advance(10)
      await t.rx.waitFor(2, 10_000)
      await t.h.sim.webhooks!.idle()
      const [first, second] = t.rx.deliveries()
      expect(second!.raw.equals(first!.raw)).toBe(true)
      expect(verifyWebhookSignature({ body: second!.raw, signature: second!.headers["x-signature"] as string, secret: SECRET })).toBe(true)
      const [logged] = await t.deliveriesOf(sub.id)
      expect(logged.attempts.map((a: { statusCode: number; result: string }) => [a.statusCode, a.result])).toEqual([
        [503, "retrying"],
        [200, "delivered"],
      ])
      const events = (await t.h.admin<any>("GET", "/_sim/events?limit=10000")).body.events.filter(
        (e: { type: string }) => e.type === "WebhookDeliveryAttempted",
      )
      expect(events).toHaveLength(2)
    } finally {
      await t.close()
    }
  })
})

describe("idempotency keys", () => {
  it("are shared by every copy of one notification to one subscription, and by nothing else", async () => {
    const seen = new Map<string, number>()
    s.rx.answer = (r) => {
      const n = (seen.get(r.body.idempotencyKey) ?? 0) + 1
      seen.set(r.body.idempotencyKey, n)
      return { status: n < 3 ? 500 : 200 }
    }
    const a = (await s.subscribe()).body
    const b = (await s.subscribe({ events: ["INCOMING_CONFIRMED_COIN_TX"] })).body
    const txids = [await s.deposit("1"), await s.deposit("2"), await s.deposit("3"), await s.deposit("4")]
    await idle()
    for (const seconds of DEFAULT_RETRY_SCHEDULE.slice(0, 2)) {
      await s.advance(seconds)
      await idle()
    }
    const first = (await s.deliveriesOf(a.id))[0]
    await s.h.admin("POST", `/_sim/webhooks/${a.id}/deliveries/${first.id}/redeliver`)
    await idle()
    const keyOf = new Map<string, string>()
    for (const r of s.rx.deliveries()) {
      const who = `${r.body.webhookId}/${r.body.data.item.transactionId}`
      expect(keyOf.get(who) ?? r.body.idempotencyKey, who).toBe(r.body.idempotencyKey)
      keyOf.set(who, r.body.idempotencyKey)
    }
    expect(s.rx.deliveries()).toHaveLength(2 * txids.length * 3 + 1)
    expect(keyOf.size).toBe(2 * txids.length)
    expect(new Set(keyOf.values()).size).toBe(keyOf.size)
    for (const sub of [a, b]) {
      const log = await s.deliveriesOf(sub.id)
      expect(log.map((d: { subject: string }) => d.subject)).toEqual(txids)
      expect(log.every((d: { status: string }) => d.status === "delivered")).toBe(true)
    }
  })
})

describe("filters", () => {
  it("delivers only the kinds and vaults a subscription names", async () => {
    const tokens = (await s.subscribe({ events: ["INCOMING_CONFIRMED_TOKEN_TX"] })).body
    const mainOnly = (await s.subscribe({ vaultIds: [s.h.mainVaultId] })).body
    const testOnly = (await s.subscribe({ vaultIds: [s.h.testVaultId] })).body
    await s.deposit()
    await idle()
    expect(s.rx.deliveries().map((r) => r.body.webhookId)).toEqual([testOnly.id])
    expect(await s.deliveriesOf(tokens.id)).toEqual([])
    expect(await s.deliveriesOf(mainOnly.id)).toEqual([])
  })

  it("pages the delivery log", async () => {
    const sub = (await s.subscribe()).body
    for (let i = 0; i < 5; i++) await s.deposit(String(i + 1))
    await idle()
    const page1 = await s.h.admin<any>("GET", `/_sim/webhooks/${sub.id}/deliveries?limit=2`)
    expect(page1.body.hasMore).toBe(true)
    const page2 = await s.h.admin<any>("GET", `/_sim/webhooks/${sub.id}/deliveries?limit=10&startingAfter=${page1.body.deliveries[1].id}`)
    expect(page2.body.hasMore).toBe(false)
    expect([...page1.body.deliveries, ...page2.body.deliveries].map((d: { payload: any }) => d.payload.data.item.amount)).toEqual([
      "1",
      "2",
      "3",
      "4",
      "5",
    ])
    expect((await s.h.admin<any>("GET", `/_sim/webhooks/${sub.id}/deliveries?status=pending`)).body.deliveries).toEqual([])
  })
})

describe("a transaction request", () => {
  it("is delivered at each step with its transactionRequestId; the delivery log keeps log order", async () => {
    const sub = (await s.subscribe({ events: ["TRANSACTION_REQUEST", "TRANSACTION_APPROVED", "OUTGOING_MINED", "OUTGOING_FAILED"] })).body
    await s.deposit("1")
    const address = await s.addressOf(s.h.testVaultId)
    const r = await s.h.client.call<any>("POST", `/vaults/${s.h.testVaultId}/ethereum/sepolia/addresses/${address}/transaction-requests`, {
      item: { amount: "0.25", feePriority: "standard", recipientAddress: "0x742d35Cc6634C0532925a3b844Bc454e4438f44e" },
    })
    expect(r.status).toBe(201)
    const id = r.body.data.item.transactionRequestId as string
    await idle()
    const log = await s.deliveriesOf(sub.id)
    expect(log.map((d: { event: string }) => d.event)).toEqual(["TRANSACTION_REQUEST", "TRANSACTION_APPROVED", "OUTGOING_MINED"])
    expect(log.every((d: { status: string; subject: string }) => d.status === "delivered" && d.subject === id)).toBe(true)
    const got = s.rx.deliveries().map((d) => d.body.data)
    expect(got).toHaveLength(3)
    for (const d of got) expect(d.item).toMatchObject({ transactionRequestId: id, blockchain: "ethereum", network: "sepolia", address })
    expect(got.find((d) => d.event === "OUTGOING_MINED")!.item).toMatchObject({
      transactionId: expect.stringMatching(/^0x/),
      minedInBlockHeight: expect.any(Number),
    })
  })
})
