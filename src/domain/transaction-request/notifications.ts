// Notification facts raised with transaction request events (webhook kinds; README "Webhooks").
import type { LedgerEvent, NotificationKind } from "../ledger/events.js"
import { absurd } from "../shared/decider.js"
import type { TxRequestEvent } from "./events.js"
import type { TxRequestState } from "./state.js"

export const notificationsFor = (
  events: ReadonlyArray<TxRequestEvent>,
  requests: ReadonlyMap<string, TxRequestState>,
): Array<LedgerEvent> => {
  const out: Array<LedgerEvent> = []
  // A request created in this same batch is not in the state yet.
  const created = new Map(events.flatMap((e) => (e.type === "TxRequestCreated" ? [[e.data.requestId, e.data] as const] : [])))
  const raise = (e: TxRequestEvent, kind: NotificationKind, extra: Record<string, string | number | null>) => {
    const draft = e.type === "TxRequestCreated" ? e.data : (created.get(e.data.requestId) ?? requests.get(e.data.requestId)?.draft)
    if (draft === undefined) return
    out.push({
      type: "NotificationRaised",
      data: {
        vaultId: e.data.vaultId,
        kind,
        subject: e.data.requestId,
        payload: {
          transactionRequestId: e.data.requestId,
          blockchain: draft.blockchain,
          network: draft.network,
          address: draft.sender,
          assetId: draft.assetId,
          recipients: draft.recipients.map((r) => r.address).join(","),
          ...(draft.feePayer !== undefined ? { feePayer: draft.feePayer } : {}),
          ...extra,
        },
        at: e.data.at,
      },
    })
  }
  for (const e of events) {
    switch (e.type) {
      case "TxRequestCreated":
        raise(e, "TRANSACTION_REQUEST", { transactionId: null })
        break
      case "TxRequestProgressed":
        if (e.data.status === "pending") raise(e, "TRANSACTION_APPROVED", {})
        break
      case "TxRequestRejected":
        raise(e, "TRANSACTION_REJECTED", { reason: e.data.reason })
        break
      case "TxRequestFailed":
        raise(e, "OUTGOING_FAILED", { reason: e.data.reason })
        break
      case "TxRequestMined":
        raise(e, e.data.withErrors ? "OUTGOING_FAILED" : "OUTGOING_MINED", {
          transactionId: e.data.transactionId,
          minedInBlockHeight: e.data.blockHeight,
          minedInBlockHash: e.data.blockHash,
          fee: e.data.fee,
          ...(e.data.withErrors ? { reason: "mined with errors (execution failed)" } : {}),
        })
        break
      // Every event type is named, so a new one must say whether it raises a notification.
      case "TxRequestApproved":
      case "TxRequestSucceeded":
        break
      default:
        absurd(e)
    }
  }
  return out
}
