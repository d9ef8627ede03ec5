// What each ledger event does to balances: the one definition the vault fold, the balance projection and the
// audit all read, so they cannot disagree.
import type { LedgerEvent } from "./events.js"

export interface BalanceEffect {
  readonly blockchain: string
  readonly network: string
  readonly address: string
  readonly assetId: string
  /** Change of the confirmed total (credits positive, debits and fees negative). */
  readonly total: bigint
  /** Change of what is reserved for open transaction requests. */
  readonly blocked: bigint
  readonly kind: "credit" | "debit" | "fee" | "reserve" | "release"
}

export const balanceEffects = (e: LedgerEvent): ReadonlyArray<BalanceEffect> => {
  switch (e.type) {
    case "DepositCredited": {
      const d = e.data
      return [{ blockchain: d.blockchain, network: d.network, address: d.address, assetId: d.assetId, total: BigInt(d.amount), blocked: 0n, kind: "credit" }]
    }
    case "NotificationRaised":
      return []
  }
}
