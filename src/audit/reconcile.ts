// The audit's checks: every balance against the events, the split invariant, no negative amounts, every confirmed
// deposit credited once and as the chain carried it, every mined withdrawal debited once and by what it moved.
import { findNetwork } from "../domain/chains/index.js"
import { reserveOf } from "../domain/ledger/index.js"
import { balanceOf } from "../projections/balances/histories.js"
import type { Balance } from "../projections/balances/holdings.js"
import type { ReadModels } from "../projections/read-models.js"
import { balanceKey, type EventRef, type LedgerFold, type LedgerLine, type Settlement, type Transfer } from "./ledger-fold.js"

export type DiscrepancyKind =
  | "total-mismatch"
  | "blocked-mismatch"
  | "staked-mismatch"
  | "split-mismatch"
  | "negative-balance"
  | "deposit-not-credited"
  | "deposit-credited-twice"
  | "credit-mismatch"
  | "credit-without-deposit"
  | "withdrawal-not-debited"
  | "withdrawal-debited-twice"
  | "debit-mismatch"
  | "debit-without-withdrawal"

export interface Discrepancy {
  readonly kind: DiscrepancyKind
  readonly message: string
  readonly blockchain?: string
  readonly network?: string
  readonly address?: string
  readonly assetId?: string
  readonly transactionId?: string
  readonly events: ReadonlyArray<EventRef>
}

export interface BalanceLine {
  readonly blockchain: string
  readonly network: string
  readonly address: string
  readonly assetId: string
  /** From the events (balanceEffects): the confirmed total, what is blocked, the sums per effect kind. */
  readonly expected: { readonly total: bigint; readonly blocked: bigint; readonly byKind: Readonly<Record<string, bigint>> }
  /** What the read model answers. */
  readonly actual: Balance
}

export interface Reconciliation {
  readonly balances: ReadonlyArray<BalanceLine>
  readonly discrepancies: ReadonlyArray<Discrepancy>
  /** Confirmed deposits and mined withdrawals settled only after the audit point (in flight at it, not wrong). */
  readonly pending: ReadonlyArray<{
    readonly transactionId: string
    readonly kind: "deposit" | "withdrawal"
    readonly events: ReadonlyArray<EventRef>
  }>
  /**
   * deposits = depositsCredited + depositsPending + depositsNotCredited; credits = creditsOfDeposits + creditsInternal +
   * creditsUnmatched; the same for withdrawals and debits (a withdrawal has no internal debits).
   */
  readonly counts: {
    readonly balances: number
    /** Deposits due at the audit point (confirmed to an address holding the asset) or credited by then. */
    readonly deposits: number
    readonly credits: number
    /** Withdrawals mined by the audit point or debited by then. */
    readonly withdrawals: number
    readonly debits: number
    readonly depositsCredited: number
    readonly depositsPending: number
    readonly depositsNotCredited: number
    readonly withdrawalsDebited: number
    readonly withdrawalsPending: number
    readonly withdrawalsNotDebited: number
    /** Credit events of deposits (more than one for a deposit credited twice). */
    readonly creditsOfDeposits: number
    /** Credits of withdrawals paying an address of the workspace. */
    readonly creditsInternal: number
    readonly creditsUnmatched: number
    readonly debitsOfWithdrawals: number
    readonly debitsUnmatched: number
  }
}

const where = (l: { blockchain: string; network: string; address: string; assetId: string }) => ({
  blockchain: l.blockchain,
  network: l.network,
  address: l.address,
  assetId: l.assetId,
})

/** Outflow per asset of one settlement (debits minus credits of its effects). */
const outflow = (s: Settlement): Map<string, bigint> => {
  const out = new Map<string, bigint>()
  for (const fx of s.effects) if (fx.total !== 0n) out.set(fx.assetId, (out.get(fx.assetId) ?? 0n) - fx.total)
  return out
}

/**
 * A transfer whose fee someone else paid is also checked address by address: the amount must leave the sender
 * and the fee the fee payer, not the other way round.
 */
