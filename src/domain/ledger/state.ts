// Ledger state of a vault: balances per (address, asset), credited deposits, unspent outputs (UTXO chains).
import { addressKey } from "../vault-account/state.js"
import { reserveOf } from "./reserve.js"

export interface Holding {
  total: bigint
  blocked: bigint
  /** Tron: frozen TRX (and TRX unfrozen but not yet withdrawn): counted in total, never spendable. */
  staked: bigint
}

export interface Utxo {
  readonly transactionId: string
  readonly vout: number
  readonly address: string
  readonly blockchain: string
  readonly network: string
  readonly amount: bigint
}

/** Mutable for the same reason as VaultAccounts: folds over large vaults stay linear. */
export class Ledger {
  readonly holdings = new Map<string, Holding>()
  readonly credited = new Set<string>()
  readonly utxos = new Map<string, Utxo>()
  /** Outputs spent by open transaction requests (`txid:vout`). */
  readonly reservedOutputs = new Set<string>()
  /** Outputs spent by mined requests (`txid:vout`): a later request naming one is told it is spent. */
  readonly spentOutputs = new Set<string>()

  holding(blockchain: string, network: string, address: string, assetId: string): Holding {
    const key = `${addressKey(blockchain, network, address)}|${assetId}`
    let h = this.holdings.get(key)
    if (h === undefined) this.holdings.set(key, (h = { total: 0n, blocked: 0n, staked: 0n }))
    return h
  }
}

export const depositKey = (transactionId: string, vout: number | null) => (vout === null ? transactionId : `${transactionId}:${vout}`)

export type LedgerError = { readonly _tag: "NothingToCredit" }

/** What an address can still send of an asset: total less reservations and the chain's reserve. */
export const availableOf = (l: Ledger, blockchain: string, network: string, address: string, assetId: string): bigint => {
  const h = l.holdings.get(`${addressKey(blockchain, network, address)}|${assetId}`)
  if (h === undefined) return 0n
  const free = h.total - h.blocked - h.staked - reserveOf(blockchain, network, assetId)
  return free > 0n ? free : 0n
}
