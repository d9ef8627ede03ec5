// Ledger projection: balance changes per (address, asset) into the holdings model, from the ledger's effects.
import { findAsset, findNetwork } from "../domain/chains/index.js"
import { balanceEffects, ledgerEventTypes, type LedgerEvent } from "../domain/ledger/index.js"
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
  const free = total - blocked
  const allocated = free < reserve ? (free > 0n ? free : 0n) : reserve
  return { total, blocked, allocated, available: free - allocated }
}

export const applyLedger = (holdings: HoldingsModel, event: RecordedEvent): void => {
  if (!ledgerEventTypes.has(event.type)) return
  for (const fx of balanceEffects(event as unknown as LedgerEvent)) {
    const before = holdings.balance(fx.blockchain, fx.network, fx.address, fx.assetId, undefined)
    holdings.setBalance(
      fx.blockchain,
      fx.network,
      fx.address,
      fx.assetId,
      event.position,
      balanceOf(before.total + fx.total, before.blocked + fx.blocked, reserveOf(fx.blockchain, fx.network, fx.assetId)),
    )
  }
}
