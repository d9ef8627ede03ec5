// Transaction request commands. Ids, transaction ids, fees and coin selection come in on the command.
import type { StakedUnits } from "../chains/fees.js"
import type { SimInstant } from "../shared/sim-time.js"
import type { VaultAccountEvent } from "../vault-account/events.js"
import type { Portion, TxRequestDraft } from "./events.js"
import type { UtxoTransferRequest } from "./explicit-inputs.js"
import type { MultipleTransferRequest } from "./coin-selection.js"

export type TxRequestCommand =
  | {
      readonly type: "CreateTxRequest"
      readonly draft: Omit<TxRequestDraft, "approvalLevels">
      /** UTXO requests with change: the change address's derivation, recorded with the request. */
      readonly changeAddress?: Extract<VaultAccountEvent, { type: "AddressDerived" }>
      /** Tron: free bandwidth the sender used in the last day (what mining now would find), for the fee ceiling. */
      readonly freeBandwidthUsed?: number
      /** Tron: the staked units the fee's payer has free now (what mining now would take from), for the fee ceiling. */
      readonly staked?: StakedUnits
      readonly now: SimInstant
    }
  | {
      readonly type: "CreateUtxoTransfer"
      readonly request: UtxoTransferRequest
      readonly requestId: string
      readonly transactionId: string
      /** A new address of the change account, when it has none on the chain (used only then). */
      readonly changeAddress?: Extract<VaultAccountEvent, { type: "AddressDerived" }>
      readonly now: SimInstant
    }
  | {
      readonly type: "CreateMultipleTransfer"
      readonly request: MultipleTransferRequest
      readonly requestId: string
      readonly transactionId: string
      /** A new change address of the account, registered with the request when it has change. */
      readonly changeAddress: Extract<VaultAccountEvent, { type: "AddressDerived" }>
      readonly now: SimInstant
    }
  | { readonly type: "ApproveTxRequest"; readonly requestId: string; readonly now: SimInstant }
  | { readonly type: "RejectTxRequest"; readonly requestId: string; readonly reason: string; readonly now: SimInstant }
  | { readonly type: "FailTxRequest"; readonly requestId: string; readonly reason: string; readonly now: SimInstant }
  | {
      readonly type: "RecordTxMined"
      readonly requestId: string
      readonly blockHeight: number
      readonly blockHash: string
      readonly fee: string
      readonly withErrors: boolean
      readonly freeBandwidth?: number
      readonly debits: ReadonlyArray<Portion>
      readonly credits: ReadonlyArray<Portion & { readonly vout: number }>
      readonly stakes?: ReadonlyArray<Portion>
      readonly unstakes?: ReadonlyArray<Portion>
      readonly now: SimInstant
    }
  | { readonly type: "RecordTxSucceeded"; readonly requestId: string; readonly confirmations: number; readonly now: SimInstant }
