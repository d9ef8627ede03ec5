// Ledger projection: balance changes per (address, asset) into the holdings model, from the ledger's effects.
import { visitBalanceEffects, type LedgerEvent } from "../../domain/ledger/index.js"
import type { TxRequestEvent } from "../../domain/transaction-request/index.js"
import type { StoredOf } from "../../events/stored-event.js"
import type { HoldingsModel } from "./holdings.js"


/** The event types that change balances (balanceEffects answers [] for the others). */
export const ledgerFoldTypes = ["DepositCredited", "TxRequestCreated", "TxRequestRejected", "TxRequestFailed", "TxRequestMined"] as const satisfies ReadonlyArray<(LedgerEvent | TxRequestEvent)["type"]>

export const applyLedger = (holdings: HoldingsModel, event: StoredOf<(typeof ledgerFoldTypes)[number]>): void => {
  const position = event.position
  // The effects' fields straight into the histories: no effect object, nor list of them, per event.
  visitBalanceEffects(event, (blockchain, network, address, assetId, total, blocked, staked) =>
    holdings.adjustBalance(blockchain, network, address, assetId, position, total, blocked, staked),
  )
}
