// What each ledger or transaction request event does to balances: the one definition the vault fold, the
// balance projection and the audit all read, so they cannot disagree.
import type { TxRequestEvent } from "../transaction-request/events.js"
import type { LedgerEvent } from "./events.js"

export interface BalanceEffect {
  readonly blockchain: string
  readonly network: string
  readonly address: string
  readonly assetId: string
  /** Change of the confirmed total (credits positive, debits negative). */
  readonly total: bigint
  /** Change of what is reserved for open transaction requests. */
  readonly blocked: bigint
  /** Change of what is staked (tron: frozen TRX, kept by the address but not spendable). */
  readonly staked: bigint
  readonly kind: "credit" | "debit" | "reserve" | "release" | "stake" | "unstake"
}

type Portion = { readonly address: string; readonly assetId: string; readonly amount: string }

const each = (chain: { blockchain: string; network: string }, ps: ReadonlyArray<Portion>, kind: BalanceEffect["kind"]): Array<BalanceEffect> =>
  ps.map((p) => {
    const n = BigInt(p.amount)
    return {
      blockchain: chain.blockchain,
      network: chain.network,
      address: p.address,
      assetId: p.assetId,
      total: kind === "credit" ? n : kind === "debit" ? -n : 0n,
      blocked: kind === "reserve" ? n : kind === "release" ? -n : 0n,
      staked: kind === "stake" ? n : kind === "unstake" ? -n : 0n,
      kind,
    }
  })

export const balanceEffects = (e: LedgerEvent | TxRequestEvent): ReadonlyArray<BalanceEffect> => {
  switch (e.type) {
    case "DepositCredited":
      return each(e.data, [e.data], "credit")
    case "TxRequestCreated":
      return each(e.data, e.data.reservations, "reserve")
    case "TxRequestRejected":
    case "TxRequestFailed":
      return each(e.data, e.data.releases, "release")
    case "TxRequestMined":
      return [
        ...each(e.data, e.data.releases, "release"),
        ...each(e.data, e.data.debits, "debit"),
        ...each(e.data, e.data.credits, "credit"),
        ...(e.data.stakes !== undefined ? each(e.data, e.data.stakes, "stake") : []),
        ...(e.data.unstakes !== undefined ? each(e.data, e.data.unstakes, "unstake") : []),
      ]
    case "NotificationRaised":
    case "TxRequestApproved":
    case "TxRequestProgressed":
    case "TxRequestSucceeded":
      return []
  }
}
