// What each ledger or transaction request event does to balances: the one definition the vault fold, the
// balance projection and the audit all read, so they cannot disagree.
import { absurd } from "../shared/decider.js"
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
type Chain = { readonly blockchain: string; readonly network: string }

/** Receives each effect's fields in turn: a fold that only adds them up makes no object per effect. */
export type BalanceEffectVisitor = (
  blockchain: string,
  network: string,
  address: string,
  assetId: string,
  total: bigint,
  blocked: bigint,
  staked: bigint,
  kind: BalanceEffect["kind"],
) => void

const one = (chain: Chain, p: Portion, kind: BalanceEffect["kind"], visit: BalanceEffectVisitor): void => {
  const n = BigInt(p.amount)
  visit(
    chain.blockchain,
    chain.network,
    p.address,
    p.assetId,
    kind === "credit" ? n : kind === "debit" ? -n : 0n,
    kind === "reserve" ? n : kind === "release" ? -n : 0n,
    kind === "stake" ? n : kind === "unstake" ? -n : 0n,
    kind,
  )
}

const each = (chain: Chain, ps: ReadonlyArray<Portion>, kind: BalanceEffect["kind"], visit: BalanceEffectVisitor): void => {
  for (let i = 0; i < ps.length; i++) one(chain, ps[i]!, kind, visit)
}

/** Hands `visit` each balance effect of an event, in the order balanceEffects lists them. */
export const visitBalanceEffects = (e: LedgerEvent | TxRequestEvent, visit: BalanceEffectVisitor): void => {
  switch (e.type) {
    case "DepositCredited":
      return one(e.data, e.data, "credit", visit)
    case "TxRequestCreated":
      return each(e.data, e.data.reservations, "reserve", visit)
    case "TxRequestRejected":
    case "TxRequestFailed":
      return each(e.data, e.data.releases, "release", visit)
    case "TxRequestMined":
      each(e.data, e.data.releases, "release", visit)
      each(e.data, e.data.debits, "debit", visit)
      each(e.data, e.data.credits, "credit", visit)
      if (e.data.stakes !== undefined) each(e.data, e.data.stakes, "stake", visit)
      if (e.data.unstakes !== undefined) each(e.data, e.data.unstakes, "unstake", visit)
      return
    case "NotificationRaised":
    case "TxRequestApproved":
    case "TxRequestProgressed":
    case "TxRequestSucceeded":
      return
    default:
      return absurd(e)
  }
}

export const balanceEffects = (e: LedgerEvent | TxRequestEvent): ReadonlyArray<BalanceEffect> => {
  const out: Array<BalanceEffect> = []
  visitBalanceEffects(e, (blockchain, network, address, assetId, total, blocked, staked, kind) =>
    out.push({ blockchain, network, address, assetId, total, blocked, staked, kind }),
  )
  return out
}
