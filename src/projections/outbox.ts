// Webhook outbox: subscriptions, and one delivery per (NotificationRaised × operational matching subscription),
// in position order, with every recorded attempt. The delivery worker reads it; only events change it.
import { createHash } from "node:crypto"
import type { NotificationKind } from "../domain/ledger/events.js"
import type { HttpOutcome, VerificationMode, WebhookConfig, WebhookDeliveryEvent, WebhookEvent } from "../domain/webhook/index.js"
import type { StoredOf } from "../events/stored-event.js"
import type { EventMetadata } from "../store/event-store.js"

export interface Notification {
  /** Id of the NotificationRaised event. */
  readonly id: string
  readonly position: bigint
  readonly vaultId: string
  readonly kind: NotificationKind
  readonly subject: string
  readonly payload: Readonly<Record<string, string | number | null>>
  readonly at: number
}

export interface VerificationView {
  readonly at: number
  readonly ok: boolean
  readonly method: VerificationMode
  readonly reason: string | null
  readonly outcome: HttpOutcome | null
}

export interface SubscriptionView {
  readonly config: WebhookConfig
  status: "pending" | "active" | "deleted"
  readonly createdAt: number
  verifiedAt: number | null
  lastVerification: VerificationView | null
  verificationAttempts: number
  readonly deliveries: Array<DeliveryView>
  /** Position of the event that created it, and its changing fields after each later change (as-of reads). */
  readonly createdPosition: bigint
  readonly changes: Array<SubscriptionChange>
}

export interface SubscriptionChange {
  readonly position: bigint
  readonly status: SubscriptionView["status"]
  readonly verifiedAt: number | null
  readonly lastVerification: VerificationView | null
  readonly verificationAttempts: number
}

export interface AttemptView extends HttpOutcome {
  readonly attempt: number
  readonly at: number
  readonly result: "delivered" | "retrying" | "given-up"
  readonly nextAttemptAt: number | null
}

export interface DeliveryView {
  readonly deliveryId: string
  readonly webhookId: string
  /** The same for every attempt and redelivery of this notification to this subscription, and only for those. */
  readonly idempotencyKey: string
  readonly notification: Notification
  status: "pending" | "delivered" | "given-up" | "cancelled"
  /** Simulated time the next attempt is due; null unless pending. */
  nextAttemptAt: number | null
  /** Failed attempts since creation or the last redelivery: the index into the retry schedule. */
  failuresInRound: number
  redeliveries: number
  readonly attempts: Array<AttemptView>
  /** Its changing fields after each change since it was created at the notification's position (as-of reads). */
  readonly changes: Array<DeliveryChange>
}

export interface DeliveryChange {
  readonly position: bigint
  readonly status: DeliveryView["status"]
  readonly nextAttemptAt: number | null
  readonly failuresInRound: number
  readonly redeliveries: number
  /** How many of `attempts` were recorded by then. */
  readonly attempts: number
}

const noteSubscription = (s: SubscriptionView, position: bigint) =>
  s.changes.push({
    position,
    status: s.status,
    verifiedAt: s.verifiedAt,
    lastVerification: s.lastVerification,
    verificationAttempts: s.verificationAttempts,
  })

const noteDelivery = (d: DeliveryView, position: bigint) =>
  d.changes.push({
    position,
    status: d.status,
    nextAttemptAt: d.nextAttemptAt,
    failuresInRound: d.failuresInRound,
    redeliveries: d.redeliveries,
    attempts: d.attempts.length,
  })

/**
 * Delivery id (24 hex) and idempotency key (uuid layout), both a hash of (subscription, notification event id, the
 * epoch its metadata records). A revert rewinds event ids and subscription ids, never the epoch: a notification
 * written after one never gets the key of one delivered before it (README "Snapshots").
 */
export const deliveryIdentity = (
  webhookId: string,
  notification: { readonly id: string; readonly metadata: EventMetadata },
): { deliveryId: string; idempotencyKey: string } => {
  const epoch = notification.metadata.epoch
  const label = `webhook-delivery:${webhookId}:${notification.id}`
  const h = createHash("sha256")
    .update(typeof epoch === "number" && epoch > 0 ? `${label}~${epoch}` : label)
    .digest("hex")
  const k = h.slice(24, 56)
  return {
    deliveryId: h.slice(0, 24),
    idempotencyKey: `${k.slice(0, 8)}-${k.slice(8, 12)}-${k.slice(12, 16)}-${k.slice(16, 20)}-${k.slice(20)}`,
  }
}

const matches = (s: SubscriptionView, n: Notification): boolean =>
  (s.config.events.includes("*") || s.config.events.includes(n.kind)) &&
  (s.config.vaultIds === null || s.config.vaultIds.includes(n.vaultId))

