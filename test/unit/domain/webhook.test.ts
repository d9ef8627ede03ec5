// Webhook subscription decider: created once, verified before it is operational, deleted at most once.
import { describe, it } from "vitest"
import {
  webhookDecider,
  type HttpOutcome,
  type WebhookCommand,
  type WebhookConfig,
  type WebhookEvent,
} from "../../../src/domain/webhook/index.js"
import { simInstant } from "../../../src/domain/shared/sim-time.js"
import { deciderSpec } from "../../support/decider-spec.js"

const spec = deciderSpec(webhookDecider)
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
const outcome = { statusCode: 200, error: null, durationMs: 1 }
const verified: WebhookEvent = { type: "WebhookVerified", data: { webhookId: "w1", method: "request", outcome, at: now } }
const deleted: WebhookEvent = { type: "WebhookDeleted", data: { webhookId: "w1", at: now } }
const verify = (ok: boolean, o: HttpOutcome | null = outcome): WebhookCommand => ({
  type: "RecordVerification",
  method: "request",
  ok,
  reason: ok ? "" : "no echo",
  outcome: o,
  now,
})

describe("webhook decider", () => {
  describe("CreateWebhook", () => {
    it("subscribes a new webhook, pending verification", () => {
      spec.given([]).when({ type: "CreateWebhook", config, now }).then([subscribed])
    })
    it("refuses an id that exists", () => {
      spec.given([subscribed]).when({ type: "CreateWebhook", config, now }).thenFails({ _tag: "WebhookAlreadyExists", webhookId: "w1" })
    })
  })
  describe("RecordVerification", () => {
    it("a receiver that echoed the challenge verifies a pending subscription", () => {
      spec.given([subscribed]).when(verify(true)).then([verified])
    })
    it("a failed check is recorded with its outcome, and the subscription stays pending", () => {
      spec
        .given([subscribed])
        .when(verify(false))
        .then([{ type: "WebhookVerificationFailed", data: { webhookId: "w1", reason: "no echo", outcome, at: now } }])
    })
    it("a failed check without an answer records the reason as the outcome's error", () => {
      spec
        .given([subscribed])
        .when(verify(false, null))
        .then([
          {
            type: "WebhookVerificationFailed",
            data: { webhookId: "w1", reason: "no echo", outcome: { statusCode: null, error: "no echo", durationMs: 0 }, at: now },
          },
        ])
    })
    it("verifying an operational subscription again changes nothing", () => {
      spec.given([subscribed, verified]).when(verify(true)).then([])
    })
    it("refuses a subscription that does not exist", () => {
      spec.given([]).when(verify(true)).thenFails({ _tag: "WebhookNotFound", webhookId: "" })
    })
    it("refuses a deleted subscription", () => {
      spec.given([subscribed, deleted]).when(verify(true)).thenFails({ _tag: "WebhookNotFound", webhookId: "w1" })
    })
  })
  describe("DeleteWebhook", () => {
    it("deletes a pending subscription", () => {
      spec.given([subscribed]).when({ type: "DeleteWebhook", now }).then([deleted])
    })
    it("deletes an operational subscription", () => {
      spec.given([subscribed, verified]).when({ type: "DeleteWebhook", now }).then([deleted])
    })
    it("refuses a subscription deleted already", () => {
      spec.given([subscribed, deleted]).when({ type: "DeleteWebhook", now }).thenFails({ _tag: "WebhookNotFound", webhookId: "w1" })
    })
    it("refuses a subscription that does not exist", () => {
      spec.given([]).when({ type: "DeleteWebhook", now }).thenFails({ _tag: "WebhookNotFound", webhookId: "" })
    })
  })
})