const misplaced = (s: Settlement, t: Transfer, native: string, fee: bigint): Array<string> => {
  const key = (address: string, assetId: string) => `${address}|${assetId}`
  const expected = new Map<string, bigint>()
  const add = (k: string, n: bigint) => n !== 0n && expected.set(k, (expected.get(k) ?? 0n) + n)
  if (s.data.withErrors !== true) for (const [assetId, amount] of t.moves) add(key(t.from, assetId), amount)
  add(key(t.feePayer!, native), fee)
  const actual = new Map<string, bigint>()
  for (const fx of s.effects)
    if (fx.total !== 0n) actual.set(key(fx.address, fx.assetId), (actual.get(key(fx.address, fx.assetId)) ?? 0n) - fx.total)
  return [...new Set([...expected.keys(), ...actual.keys()])]
    .filter((k) => (expected.get(k) ?? 0n) !== (actual.get(k) ?? 0n))
    .map(
      (k) =>
        `${actual.get(k) ?? 0n} of ${k.slice(k.indexOf("|") + 1)} left ${k.slice(0, k.indexOf("|"))}, expected ${expected.get(k) ?? 0n} (fee payer ${t.feePayer})`,
    )
}

/**
 * Balances: the fold's lines, plus every (address, asset) the model holds (a held asset with no event is zero),
 * each against the model's balance as of the fold's point; each difference is added.
 */
const reconcileBalances = (fold: LedgerFold, models: ReadModels, add: (d: Discrepancy) => void): Array<BalanceLine> => {
  const asOf = fold.asOf
  const lines = new Map<string, LedgerLine | undefined>(fold.lines)
  const held = new Map<string, { blockchain: string; network: string; address: string; assetId: string }>()
  for (const a of models.holdings.addresses.values()) {
    if (asOf !== undefined && a.position > asOf) continue
    for (const assetId of models.holdings.heldAssets(a, asOf)) {
      const key = balanceKey(a.facts.blockchain, a.facts.network, a.facts.address, assetId)
      held.set(key, { ...a.facts, assetId })
      if (!lines.has(key)) lines.set(key, undefined)
    }
  }
  const balances: Array<BalanceLine> = []
  for (const [key, line] of [...lines].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))) {
    const at = line ?? held.get(key)!
    const actual = models.holdings.balance(at.blockchain, at.network, at.address, at.assetId, asOf)
    const expected = { total: line?.total ?? 0n, blocked: line?.blocked ?? 0n, byKind: line?.byKind ?? {} }
    balances.push({ ...where(at), expected, actual })
    const refs = line === undefined ? [] : [line.last]
    if (actual.total !== expected.total)
      add({
        kind: "total-mismatch",
        message: `total is ${actual.total} but the events sum to ${expected.total}`,
        ...where(at),
        events: refs,
      })
    if (actual.blocked !== expected.blocked)
      add({
        kind: "blocked-mismatch",
        message: `blocked is ${actual.blocked} but the events reserve ${expected.blocked}`,
        ...where(at),
        events: refs,
      })
    const staked = line?.staked ?? 0n
    const allocated = balanceOf(expected.total, expected.blocked, reserveOf(at.blockchain, at.network, at.assetId) + staked).allocated
    if (staked !== 0n && actual.allocated !== allocated)
      add({
        kind: "staked-mismatch",
        message: `allocated is ${actual.allocated} but the events stake ${staked} (allocated ${allocated})`,
        ...where(at),
        events: refs,
      })
    if (actual.total !== actual.available + actual.blocked + actual.allocated)
      add({
        kind: "split-mismatch",
        message: `total ${actual.total} ≠ available ${actual.available} + blocked ${actual.blocked} + allocated ${actual.allocated}`,
        ...where(at),
        events: refs,
      })
    const negative = (["total", "available", "blocked", "allocated"] as const).filter((k) => actual[k] < 0n)
    if (negative.length > 0 || line?.firstNegative !== undefined)
      add({
        kind: "negative-balance",
        message: negative.length > 0 ? `negative ${negative.join(", ")}` : "the events took the balance below zero on the way",
        ...where(at),
        events: line?.firstNegative !== undefined ? [line.firstNegative] : refs,
      })
  }
  return balances
}

