// Transaction request states: the variants are the statuses (wire strings are mapped in src/api).
import type { TxRequestDraft } from "./events.js"

export type TxRequestStatus =
  | "Created"
  | "AwaitingApproval"
  | "AwaitingApprovalL2"
  | "Pending"
  | "Prepared"
  | "Signed"
  | "Broadcasted"
  | "Mined"
  | "MinedWithErrors"
  | "Success"
  | "Failed"
  | "Rejected"

export interface TxRequestState {
  readonly draft: TxRequestDraft
  status: TxRequestStatus
  transactionId: string | null
  /** Reservations still held (emptied when released or spent). */
  held: boolean
}

/** Legal moves of the status machine (README: "Transaction request statuses"). */
export const transitions: { readonly [S in TxRequestStatus]: ReadonlyArray<TxRequestStatus> } = {
  Created: ["AwaitingApproval", "Pending", "Rejected"],
  AwaitingApproval: ["AwaitingApprovalL2", "Pending", "Rejected"],
  AwaitingApprovalL2: ["Pending", "Rejected"],
  Pending: ["Prepared", "Failed"],
  Prepared: ["Signed", "Failed"],
  Signed: ["Broadcasted", "Failed"],
  Broadcasted: ["Mined", "MinedWithErrors", "Failed"],
  Mined: ["Success"],
  MinedWithErrors: [],
  Success: [],
  Failed: [],
  Rejected: [],
}

export type TxRequestError =
  | { readonly _tag: "TxRequestNotFound"; readonly requestId: string }
  | { readonly _tag: "IllegalTxTransition"; readonly from: TxRequestStatus; readonly command: string }
  | {
      readonly _tag: "InsufficientFunds"
      readonly assetId: string
      readonly address: string | null
      readonly needed: string
      readonly available: string
      /** Set when the balance short of funds is the fee payer's (it holds only the maximum fee). */
      readonly feePayer?: true
    }
  | { readonly _tag: "SenderNotInVault"; readonly address: string }
  | { readonly _tag: "AssetNotHeldBySender"; readonly address: string; readonly assetId: string }
  | { readonly _tag: "UtxoNotFound"; readonly utxoId: string }
  | { readonly _tag: "UtxoSpent"; readonly utxoId: string }
  | { readonly _tag: "UtxoReserved"; readonly utxoId: string }
  /** The fee (if mined now) exceeds the client's ceiling `maxFee`; native base units, and the coin when known. */
  | { readonly _tag: "MaxFeeExceeded"; readonly fee: string; readonly maxFee: string; readonly assetId?: string }
  | { readonly _tag: "GrossFeeExceedsAmount"; readonly recipient: number; readonly fee: string }
  | { readonly _tag: "FeePayerNotInVault"; readonly address: string }
  | { readonly _tag: "ChangeAddressNotInVault"; readonly address: string }
  | { readonly _tag: "ChangeAccountNotFound"; readonly vaultAccountId: string }
  | { readonly _tag: "FeeAssetNotHeldByFeePayer"; readonly address: string; readonly assetId: string }
