// Transaction request events (written to the owning vault's stream, next to the balances they reserve).
import type { AssetId, VaultId } from "../shared/ids.js"
import { everyMember } from "../shared/members.js"
import type { SimInstant } from "../shared/sim-time.js"
import type { TronOperation } from "../chains/tron-operation.js"

/** An amount of one asset at one address, base units as an integer string. */
export interface Portion {
  readonly address: string
  readonly assetId: AssetId
  readonly amount: string
}

export interface SpentOutput {
  readonly transactionId: string
  readonly vout: number
  readonly address: string
  readonly amount: string
}

export type RequestEndpoint =
  | "single-transfer"
  | "utxo"
  | "coin"
  | "token"
  | "feeless"
  | "feeless-token"
  | "utxo-transfer"
  | "multiple-transfer"
  | "gas-sponsorship"
  | "batch"
  | "manage-resource"
  | "contract-interaction"

export interface TxRequestDraft {
  readonly requestId: string
  /** The blockchain transaction id it gets when broadcast (derived from the request id). */
  readonly transactionId: string
  readonly vaultId: VaultId
  readonly vaultAccountId: string | null
  readonly endpoint: RequestEndpoint
  readonly blockchain: string
  readonly network: string
  readonly assetId: AssetId
  readonly feeAssetId: AssetId
  /** The sending address (account-based chains); null for UTXO requests from the whole vault. */
  readonly sender: string | null
  /**
   * Another address of the same vault and chain that pays the network fee (gas sponsorship, batches): the fee is
   * reserved at it and debited from it. Absent: the sender pays (older logs never carry it).
   */
  readonly feePayer?: string
  /** `assetId` only in batches, where each recipient gets its own asset (others send the request's `assetId`). */
  readonly recipients: ReadonlyArray<{ readonly address: string; readonly amount: string; readonly assetId?: AssetId }>
  readonly feePriority: "slow" | "standard" | "fast" | null
  /** Most the network fee may cost, native base units. */
  readonly maxFee: string
  /** The client's ceiling on the fee (`maxFee` of the 2025 and 2026 requests), native base units; absent when none. */
  readonly feeCeiling?: string
  readonly feeLimit: string | null
  readonly note: string | null
  readonly prepareStrategy: "minimize-dust" | "optimize-size" | null
  /** UTXO requests: the outputs they spend and the change they return. */
  readonly inputs: ReadonlyArray<SpentOutput>
  readonly change: { readonly address: string; readonly amount: string } | null
  /** Tron: the staking or TRC-20 contract operation it performs (manage-resource, contract-interaction); absent otherwise. */
  readonly operation?: TronOperation
  /** What the request holds back until it is mined, rejected or failed (shows as blockedAmount). */
  readonly reservations: ReadonlyArray<Portion>
  /** 0: approved by policy at once; 1 or 2: approvals needed. */
  readonly approvalLevels: 0 | 1 | 2
}

export type ProgressStatus = "pending" | "prepared" | "signed" | "broadcasted"

export type TxRequestEvent =
  | { readonly type: "TxRequestCreated"; readonly data: TxRequestDraft & { readonly at: SimInstant } }
  | {
      readonly type: "TxRequestApproved"
      readonly data: { readonly requestId: string; readonly vaultId: VaultId; readonly level: 1 | 2; readonly at: SimInstant }
    }
  | {
      readonly type: "TxRequestRejected"
      readonly data: {
        readonly requestId: string
        readonly vaultId: VaultId
        readonly blockchain: string
        readonly network: string
        readonly reason: string
        readonly releases: ReadonlyArray<Portion>
        readonly at: SimInstant
      }
    }
  | {
      readonly type: "TxRequestProgressed"
      readonly data: {
        readonly requestId: string
        readonly vaultId: VaultId
        readonly status: ProgressStatus
        readonly transactionId: string | null
        readonly at: SimInstant
      }
    }
  | {
      readonly type: "TxRequestFailed"
      readonly data: {
        readonly requestId: string
        readonly vaultId: VaultId
        readonly blockchain: string
        readonly network: string
        readonly reason: string
        readonly releases: ReadonlyArray<Portion>
        readonly at: SimInstant
      }
    }
  | {
      readonly type: "TxRequestMined"
      readonly data: {
        readonly requestId: string
        readonly vaultId: VaultId
        readonly transactionId: string
        readonly blockchain: string
        readonly network: string
        readonly blockHeight: number
        readonly blockHash: string
        /** The network fee actually paid, native base units. */
        readonly fee: string
        /** Mined but failed in execution (e.g. out of energy): the fee is spent, the amount is not sent. */
        readonly withErrors: boolean
        /** Tron: bandwidth units taken from the sender's free daily allowance (the rest was burned as TRX). */
        readonly freeBandwidth?: number
        readonly releases: ReadonlyArray<Portion>
        readonly debits: ReadonlyArray<Portion>
        /** Change returned to the vault (UTXO), spendable as new outputs. */
        readonly credits: ReadonlyArray<Portion & { readonly vout: number }>
        /** Tron: TRX frozen (staked) and TRX withdrawn from the stake: the address keeps them, not spendable while staked. */
        readonly stakes?: ReadonlyArray<Portion>
        readonly unstakes?: ReadonlyArray<Portion>
        readonly at: SimInstant
      }
    }
  | {
      readonly type: "TxRequestSucceeded"
      readonly data: { readonly requestId: string; readonly vaultId: VaultId; readonly confirmations: number; readonly at: SimInstant }
    }

/** Every TxRequestEvent type; one left out of the record fails to compile. */
export const txRequestEventTypes: ReadonlySet<string> = new Set(
  everyMember<TxRequestEvent["type"]>({
    TxRequestCreated: true,
    TxRequestApproved: true,
    TxRequestRejected: true,
    TxRequestProgressed: true,
    TxRequestFailed: true,
    TxRequestMined: true,
    TxRequestSucceeded: true,
  }),
)
