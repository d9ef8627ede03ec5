// Ledger projection: balance changes per (address, asset) into the holdings model, with their causing event.
import { findAsset, findNetwork } from "../domain/chains/index.js"
import type { LedgerEvent } from "../domain/ledger/index.js"
import type { RecordedEvent } from "../store/event-store.js"
import type { Balance, HoldingsModel } from "./holdings.js"

/** XRP keeps a base reserve on every account: it is part of the total but can never be sent. */
export const reserveOf = (blockchain: string, network: string, assetId: string): bigint => {
  const n = findNetwork(blockchain, network)
  if (n === undefined || n.fees._tag !== "XrpDrops" || findAsset(assetId)?.type !== "COIN") return 0n
  return n.fees.baseReserve
}

/** total = available + blocked + allocated, with allocated the reserve the chain keeps (see README). */
export const balanceOf = (total: bigint, blocked: bigint, reserve: bigint): Balance => {
  const allocated = total - blocked < reserve ? (total - blocked > 0n ? total - blocked : 0n) : reserve
  return { total, blocked, allocated, available: total - blocked - allocated }
}

export const applyLedger = (holdings: HoldingsModel, event: RecordedEvent): void => {
  const e = event as unknown as LedgerEvent
  if (e.type !== "DepositCredited") return
  const d = e.data
  const before = holdings.balance(d.blockchain, d.network, d.address, d.assetId, undefined)
  holdings.setBalance(
    d.blockchain,
    d.network,
    d.address,
    d.assetId,
    event.position,
    balanceOf(before.total + BigInt(d.amount), before.blocked, reserveOf(d.blockchain, d.network, d.assetId)),
  )
}
