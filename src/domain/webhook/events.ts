// Webhook events: subscriptions (stream `webhook-<id>`) and delivery attempts (stream `webhookDelivery-<id>`).
import type { ApiVersion } from "../api-key/versions.js"
import type { NotificationKind } from "../ledger/events.js"
import { everyMember } from "../shared/members.js"
import type { SimInstant } from "../shared/sim-time.js"

export type SignatureEncoding = "base64" | "hex"
/**
 * How the callback domain is verified. `dashboard` (the default): as the real service does it, in its dashboard,
 * simulated as done when the subscription is created, so it is active at once and no request reaches the receiver
 * before the first notification. `manual`: pending until the control plane verifies it. `request`: a signed
 * challenge the receiver must echo (src/webhooks/verify.ts).
 */
export type VerificationMode = "dashboard" | "request" | "manual"

/** Every kind a subscription may name, in the order an error message lists them; a kind left out fails to compile. */
export const notificationKinds: ReadonlyArray<NotificationKind> = everyMember<NotificationKind>({
  INCOMING_CONFIRMED_COIN_TX: true,
  INCOMING_CONFIRMED_TOKEN_TX: true,
  INCOMING_MINED_TX: true,
  TRANSACTION_REQUEST: true,
  TRANSACTION_APPROVED: true,
  TRANSACTION_REJECTED: true,
  OUTGOING_MINED: true,
  OUTGOING_FAILED: true,
})

export interface WebhookConfig {
  readonly webhookId: string
  readonly url: string
  /** Used as UTF-8 bytes for the HMAC key. */
  readonly secret: string
  /** Kinds delivered, or ["*"] for every kind. */
  readonly events: ReadonlyArray<NotificationKind | "*">
  /** null: every vault. */
  readonly vaultIds: ReadonlyArray<string> | null
  readonly signatureEncoding: SignatureEncoding
  readonly verification: VerificationMode
  /** Seconds between attempts; null: the simulator's schedule. */
  readonly retrySchedule: ReadonlyArray<number> | null
  /** The version payloads are written in; absent: 2024-05-09 (subscriptions made before versions existed). */
  readonly apiVersion?: ApiVersion
}

/** What a verification request or a delivery attempt got back: a status code, or a network error. */
export interface HttpOutcome {
  readonly statusCode: number | null
  readonly error: string | null
  /** Wall-clock milliseconds the request took. */
  readonly durationMs: number
}

export type WebhookEvent =
  | { readonly type: "WebhookSubscribed"; readonly data: WebhookConfig & { readonly at: SimInstant } }
  | {
      readonly type: "WebhookVerified"
      readonly data: {
        readonly webhookId: string
        readonly method: VerificationMode
        readonly outcome: HttpOutcome | null
        readonly at: SimInstant
      }
    }
  | {
      readonly type: "WebhookVerificationFailed"
      readonly data: { readonly webhookId: string; readonly reason: string; readonly outcome: HttpOutcome; readonly at: SimInstant }
    }
  | { readonly type: "WebhookDeleted"; readonly data: { readonly webhookId: string; readonly at: SimInstant } }

export type DeliveryResult = "delivered" | "retrying" | "given-up"

export type WebhookDeliveryEvent =
  | {
      readonly type: "WebhookDeliveryAttempted"
      readonly data: HttpOutcome & {
        readonly webhookId: string
        readonly deliveryId: string
        /** Id of the NotificationRaised event delivered. */
        readonly notificationId: string
        /** 1-based over the delivery's whole life (redeliveries continue the count). */
        readonly attempt: number
        readonly result: DeliveryResult
        /** Simulated time of the next attempt; null when delivered or given up. */
        readonly nextAttemptAt: number | null
        /** Simulated time the attempt started. */
        readonly at: SimInstant
      }
    }
  | {
      readonly type: "WebhookRedeliveryRequested"
      readonly data: { readonly webhookId: string; readonly deliveryId: string; readonly notificationId: string; readonly at: SimInstant }
    }
