// Ledger projection: balance changes per (address, asset) into the holdings model, from the ledger's effects.
import { balanceEffects, ledgerEventTypes, reserveOf, type LedgerEvent } from "../domain/ledger/index.js"
import { txRequestEventTypes, type TxRequestEvent } from "../domain/transaction-request/index.js"
import type { RecordedEvent } from "../store/event-store.js"
import type { Balance, HoldingsModel } from "./holdings.js"


/** total = available + blocked + allocated, with allocated the reserve the chain keeps (see README). */
export const balanceOf = (total: bigint, blocked: bigint, reserve: bigint): Balance => {
  const free = total - blocked
  const allocated = free < reserve ? (free > 0n ? free : 0n) : reserve
  return { total, blocked, allocated, available: free - allocated }
}

export const applyLedger = (holdings: HoldingsModel, event: RecordedEvent): void => {
  if (!ledgerEventTypes.has(event.type) && !txRequestEventTypes.has(event.type)) return
  for (const fx of balanceEffects(event as unknown as LedgerEvent | TxRequestEvent))
    holdings.adjustBalance(fx.blockchain, fx.network, fx.address, fx.assetId, event.position, (before) =>
      balanceOf(before.total + fx.total, before.blocked + fx.blocked, reserveOf(fx.blockchain, fx.network, fx.assetId)),
    )
}
