// Ledger commands (issued by the chain simulator's process managers).
import type { SimInstant } from "../shared/sim-time.js"
import type { DepositFacts } from "./events.js"

export type LedgerCommand = {
  readonly type: "CreditDeposits"
  /** Deposits that reached their confirmations; those already credited or of an asset not held are skipped. */
  readonly deposits: ReadonlyArray<
    DepositFacts & { readonly assetType: "COIN" | "TOKEN"; readonly unit: string; readonly decimalsAmount: string }
  >
  readonly now: SimInstant
}
