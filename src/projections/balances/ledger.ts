// Ledger projection: balance changes per (address, asset) into the holdings model, from the ledger's effects.
import { balanceEffects, type LedgerEvent } from "../../domain/ledger/index.js"
import type { TxRequestEvent } from "../../domain/transaction-request/index.js"
import type { StoredOf } from "../../events/stored-event.js"
import type { HoldingsModel } from "./holdings.js"


/** The event types that change balances (balanceEffects answers [] for the others). */
export const ledgerFoldTypes = ["DepositCredited", "TxRequestCreated", "TxRequestRejected", "TxRequestFailed", "TxRequestMined"] as const satisfies ReadonlyArray<(LedgerEvent | TxRequestEvent)["type"]>

export const applyLedger = (holdings: HoldingsModel, event: StoredOf<(typeof ledgerFoldTypes)[number]>): void => {
  for (const fx of balanceEffects(event))
    holdings.adjustBalance(fx.blockchain, fx.network, fx.address, fx.assetId, event.position, fx.total, fx.blocked, fx.staked)
}
