// The webhook subscription decider (given events / when command / then events or error), the attempt rule,
// and the outbox rebuilt from the log.
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import {
  DEFAULT_RETRY_SCHEDULE,
  decideAttempt,
  webhookDecider,
  type WebhookCommand,
  type WebhookConfig,
  type WebhookEvent,
} from "../../src/domain/webhook/index.js"
import { fold } from "../../src/domain/shared/decider.js"
import { simInstant } from "../../src/domain/shared/sim-time.js"
import { ReadModels } from "../../src/projections/read-models.js"
import { deliveryJson, subscriptionJson } from "../../src/api/sim/webhooks.js"
import { startScenario } from "./scenario.js"

const now = simInstant(1_000)
const config: WebhookConfig = {
  webhookId: "w1",
  url: "http://127.0.0.1/x",
  secret: "s",
  events: ["*"],
  vaultIds: null,
  signatureEncoding: "base64",
  verification: "request",
  retrySchedule: null,
}
const subscribed: WebhookEvent = { type: "WebhookSubscribed", data: { ...config, at: now } }
const verified: WebhookEvent = { type: "WebhookVerified", data: { webhookId: "w1", method: "manual", outcome: null, at: now } }
const deleted: WebhookEvent = { type: "WebhookDeleted", data: { webhookId: "w1", at: now } }

const given = (events: ReadonlyArray<WebhookEvent>) => ({
  when: (c: WebhookCommand) => webhookDecider.decide(c, fold(webhookDecider.evolve, webhookDecider.initialState, events)),
})
const verify = (ok: boolean): WebhookCommand => ({
  type: "RecordVerification",
  method: "request",
  ok,
  reason: ok ? "" : "no echo",
  outcome: { statusCode: 200, error: null, durationMs: 1 },
  now,
})

describe("webhook decider", () => {
  it("creates once", () => {
    expect(given([]).when({ type: "CreateWebhook", config, now })).toEqual({ _tag: "Accepted", events: [subscribed] })
    expect(given([subscribed]).when({ type: "CreateWebhook", config, now })).toEqual({
      _tag: "Rejected",
      error: { _tag: "WebhookAlreadyExists", webhookId: "w1" },
    })
  })
  it("verifies a pending subscription, records failures, and ignores verifying an active one", () => {
    expect(given([subscribed]).when(verify(true))).toMatchObject({ _tag: "Accepted", events: [{ type: "WebhookVerified" }] })
    expect(given([subscribed]).when(verify(false))).toMatchObject({
      _tag: "Accepted",
      events: [{ type: "WebhookVerificationFailed", data: { reason: "no echo" } }],
    })
    expect(given([subscribed, verified]).when(verify(false))).toEqual({ _tag: "Accepted", events: [] })
    expect(given([]).when(verify(true))).toMatchObject({ _tag: "Rejected", error: { _tag: "WebhookNotFound" } })
  })
  it("deletes at most once; a deleted subscription is terminal", () => {
    expect(given([subscribed, verified]).when({ type: "DeleteWebhook", now })).toEqual({ _tag: "Accepted", events: [deleted] })
    const gone = fold(webhookDecider.evolve, webhookDecider.initialState, [subscribed, deleted])
    expect(webhookDecider.isTerminal(gone)).toBe(true)
    for (const c of [verify(true), { type: "DeleteWebhook", now } as const]) expect(webhookDecider.decide(c, gone)._tag).toBe("Rejected")
  })
})

describe("attempt rule", () => {
  const failed = { statusCode: 500, error: null, durationMs: 1 }
  it("walks the schedule from the attempt's end, then gives up", () => {
    expect(decideAttempt({ statusCode: 204, error: null, durationMs: 1 }, 3, DEFAULT_RETRY_SCHEDULE, now)).toEqual({
      result: "delivered",
      nextAttemptAt: null,
    })
    expect(decideAttempt(failed, 0, DEFAULT_RETRY_SCHEDULE, now)).toEqual({ result: "retrying", nextAttemptAt: 11_000 })
    expect(decideAttempt({ statusCode: null, error: "ECONNREFUSED", durationMs: 1 }, 8, DEFAULT_RETRY_SCHEDULE, now)).toEqual({
      result: "retrying",
      nextAttemptAt: 1_000 + 14_400_000,
    })
    expect(decideAttempt(failed, 9, DEFAULT_RETRY_SCHEDULE, now)).toEqual({ result: "given-up", nextAttemptAt: null })
    expect(decideAttempt({ statusCode: 302, error: null, durationMs: 1 }, 0, [], now)).toEqual({ result: "given-up", nextAttemptAt: null })
  })
})

it("the outbox rebuilt from the log is identical to the live one", async () => {
  const s = await startScenario()
  try {
    let n = 0
    s.rx.answer = () => ({ status: ++n % 2 === 0 ? 200 : 500 })
    const sub = (await s.subscribe()).body
    await s.subscribe({ verification: "manual" })
    for (let i = 0; i < 3; i++) await s.deposit(String(i + 1))
    await s.h.sim.webhooks!.idle()
    await s.advance(10)
    await s.h.sim.webhooks!.idle()
    await s.h.admin("DELETE", `/_sim/webhooks/${sub.id}`)
    const rebuilt = new ReadModels()
    for (const e of await Effect.runPromise(s.h.sim.store.readAll({}))) rebuilt.apply(e)
    const view = (m: ReadModels) => ({
      subscriptions: [...m.outbox.subscriptions.values()].map(subscriptionJson),
      deliveries: [...m.outbox.deliveries.values()].map(deliveryJson),
    })
    expect(JSON.stringify(view(rebuilt))).toBe(JSON.stringify(view(s.h.sim.models)))
    expect(view(rebuilt).deliveries.length).toBe(3)
  } finally {
    await s.close()
  }
})