/** What a deposit's one credit says otherwise than the chain's transfer, or did before its time. */
const creditErrors = (s: Settlement, t: Transfer): Array<string> => {
  const d = s.data
  const c = s.confirmations
  return [
    d.amount !== t.amount.toString() ? `amount ${String(d.amount)} (the chain carried ${t.amount})` : undefined,
    d.address !== t.to ? `address ${String(d.address)} (the chain paid ${t.to})` : undefined,
    d.assetId !== t.assetId ? `asset ${String(d.assetId)} (the chain carried ${t.assetId})` : undefined,
    d.blockchain !== t.blockchain || d.network !== t.network ? `chain ${String(d.blockchain)}.${String(d.network)}` : undefined,
    t.mined === undefined || s.ref.position < t.mined.ref.position ? "credited before the transfer was mined" : undefined,
    t.mined !== undefined && d.blockHeight !== t.mined.height
      ? `block height ${String(d.blockHeight)} (the chain mined it at ${t.mined.height})`
      : undefined,
    t.mined !== undefined && s.ref.position > t.mined.ref.position && (c === undefined || c.had < c.required)
      ? `${c?.had ?? 0} confirmations at ${String(d.at)}, before the ${c?.required ?? "required"} the chain asked for`
      : undefined,
  ].filter((x): x is string => x !== undefined)
}

/** What a withdrawal's one debit took otherwise than the transfer and its fee, or before it was mined. */
const debitErrors = (s: Settlement, t: Transfer): Array<string> => {
  const native = findNetwork(t.blockchain, t.network)?.nativeAssetId
  const fee = typeof s.data.fee === "string" && /^[0-9]+$/.test(s.data.fee) ? BigInt(s.data.fee) : 0n
  const expected = new Map<string, bigint>()
  if (s.data.withErrors !== true) for (const [assetId, amount] of t.moves) expected.set(assetId, amount)
  if (native !== undefined && fee > 0n) expected.set(native, (expected.get(native) ?? 0n) + fee)
  const actual = outflow(s)
  const assets = new Set([...expected.keys(), ...actual.keys()])
  const wrong = [...assets]
    .filter((a) => (expected.get(a) ?? 0n) !== (actual.get(a) ?? 0n))
    .map((a) => `${a}: ${actual.get(a) ?? 0n} left the vault, expected ${expected.get(a) ?? 0n}`)
  if (t.feePayer !== undefined && native !== undefined) wrong.push(...misplaced(s, t, native, fee))
  if (t.mined === undefined || s.ref.position < t.mined.ref.position) wrong.push("debited before the transfer was mined")
  return wrong
}

/**
 * Credits and debits no transfer of their kind carried: a withdrawal's credit to an address of the workspace is
 * counted inside it, every other one as unmatched and added.
 */
const unmatchedSettlements = (
  fold: LedgerFold,
  m: { creditsInternal: number; creditsUnmatched: number; debitsUnmatched: number },
  add: (d: Discrepancy) => void,
): void => {
  for (const [kind, settlements] of [
    ["deposit", fold.credits],
    ["withdrawal", fold.debits],
  ] as const)
    for (const [txid, list] of settlements) {
      const t = fold.transfers.get(txid)
      if (t !== undefined && t.kind === kind) continue
      // A withdrawal to an address of the workspace is credited there like a deposit, under the withdrawal's id.
      if (t !== undefined && kind === "deposit" && list.every((s) => t.payees.has(String(s.data.address)))) {
        m.creditsInternal += list.length
        continue
      }
      m[kind === "deposit" ? "creditsUnmatched" : "debitsUnmatched"] += list.length
      add({
        kind: kind === "deposit" ? "credit-without-deposit" : "debit-without-withdrawal",
        message: `${list[0]!.ref.type} for ${txid}, which no ${kind} on the chain carried`,
        transactionId: txid,
        events: list.map((s) => s.ref),
      })
    }
}

