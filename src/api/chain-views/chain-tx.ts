// One transaction of a simulated chain as the façades read it, and what it moves: its legs (a plain transfer is
// one, a batch one per call), its sender, and the ERC-20 Transfer logs of its token legs once mined.
import type { ChainTransfer } from "../../chain-sim/index.js"
import { findAsset } from "../../domain/chains/index.js"

export interface EvmLog {
  readonly address: string
  readonly topics: ReadonlyArray<string>
  readonly data: string
  readonly blockNumber: string | null
  readonly blockHash: string | null
  readonly transactionHash: string
  readonly transactionIndex: string | null
  readonly logIndex: string | null
  readonly removed: false
}

export interface ChainTx {
  readonly row: number
  readonly transfer: ChainTransfer
  /** Undefined while in the mempool. */
  readonly height: number | undefined
  readonly blockHash: string | undefined
  /** Simulated time of its block, ms (undefined while in the mempool). */
  readonly blockAt: number | undefined
  /** Its place in its block (undefined while in the mempool). */
  readonly index: number | undefined
  /** The fee it paid, native base units: a withdrawal's as recorded mined (what the custody API reports), else the transfer's. */
  readonly fee: bigint
  /** Simulated time of submission, ms. */
  readonly submittedAt: number
  /** How many transactions its sender sent before it. */
  readonly nonce: number
  /** Its Transfer logs, with their places in the block (none while in the mempool, nor on a chain other than EVM). */
  readonly logs: ReadonlyArray<EvmLog>
}

export interface Leg {
  readonly from: string
  readonly to: string
  readonly amount: bigint
  readonly assetId: string
  /** The token's contract, lower-case; undefined for the native coin. */
  readonly contract: string | undefined
}

const lower = (s: string) => s.toLowerCase()

/** The legs a transaction moves: none when it failed in execution (its fee is still spent). */
export const legsOf = (t: ChainTransfer): ReadonlyArray<Leg> => {
  if (t.failsInExecution === true) return []
  const calls = t.calls ?? [{ to: t.to, assetId: t.assetId, amount: t.amount }]
  return calls.map((c) => {
    const asset = findAsset(c.assetId)
    return {
      from: t.from,
      to: c.to,
      amount: BigInt(c.amount),
      assetId: c.assetId,
      contract: asset?.type === "TOKEN" ? lower(asset.contract) : undefined,
    }
  })
}

/** A batch (an EIP-7702 call list, or a gas-sponsored transfer) is sent by its fee payer to the sender's own address. */
export const isBatch = (tx: ChainTx): boolean => tx.transfer.calls !== undefined || tx.transfer.feePayer !== undefined

/** The account that signs and pays for the transaction, as given (EVM readers lower-case it). */
export const payerOf = (t: ChainTransfer): string => t.feePayer ?? t.from
