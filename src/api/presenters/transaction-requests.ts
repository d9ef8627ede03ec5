// A transaction request as the read endpoints, the control plane and the dashboard show it.
import { findAsset } from "../../domain/chains/index.js"
import { formatAmount } from "../../domain/shared/money.js"
import type { TxRequestStatus } from "../../domain/transaction-request/index.js"
import type { Reads } from "../reads.js"

/** The spec's twelve statuses, one wire string per state. */
export const wireStatus: { readonly [S in TxRequestStatus]: string } = {
  Created: "created",
  AwaitingApproval: "await-approval",
  AwaitingApprovalL2: "await-approval-l2",
  Pending: "pending",
  Prepared: "prepared",
  Signed: "signed",
  Broadcasted: "broadcasted",
  Mined: "mined",
  MinedWithErrors: "mined-with-errors",
  Success: "success",
  Failed: "failed",
  Rejected: "rejected",
}

export const requestJson = (r: NonNullable<ReturnType<Reads["txRequest"]>>, asOf: bigint | undefined) => {
  const asset = findAsset(r.draft.assetId)!
  // A batch's recipients each name their asset; its total is what it sends of its own asset, the chain's coin.
  const of = (x: { readonly assetId?: string }) => (x.assetId === undefined ? asset : findAsset(x.assetId)!)
  const total = r.draft.recipients.reduce((a, x) => a + (of(x).id === asset.id ? BigInt(x.amount) : 0n), 0n)
  return {
    transactionRequestId: r.draft.requestId,
    vaultId: r.draft.vaultId,
    blockchain: r.draft.blockchain,
    network: r.draft.network,
    feePriority: r.draft.feePriority ?? "standard",
    transactionType: r.draft.endpoint === "batch" ? "batch" : asset.type === "TOKEN" ? "token" : "coin",
    unit: asset.unit,
    totalTransactionAmount: formatAmount(total, asset.decimals),
    transactionId: r.draft.transactionId,
    additionalDetails: r.draft.note ?? "",
    transactionRequestStatus: wireStatus[r.status.at(asOf) ?? "Created"],
    recipients: r.draft.recipients.map((x) => ({
      address: x.address,
      amount: formatAmount(BigInt(x.amount), of(x).decimals),
      unit: of(x).unit,
    })),
  }
}
