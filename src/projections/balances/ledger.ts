// Ledger projection: balance changes per (address, asset) into the holdings model, from the ledger's effects.
import { visitBalanceEffects, type LedgerEvent } from "../../domain/ledger/index.js"
import type { TxRequestEvent } from "../../domain/transaction-request/index.js"
import type { StoredOf } from "../../events/stored-event.js"
import type { HoldingsModel } from "./holdings.js"

/** The event types that change balances (balanceEffects answers [] for the others). */
export const ledgerFoldTypes = [
  "DepositCredited",
  "TxRequestCreated",
  "TxRequestRejected",
  "TxRequestFailed",
  "TxRequestMined",
] as const satisfies ReadonlyArray<(LedgerEvent | TxRequestEvent)["type"]>

// The event being applied, for the one visitor below: a closure per event would be an object per event. Set only for
// the length of one applyLedger call (folds run one at a time on one thread), then let go.
let target: HoldingsModel | undefined
let at = 0n

const visit: Parameters<typeof visitBalanceEffects>[1] = (blockchain, network, address, assetId, total, blocked, staked) =>
  target!.adjustBalance(blockchain, network, address, assetId, at, total, blocked, staked)

export const applyLedger = (holdings: HoldingsModel, event: StoredOf<(typeof ledgerFoldTypes)[number]>): void => {
  // The effects' fields straight into the histories: no effect object, nor list of them, per event.
  target = holdings
  at = event.position
  try {
    visitBalanceEffects(event, visit)
  } finally {
    target = undefined
  }
}
