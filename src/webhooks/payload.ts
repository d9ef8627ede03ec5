// What a subscriber receives: the delivery body and the verification challenge body (src/webhooks/http.ts signs them).
import { OLDEST_API_VERSION as DEFAULT_API_VERSION } from "../domain/api-key/versions.js"
import type { NotificationKind } from "../domain/ledger/events.js"
import type { DeliveryView, Notification } from "../projections/outbox.js"

/** Item fields every delivery carries, in this order (null when the notification does not tell). */
const COMMON = ["blockchain", "network", "address", "amount", "unit", "transactionId"] as const
const BLOCK = ["minedInBlockHeight", "minedInBlockHash", "currentConfirmations", "targetConfirmations"] as const
/** Kinds about the vault's own transaction requests: they also carry transactionRequestId (the spec's correlation). */
const REQUEST_KINDS: ReadonlySet<NotificationKind> = new Set(["TRANSACTION_REQUEST", "TRANSACTION_APPROVED", "TRANSACTION_REJECTED", "OUTGOING_MINED", "OUTGOING_FAILED"])

export const deliveryItem = (n: Notification): Record<string, string | number | null> => {
  const p = n.payload
  const item: Record<string, string | number | null> = {}
  for (const k of COMMON) item[k] = p[k] ?? null
  if (REQUEST_KINDS.has(n.kind)) item.transactionRequestId = p.transactionRequestId ?? null
  for (const k of BLOCK) item[k] = p[k] ?? null
  for (const [k, v] of Object.entries(p)) if (!Object.hasOwn(item, k)) item[k] = v
  if (!Object.hasOwn(item, "timestamp")) item.timestamp = Math.floor(n.at / 1000)
  return item
}

/** The parts of a delivery body that depend only on the notification, the same for every subscription. */
export interface NotificationParts {
  readonly head: string
  readonly tail: string
}

export const notificationParts = (n: Notification): NotificationParts => ({
  head: `{"walletId":${JSON.stringify(n.vaultId)},"webhookId":`,
  tail: `,"apiVersion":${JSON.stringify(DEFAULT_API_VERSION)},"data":{"product":"WALLET_AS_A_SERVICE","event":${JSON.stringify(n.kind)},"item":${JSON.stringify(deliveryItem(n))}}}`,
})

/**
 * The body bytes are signed as sent: this string is both what X-Signature covers and what goes on the wire.
 * Written out rather than stringified whole so that a notification's parts, the same for every subscription,
 * are serialised once (`parts`); the result equals JSON.stringify of the envelope (a test holds it to that).
 */
export const deliveryBody = (d: DeliveryView, parts: NotificationParts = notificationParts(d.notification)): string =>
  `${parts.head}${JSON.stringify(d.webhookId)},"idempotencyKey":${JSON.stringify(d.idempotencyKey)}${parts.tail}`

export const verificationBody = (webhookId: string, challenge: string): string =>
  JSON.stringify({ type: "verification", webhookId, challenge, apiVersion: DEFAULT_API_VERSION })