export const outboxFoldTypes = [
  "NotificationRaised",
  "WebhookSubscribed",
  "WebhookVerified",
  "WebhookVerificationFailed",
  "WebhookDeleted",
  "WebhookDeliveryAttempted",
  "WebhookRedeliveryRequested",
] as const satisfies ReadonlyArray<(WebhookEvent | WebhookDeliveryEvent)["type"] | "NotificationRaised">

export class OutboxModel {
  readonly subscriptions = new Map<string, SubscriptionView>()
  readonly deliveries = new Map<string, DeliveryView>()
  private operational: Array<SubscriptionView> = []
  private listener: ((d: DeliveryView) => void) | undefined

  /** Told of every delivery that becomes due at some time (created, retry scheduled, redelivery requested). */
  /** Sets the listener told of deliveries that become due; returns the one it replaces. */
  listen(f: ((d: DeliveryView) => void) | undefined): ((d: DeliveryView) => void) | undefined {
    const before = this.listener
    this.listener = f
    return before
  }

  pending(): Array<DeliveryView> {
    return [...this.deliveries.values()].filter((d) => d.status === "pending")
  }

  apply(event: StoredOf<(typeof outboxFoldTypes)[number]>): void {
    if (event.type === "NotificationRaised") return this.raise(event)
    switch (event.type) {
      case "WebhookSubscribed": {
        const { at, ...config } = event.data
        this.subscriptions.set(config.webhookId, {
          config,
          status: "pending",
          createdAt: at,
          verifiedAt: null,
          lastVerification: null,
          verificationAttempts: 0,
          deliveries: [],
          createdPosition: event.position,
          changes: [],
        })
        return
      }
      case "WebhookVerified":
      case "WebhookVerificationFailed": {
        const s = this.subscriptions.get(event.data.webhookId)
        if (s === undefined || s.status !== "pending") return
        const ok = event.type === "WebhookVerified"
        s.verificationAttempts++
        s.lastVerification = {
          at: event.data.at,
          ok,
          method: ok ? event.data.method : "request",
          reason: ok ? null : event.data.reason,
          outcome: event.data.outcome,
        }
        if (ok) {
          s.status = "active"
          s.verifiedAt = event.data.at
          this.operational = [...this.subscriptions.values()].filter((x) => x.status === "active")
        }
        noteSubscription(s, event.position)
        return
      }
      case "WebhookDeleted": {
        const s = this.subscriptions.get(event.data.webhookId)
        if (s === undefined) return
        s.status = "deleted"
        noteSubscription(s, event.position)
        for (const d of s.deliveries) {
          if (d.status !== "pending") continue
          d.status = "cancelled"
          d.nextAttemptAt = null
          noteDelivery(d, event.position)
        }
        this.operational = this.operational.filter((x) => x !== s)
        return
      }
      case "WebhookDeliveryAttempted": {
        const d = this.deliveries.get(event.data.deliveryId)
        // An attempt number already recorded is the same attempt recorded twice (two nodes, or a record retried
        // after a store failure): the first one counts.
        if (d === undefined || event.data.attempt <= d.attempts.length) return
        const { webhookId: _w, deliveryId: _d, notificationId: _n, ...attempt } = event.data
        d.attempts.push(attempt)
        if (d.status !== "cancelled") {
          d.status = attempt.result === "retrying" ? "pending" : attempt.result
          d.nextAttemptAt = attempt.nextAttemptAt
          d.failuresInRound = attempt.result === "delivered" ? 0 : d.failuresInRound + 1
        }
        noteDelivery(d, event.position)
        if (d.status === "pending") this.listener?.(d)
        return
      }
      case "WebhookRedeliveryRequested": {
        const d = this.deliveries.get(event.data.deliveryId)
        if (d === undefined || d.status === "cancelled") return
        d.status = "pending"
        d.nextAttemptAt = event.data.at
        d.failuresInRound = 0
        d.redeliveries++
        noteDelivery(d, event.position)
        this.listener?.(d)
        return
      }
      default:
        return
    }
  }

  private raise(event: StoredOf<"NotificationRaised">): void {
    if (this.operational.length === 0) return
    const data = event.data
    const n: Notification = {
      id: event.id,
      position: event.position,
      vaultId: data.vaultId,
      kind: data.kind,
      subject: data.subject,
      payload: data.payload,
      at: event.metadata.at,
    }
    for (const s of this.operational) {
      if (!matches(s, n)) continue
      const { deliveryId, idempotencyKey } = deliveryIdentity(s.config.webhookId, event)
      if (this.deliveries.has(deliveryId)) continue
      const d: DeliveryView = {
        deliveryId,
        webhookId: s.config.webhookId,
        idempotencyKey,
        notification: n,
        status: "pending",
        nextAttemptAt: n.at,
        failuresInRound: 0,
        redeliveries: 0,
        attempts: [],
        changes: [],
      }
      this.deliveries.set(deliveryId, d)
      s.deliveries.push(d)
      this.listener?.(d)
    }
  }
}