export const reconcile = (fold: LedgerFold, models: ReadModels): Reconciliation => {
  const discrepancies: Array<Discrepancy> = []
  const pending: Array<Reconciliation["pending"][number]> = []
  const add = (d: Discrepancy) => discrepancies.push(d)

  const balances = reconcileBalances(fold, models, add)

  // Settlements against the chain: deposits credited once, withdrawals debited once, each by what moved. Every
  // transfer due at the audit point (a deposit confirmed to an address holding its asset, a mined withdrawal) or
  // settled by then is counted once, as settled, in flight or missing; every credit and debit once, as a
  // transfer's, as a credit inside the workspace, or as unmatched (summary: the counts add up).
  const n = {
    depositsCredited: 0,
    depositsPending: 0,
    depositsNotCredited: 0,
    withdrawalsDebited: 0,
    withdrawalsPending: 0,
    withdrawalsNotDebited: 0,
  }
  const m = { creditsOfDeposits: 0, creditsInternal: 0, creditsUnmatched: 0, debitsOfWithdrawals: 0, debitsUnmatched: 0 }
  const confirmedAt = (t: Transfer, at: number) => fold.confirmationsAt(t, at) >= fold.requiredConfirmations(t)
  const settledAt = (t: Transfer) => fold.settledAt.get(`${t.blockchain}.${t.network}`) ?? Number.NEGATIVE_INFINITY
  const transferRefs = (t: Transfer) => (t.mined === undefined ? [t.submitted] : [t.submitted, t.mined.ref])
  for (const [txid, t] of fold.transfers) {
    const settled = (t.kind === "deposit" ? fold.credits : fold.debits).get(txid) ?? []
    const held = t.kind === "withdrawal" || fold.holdsAsset(t.blockchain, t.network, t.to, t.assetId)
    // Due: confirmed when its chain was last settled. Confirmed only since (interval blocks the clock implies): in flight.
    const due = t.kind === "deposit" ? held && confirmedAt(t, settledAt(t)) : t.mined !== undefined
    const base = { blockchain: t.blockchain, network: t.network, assetId: t.assetId, transactionId: txid }
    if (settled.length === 0) {
      const confirmedSince = t.kind === "deposit" && held && !due && confirmedAt(t, fold.time)
      if (!due && !confirmedSince) continue
      if (confirmedSince || fold.settledLater.has(txid)) {
        n[t.kind === "deposit" ? "depositsPending" : "withdrawalsPending"]++
        pending.push({ transactionId: txid, kind: t.kind, events: transferRefs(t) })
      } else if (t.kind === "deposit") {
        n.depositsNotCredited++
        add({
          kind: "deposit-not-credited",
          message: `deposit ${txid} of ${t.amount} to ${t.to} is confirmed but was never credited`,
          ...base,
          address: t.to,
          events: transferRefs(t),
        })
      } else {
        n.withdrawalsNotDebited++
        add({ kind: "withdrawal-not-debited", message: `withdrawal ${txid} was mined but never debited`, ...base, events: transferRefs(t) })
      }
      continue
    }
    n[t.kind === "deposit" ? "depositsCredited" : "withdrawalsDebited"]++
    m[t.kind === "deposit" ? "creditsOfDeposits" : "debitsOfWithdrawals"] += settled.length
    const refs = [...transferRefs(t), ...settled.map((s) => s.ref)]
    if (settled.length > 1) {
      add(
        t.kind === "deposit"
          ? {
              kind: "deposit-credited-twice",
              message: `deposit ${txid} was credited ${settled.length} times`,
              ...base,
              address: t.to,
              events: refs,
            }
          : { kind: "withdrawal-debited-twice", message: `withdrawal ${txid} was debited ${settled.length} times`, ...base, events: refs },
      )
      continue
    }
    const s = settled[0]!
    if (t.kind === "deposit") {
      const wrong = creditErrors(s, t)
      if (wrong.length > 0)
        add({ kind: "credit-mismatch", message: `deposit ${txid} credited with ${wrong.join(", ")}`, ...base, address: t.to, events: refs })
    } else {
      const wrong = debitErrors(s, t)
      if (wrong.length > 0) add({ kind: "debit-mismatch", message: `withdrawal ${txid}: ${wrong.join("; ")}`, ...base, events: refs })
    }
  }
  unmatchedSettlements(fold, m, add)
  const count = (m: Map<string, ReadonlyArray<unknown>>) => [...m.values()].reduce((n, l) => n + l.length, 0)
  return {
    balances,
    discrepancies,
    pending,
    counts: {
      balances: balances.length,
      deposits: n.depositsCredited + n.depositsPending + n.depositsNotCredited,
      credits: count(fold.credits),
      withdrawals: n.withdrawalsDebited + n.withdrawalsPending + n.withdrawalsNotDebited,
      debits: count(fold.debits),
      ...n,
      ...m,
    },
  }
}
