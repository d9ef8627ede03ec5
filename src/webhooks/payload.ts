// What a subscriber receives: the delivery body and the verification challenge body (src/webhooks/http.ts signs them).
import { OLDEST_API_VERSION, type ApiVersion } from "../domain/api-key/versions.js"
import { findAsset, mapAssetIds } from "../domain/chains/index.js"
import { formatAmount } from "../domain/shared/money.js"
import type { NotificationKind } from "../domain/ledger/events.js"
import { membersMarked } from "../domain/shared/members.js"
import type { DeliveryView, Notification } from "../projections/outbox.js"
import type { RequestView, TxRequestsModel } from "../projections/transaction-requests.js"

/** Item fields every delivery carries, in this order (null when the notification does not tell). */
const COMMON = ["blockchain", "network", "address", "amount", "unit", "transactionId"] as const
const BLOCK = ["minedInBlockHeight", "minedInBlockHash", "currentConfirmations", "targetConfirmations"] as const
/**
 * Kinds about the vault's own transaction requests: they also carry the request's id, as `transactionRequestId`
 * (the spec's correlation, and the REST answers' name) and as `requestId` (the documentation's webhook items).
 * Every kind is marked, so a new kind must say whether it is about a request.
 */
const REQUEST_KINDS: ReadonlySet<NotificationKind> = membersMarked<NotificationKind>({
  INCOMING_CONFIRMED_COIN_TX: false,
  INCOMING_CONFIRMED_TOKEN_TX: false,
  INCOMING_MINED_TX: false,
  TRANSACTION_REQUEST: true,
  TRANSACTION_APPROVED: true,
  TRANSACTION_REJECTED: true,
  OUTGOING_MINED: true,
  OUTGOING_FAILED: true,
})
/** Kinds whose documented item tells the request's approval state (spec 2026 §5.4); every kind marked. */
const APPROVAL_KINDS: ReadonlySet<NotificationKind> = membersMarked<NotificationKind>({
  INCOMING_CONFIRMED_COIN_TX: false,
  INCOMING_CONFIRMED_TOKEN_TX: false,
  INCOMING_MINED_TX: false,
  TRANSACTION_REQUEST: false,
  TRANSACTION_APPROVED: true,
  TRANSACTION_REJECTED: true,
  OUTGOING_MINED: false,
  OUTGOING_FAILED: false,
})

/** 2026-03-20 names the unit of an amount `amountUnit`, as its REST answers do. */
const renamedAt = (version: ApiVersion): Readonly<Record<string, string>> => (version === "2026-03-20" ? { unit: "amountUnit" } : {})

/** A transaction request's recipients as its draft holds them (amounts in base units; a batch call's own asset). */
interface RequestRecipients {
  readonly assetId: string
  readonly recipients: ReadonlyArray<{ readonly address: string; readonly amount: string; readonly assetId?: string }>
}

/** Finds the request a notification is about (its `transactionRequestId`), for what its stored payload does not hold. */
export type RequestLookup = (requestId: string) => RequestView | undefined

/** The requests of the read models (as they stand when asked), as the worker and the control plane's delivery log read them. */
export const requestLookup =
  (models: { readonly txRequests: TxRequestsModel }): RequestLookup =>
  (id) =>
    models.txRequests.byId.get(id)

/**
 * A request's approval state as of the notification (the events before it in the log): approvals needed (its
 * policy's levels) and given, and rejections (one rejects a request). Every level is approved once the request
 * has moved past approval; the second level's wait means the first was given.
 */
const approvalsAt = (r: RequestView, position: bigint) => {
  let approvals = 0
  let rejections = 0
  for (const [at, status] of r.status.entries()) {
    if (at > position) break
    if (status === "Rejected") rejections = 1
    else if (status === "AwaitingApprovalL2") approvals = Math.max(approvals, 1)
    else if (status !== "Created" && status !== "AwaitingApproval") approvals = r.draft.approvalLevels
  }
  return { requiredApprovals: r.draft.approvalLevels, requiredRejections: 1, currentApprovals: approvals, currentRejections: rejections }
}

type RecipientItem = Readonly<Record<string, string>>
type ItemValue = string | number | null | ReadonlyArray<RecipientItem>

/**
 * `recipients` of a request's item. 2024-05-09: the addresses joined by commas, as ever. From 2025-09-23 on, whose
 * REST bodies and answers list recipients as objects: one object per recipient, `{ address, amount, unit, assetId }`
 * (amount a decimal string in its own asset, so a batch's calls each name theirs), the unit under the version's name.
 */
