// What an EVM chain's transactions move: each transaction's legs (a plain transfer is one, a batch one per call),
// its sender and gas, and the balances, nonces and ERC-20 Transfer logs that follow, as of any block.
import { batchGas } from "../../domain/chains/fees.js"
import { findAsset, type NetworkInfo } from "../../domain/chains/index.js"
import type { ChainIndex, ChainTx } from "./chain-index.js"

export interface Leg {
  readonly from: string
  readonly to: string
  readonly amount: bigint
  /** The token's contract, lower-case; undefined for the native coin. */
  readonly contract: string | undefined
}

const lower = (s: string) => s.toLowerCase()

/** The legs a transaction moves: none when it failed in execution (its fee is still spent). */
export const legsOf = (tx: ChainTx): ReadonlyArray<Leg> => {
  const t = tx.transfer
  if (t.failsInExecution === true) return []
  const calls = t.calls ?? [{ to: t.to, assetId: t.assetId, amount: t.amount }]
  return calls.map((c) => {
    const asset = findAsset(c.assetId)
    return {
      from: lower(t.from),
      to: lower(c.to),
      amount: BigInt(c.amount),
      contract: asset?.type === "TOKEN" ? lower(asset.contract) : undefined,
    }
  })
}

/** A batch (an EIP-7702 call list, or a gas-sponsored transfer) is sent by its fee payer to the sender's own address. */
export const isBatch = (tx: ChainTx): boolean => tx.transfer.calls !== undefined || tx.transfer.feePayer !== undefined

/** The account that signs and pays for the transaction. */
export const senderOf = (tx: ChainTx): string => lower(tx.transfer.feePayer ?? tx.transfer.from)

const kindOf = (assetId: string): "coin" | "token" => (findAsset(assetId)?.type === "TOKEN" ? "token" : "coin")

/** Gas used: the fee model's limit for the transfer's kind, a batch's gas for a batch (README "Fees"). */
export const gasOf = (n: NetworkInfo, tx: ChainTx): bigint => {
  const t = tx.transfer
  if (n.fees._tag !== "EvmGas") return 0n
  if (isBatch(tx))
    return (
      batchGas(
        n,
        (t.calls ?? [t]).map((c) => kindOf(c.assetId)),
      ) ?? 0n
    )
  return kindOf(t.assetId) === "token" ? n.fees.gasLimit.token : n.fees.gasLimit.coin
}

/** The price per gas that makes gas used × price the fee the transaction paid (the custody API's fee). */
export const gasPriceOf = (n: NetworkInfo, tx: ChainTx): bigint => {
  const gas = gasOf(n, tx)
  return gas === 0n ? 0n : tx.fee / gas
}

const minedBy = (tx: ChainTx, height: number) => tx.height !== undefined && tx.height <= height

/**
 * An account's balance of the coin (contract undefined) or a token at `height`: what mined legs brought and took,
 * less the fees it paid. An address outside the workspace is funded from outside the simulation: it shows no less than 0.
 */
export const balanceAt = (ix: ChainIndex, address: string, contract: string | undefined, height: number): bigint => {
  const a = lower(address)
  let sum = 0n
  for (const tx of ix.txs) {
    if (!minedBy(tx, height)) continue
    if (contract === undefined && senderOf(tx) === a) sum -= tx.fee
    for (const leg of legsOf(tx)) {
      if (leg.contract !== contract) continue
      if (leg.to === a) sum += leg.amount
      if (leg.from === a) sum -= leg.amount
    }
  }
  return sum < 0n ? 0n : sum
}

/** A token's supply as the chain shows it: what entered the simulation by deposits, mined by `height`. */
export const supplyAt = (ix: ChainIndex, contract: string, height: number): bigint => {
  let sum = 0n
  for (const tx of ix.txs)
    if (tx.transfer.kind === "deposit" && minedBy(tx, height))
      for (const leg of legsOf(tx)) if (leg.contract === contract) sum += leg.amount
  return sum
}

/** Transactions sent by an account, mined by `height` (with `pending`, those in the mempool too). */
export const nonceAt = (ix: ChainIndex, address: string, height: number, pending: boolean): number => {
  const a = lower(address)
  let n = 0
  for (const tx of ix.txs) if (senderOf(tx) === a && (minedBy(tx, height) || (pending && tx.height === undefined))) n++
  return n
}

/** A transaction's nonce: how many its sender sent before it. */
export const nonceOf = (ix: ChainIndex, tx: ChainTx): number => {
  const a = senderOf(tx)
  let n = 0
  for (const other of ix.txs) {
    if (other === tx) return n
    if (senderOf(other) === a) n++
  }
  return n
}
