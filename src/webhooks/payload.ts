// What a subscriber receives: the delivery body and the verification challenge body (src/webhooks/http.ts signs them).
import { DEFAULT_API_VERSION } from "../commands/workspace.js"
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

/**
 * The body bytes are signed as sent: this string is both what X-Signature covers and what goes on the wire.
 * Written out rather than stringified whole so that a notification's item, the same for every subscription,
 * is serialised once (`item`); the result equals JSON.stringify of the envelope (a test holds it to that).
 */
export const deliveryBody = (d: DeliveryView, item: string = JSON.stringify(deliveryItem(d.notification))): string =>
  `{"walletId":${JSON.stringify(d.notification.vaultId)},"webhookId":${JSON.stringify(d.webhookId)},"idempotencyKey":${JSON.stringify(d.idempotencyKey)},` +
  `"apiVersion":${JSON.stringify(DEFAULT_API_VERSION)},"data":{"product":"WALLET_AS_A_SERVICE","event":${JSON.stringify(d.notification.kind)},"item":${item}}}`

export const verificationBody = (webhookId: string, challenge: string): string =>
  JSON.stringify({ type: "verification", webhookId, challenge, apiVersion: DEFAULT_API_VERSION })