const recipientsAt = (r: RequestRecipients, unitName: string): ReadonlyArray<RecipientItem> | undefined => {
  const out: Array<RecipientItem> = []
  for (const x of r.recipients) {
    const asset = findAsset(x.assetId ?? r.assetId)
    if (asset === undefined) return undefined
    out.push({ address: x.address, amount: formatAmount(BigInt(x.amount), asset.decimals), [unitName]: asset.unit, assetId: asset.id })
  }
  return out
}

/**
 * The id a payload shows for a catalogue asset id: the fixture's own id where it gives one (`assets`), as the API's
 * answers do (src/domain/chains/asset-aliases.ts). Undefined: the catalogue's ids, unmapped.
 */
export type AssetIdToWire = (id: string) => string

export const deliveryItem = (
  n: Notification,
  version: ApiVersion = OLDEST_API_VERSION,
  requestOf?: RequestLookup,
  toWire?: AssetIdToWire,
): Record<string, ItemValue> => {
  const p = n.payload
  const item: Record<string, ItemValue> = {}
  for (const k of COMMON) item[k] = p[k] ?? null
  const about = REQUEST_KINDS.has(n.kind)
  const request = about && typeof p.transactionRequestId === "string" ? requestOf?.(p.transactionRequestId) : undefined
  if (about) {
    // One transaction id per request, drawn when it is created: the one its REST answers show from the start.
    if (item.transactionId === null && request !== undefined) item.transactionId = request.draft.transactionId
    item.transactionRequestId = p.transactionRequestId ?? null
    item.requestId = p.transactionRequestId ?? null
    if (APPROVAL_KINDS.has(n.kind) && request !== undefined) Object.assign(item, approvalsAt(request, n.position))
  }
  for (const k of BLOCK) item[k] = p[k] ?? null
  for (const [k, v] of Object.entries(p)) if (!Object.hasOwn(item, k)) item[k] = v
  if (!Object.hasOwn(item, "timestamp")) item.timestamp = Math.floor(n.at / 1000)
  const renamed = renamedAt(version)
  if (version !== OLDEST_API_VERSION && typeof p.recipients === "string" && request !== undefined) {
    const list = recipientsAt(request.draft, renamed.unit ?? "unit")
    if (list !== undefined) item.recipients = list
  }
  const named = Object.keys(renamed).length === 0 ? item : Object.fromEntries(Object.entries(item).map(([k, v]) => [renamed[k] ?? k, v]))
  // The log keeps the catalogue's ids; the payload, like every answer, names the asset as the workspace does.
  return toWire === undefined ? named : (mapAssetIds(named, toWire) as Record<string, ItemValue>)
}

/** The parts of a delivery body that depend only on the notification, the same for every subscription. */
export interface NotificationParts {
  readonly head: string
  readonly tail: string
}

/**
 * `version`: the subscription's (payload `apiVersion` and the item's names follow it); `requestOf`: the requests
 * (their transaction id, recipients and approval state); `toWire`: the fixture's asset ids. The envelope holds the
 * documented fields only: walletId, webhookId, idempotencyKey, apiVersion, data.event and data.item.
 */
export const notificationParts = (
  n: Notification,
  version: ApiVersion = OLDEST_API_VERSION,
  requestOf?: RequestLookup,
  toWire?: AssetIdToWire,
): NotificationParts => ({
  head: `{"walletId":${JSON.stringify(n.vaultId)},"webhookId":`,
  tail: `,"apiVersion":${JSON.stringify(version)},"data":{"event":${JSON.stringify(n.kind)},"item":${JSON.stringify(deliveryItem(n, version, requestOf, toWire))}}}`,
})

/**
 * The body bytes are signed as sent: this string is both what X-Signature covers and what goes on the wire.
 * Written out rather than stringified whole so that a notification's parts, the same for every subscription,
 * are serialised once (`parts`); the result equals JSON.stringify of the envelope (a test holds it to that).
 */
export const deliveryBody = (d: DeliveryView, parts: NotificationParts = notificationParts(d.notification)): string =>
  `${parts.head}${JSON.stringify(d.webhookId)},"idempotencyKey":${JSON.stringify(d.idempotencyKey)}${parts.tail}`

export const verificationBody = (webhookId: string, challenge: string, version: ApiVersion = OLDEST_API_VERSION): string =>
  JSON.stringify({ type: "verification", webhookId, challenge, apiVersion: version })
