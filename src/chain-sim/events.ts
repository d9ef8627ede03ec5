// Events of one simulated chain (stream `chain-<blockchain>.<network>`): configuration, mempool, blocks.
import { everyMember } from "../domain/shared/members.js"
import type { SimInstant } from "../domain/shared/sim-time.js"
import type { TronExecution, TronOperation } from "./tron.js"

export type MiningMode = "auto" | "interval" | "manual"

export interface ChainTransfer {
  readonly transactionId: string
  /** 24-hex id of the transaction record (the listing cursor of endpoint #13). */
  readonly recordId: string
  readonly kind: "deposit" | "withdrawal"
  readonly assetId: string
  readonly from: string
  readonly to: string
  /** Base units, integer string. */
  readonly amount: string
  /** Fee in base units of the native coin, integer string. */
  readonly fee: string
  /** The address paying the fee when it is not `from` (gas sponsorship); absent otherwise. */
  readonly feePayer?: string
  /**
   * An EIP-7702 batch's calls, all in this one transaction (all or nothing); `to`, `assetId` and `amount` then
   * repeat the first call. Absent for a plain transfer.
   */
  readonly calls?: ReadonlyArray<{ readonly to: string; readonly assetId: string; readonly amount: string }>
  /** Tron: what the transaction does besides moving value (staking, TRC-20 approve/transferFrom); absent otherwise. */
  readonly operation?: TronOperation
  /** Output index paying `to` on UTXO chains; null elsewhere. */
  readonly vout: number | null
  /** Set by an armed execution fault: the transaction is mined but fails (fee spent, nothing sent). */
  readonly failsInExecution?: boolean
}

export type FaultKind = "broadcast-failure" | "execution-failure"

export type ChainEvent =
  | {
      readonly type: "ChainConfigured"
      readonly data: {
        readonly chain: string
        readonly mode: MiningMode
        readonly intervalSeconds: number
        readonly confirmations: number
        /** Height and time the interval schedule counts from. */
        readonly anchorHeight: number
        readonly anchorAt: SimInstant
        readonly at: SimInstant
      }
    }
  | { readonly type: "ChainTxSubmitted"; readonly data: ChainTransfer & { readonly chain: string; readonly at: SimInstant } }
  | {
      readonly type: "ChainBlocksMined"
      readonly data: {
        readonly chain: string
        readonly fromHeight: number
        readonly toHeight: number
        /** Hash of block `fromHeight`, the one holding `transactionIds`. */
        readonly blockHash: string
        readonly transactionIds: ReadonlyArray<string>
        /** Time of block `toHeight`. */
        readonly blockAt: SimInstant
        readonly at: SimInstant
      }
    }
  | {
      readonly type: "ChainFaultArmed"
      readonly data: { readonly chain: string; readonly kind: FaultKind; readonly count: number; readonly at: SimInstant }
    }
  | {
      readonly type: "ChainTxRejected"
      /**
       * `fault`: the armed fault it consumed (absent in older logs: a broadcast failure). `byContract`: refused by
       * the node's contract validation (tron staking), no fault consumed.
       */
      readonly data: {
        readonly chain: string
        readonly transactionId: string
        readonly reason: string
        readonly fault?: FaultKind
        readonly byContract?: true
        readonly at: SimInstant
      }
    }

  /**
   * Tron: a mined transaction executed, recorded when it had an operation or used staked resources (a plain
   * transfer from an address with no stake changes nothing on the chain and records nothing).
   */
  | { readonly type: "ChainTxExecuted"; readonly data: TronExecution & { readonly chain: string; readonly at: SimInstant } }

/** Every ChainEvent type; one left out of the record fails to compile. */
export const chainEventTypes: ReadonlySet<string> = new Set(
  everyMember<ChainEvent["type"]>({
    ChainConfigured: true,
    ChainTxSubmitted: true,
    ChainBlocksMined: true,
    ChainFaultArmed: true,
    ChainTxRejected: true,
    ChainTxExecuted: true,
  }),
)
