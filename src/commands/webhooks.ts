// Webhook use cases: subscribe, record a verification, delete, request a redelivery, record delivery attempts.
import { Effect } from "effect"
import {
  webhookDecider,
  webhookDeliveryStream,
  webhookStream,
  type HttpOutcome,
  type VerificationMode,
  type WebhookConfig,
  type WebhookDeliveryEvent,
} from "../domain/webhook/index.js"
import { EventStore } from "../store/event-store.js"
import { runDecider, toNewEvents } from "./run-decider.js"
import { Ids, SimClock } from "./services.js"

export const createWebhook = Effect.fn("createWebhook")(function* (input: Omit<WebhookConfig, "webhookId">) {
  const webhookId = yield* (yield* Ids).next("webhook")
  const now = yield* (yield* SimClock).now
  const r = yield* runDecider(webhookDecider, webhookStream(webhookId), { type: "CreateWebhook", config: { webhookId, ...input }, now })
  return { ...r, webhookId }
})

export const recordVerification = (
  webhookId: string,
  v: { method: VerificationMode; ok: boolean; reason: string; outcome: HttpOutcome | null },
) =>
  Effect.gen(function* () {
    const now = yield* (yield* SimClock).now
    return yield* runDecider(webhookDecider, webhookStream(webhookId), { type: "RecordVerification", ...v, now })
  })

export const deleteWebhook = (webhookId: string) =>
  Effect.gen(function* () {
    const now = yield* (yield* SimClock).now
    return yield* runDecider(webhookDecider, webhookStream(webhookId), { type: "DeleteWebhook", now })
  })

/**
 * Appends facts to delivery streams. Attempts are facts about the outside world, appended whatever the stream's
 * revision: the worker never has two attempts of one delivery in flight, and a redelivery racing an attempt is
 * resolved by log order (the later event sets the status).
 */
export const recordDeliveryEvents = (events: ReadonlyArray<WebhookDeliveryEvent>) =>
  Effect.gen(function* () {
    const store = yield* EventStore
    const stored = yield* toNewEvents(events)
    let position = -1n
    for (const [i, e] of events.entries()) {
      const r = yield* store.append(webhookDeliveryStream(e.data.deliveryId), [stored[i]!], "any")
      position = r.position
    }
    return { position }
  })

export const requestRedelivery = (d: { webhookId: string; deliveryId: string; notificationId: string }) =>
  Effect.gen(function* () {
    const at = yield* (yield* SimClock).now
    return yield* recordDeliveryEvents([{ type: "WebhookRedeliveryRequested", data: { ...d, at } }])
  })
