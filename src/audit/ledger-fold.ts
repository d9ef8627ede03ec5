// What the audit learns from the log alone: balances from balanceEffects, holdings, chain heights (recorded, and
// implied by an interval schedule at the simulated time), transfers, and the ledger events that credit deposits or
// debit withdrawals (by transaction id).
import type { ChainTransfer } from "../chain-sim/events.js"
import { heightAt, type ChainSchedule } from "../chain-sim/state.js"
import { balanceEffects, ledgerEventTypes, type BalanceEffect, type LedgerEvent } from "../domain/ledger/index.js"
import { txRequestEventTypes, type TxRequestEvent } from "../domain/transaction-request/index.js"
import { storedAs, type StoredOf } from "../events/stored-event.js"
import type { RecordedEvent } from "../store/event-store.js"

export interface EventRef {
  readonly id: string
  readonly type: string
  readonly stream: string
  readonly position: number
}

/** The event types the audit folds besides the ledger's: holdings, chain heights and transfers. */
const foldTypes: ReadonlySet<"AddressDerived" | "AssetAdded" | "ChainConfigured" | "ChainTxSubmitted" | "ChainBlocksMined"> = new Set([
  "AddressDerived",
  "AssetAdded",
  "ChainConfigured",
  "ChainTxSubmitted",
  "ChainBlocksMined",
] as const)
type LedgerType = (LedgerEvent | TxRequestEvent)["type"]
/** The ledger's and the transaction requests' event types (balanceEffects answers [] for those that change no balance). */
const ledgerTypes = new Set([...ledgerEventTypes, ...txRequestEventTypes]) as ReadonlySet<LedgerType>

export const refOf = (e: Pick<RecordedEvent, "id" | "type" | "stream" | "position">): EventRef => ({
  id: e.id,
  type: e.type,
  stream: e.stream,
  position: Number(e.position),
})

export interface LedgerLine {
  readonly blockchain: string
  readonly network: string
  readonly address: string
  readonly assetId: string
  total: bigint
  blocked: bigint
  /** Tron: TRX staked (frozen, or unfrozen and not yet withdrawn). */
  staked: bigint
  /** Sum of the absolute amounts of each effect kind (credit, debit, reserve, release, …). */
  readonly byKind: Record<string, bigint>
  last: EventRef
  firstNegative: EventRef | undefined
}

export interface Transfer {
  readonly blockchain: string
  readonly network: string
  readonly kind: "deposit" | "withdrawal"
  readonly from: string
  /** The address that paid the fee, when not the sender (gas sponsorship). */
  readonly feePayer: string | undefined
  readonly to: string
  readonly assetId: string
  readonly amount: bigint
  /** What it moves per asset: the amount, or a batch's calls summed per asset. */
  readonly moves: ReadonlyMap<string, bigint>
  /** Every address it pays (a batch's calls included). */
  readonly payees: ReadonlySet<string>
  readonly submitted: EventRef
  mined: { readonly height: number; readonly ref: EventRef } | undefined
}

export interface Settlement {
  readonly ref: EventRef
  readonly data: Readonly<Record<string, unknown>>
  readonly effects: ReadonlyArray<BalanceEffect>
  /** A credit's confirmations at its own time (the chain's height then, interval blocks included) and those required then. */
  readonly confirmations: { readonly had: number; readonly required: number } | undefined
}

/** A chain as the log tells it: its schedule as configured last, anchored at its last block, and its recorded height. */
interface FoldedChain {
  schedule: ChainSchedule
  height: number
}

export const balanceKey = (blockchain: string, network: string, address: string, assetId: string) =>
  `${blockchain}/${network}/${address}|${assetId}`
const addressKeyOf = (blockchain: string, network: string, address: string) => `${blockchain}/${network}/${address}`

const movesOf = (t: ChainTransfer): Map<string, bigint> => {
  const out = new Map<string, bigint>()
  for (const c of t.calls ?? [t]) out.set(c.assetId, (out.get(c.assetId) ?? 0n) + BigInt(c.amount))
  return out
}

const splitChain = (chain: string): [string, string] => {
  const i = chain.lastIndexOf(".")
  return [chain.slice(0, i), chain.slice(i + 1)]
}

export class LedgerFold {
  readonly lines = new Map<string, LedgerLine>()
  readonly holds = new Map<string, Set<string>>()
  readonly chains = new Map<string, FoldedChain>()
  readonly transfers = new Map<string, Transfer>()
  /** Ledger events with a credit for a transaction id (deposits) or a debit (withdrawals), up to the audit point. */
  readonly credits = new Map<string, Array<Settlement>>()
  readonly debits = new Map<string, Array<Settlement>>()
  /** Transaction ids credited or debited only after the audit point. */
  readonly settledLater = new Set<string>()
  events = 0
  /** The simulated time of the audit point: the latest event time up to it (a clock moves only forward). */
  time = 0
  /**
   * Per chain, the latest time a settlement of its deposits ran by the audit point, as the log shows it: an event of
   * the chain (each is settled after its append) or a credit of one of its deposits (a settlement walks them all).
   * A deposit confirmed only by interval blocks due after it is in flight: the clock's next pass credits it.
   */
  readonly settledAt = new Map<string, number>()

  constructor(readonly asOf: bigint | undefined) {}

  /** The transfer's confirmations at `at` (0 before it is mined): interval blocks due by then count as mined. */
  confirmationsAt(t: Transfer, at: number): number {
    const c = this.chains.get(`${t.blockchain}.${t.network}`)
    return t.mined === undefined || c === undefined ? 0 : Math.max(0, heightAt(c.schedule, c.height, at) - t.mined.height + 1)
  }

  /** The confirmations the transfer's chain asks for now (as configured last). */
  requiredConfirmations(t: Transfer): number {
    return this.chains.get(`${t.blockchain}.${t.network}`)?.schedule.confirmations ?? Number.POSITIVE_INFINITY
  }

  holdsAsset(blockchain: string, network: string, address: string, assetId: string): boolean {
    return this.holds.get(addressKeyOf(blockchain, network, address))?.has(assetId) === true
  }

  apply(event: RecordedEvent): void {
    const ledger = storedAs(event, ledgerTypes)
    if (this.asOf !== undefined && event.position > this.asOf) {
      if (ledger !== undefined) this.applyLater(ledger)
      return
    }
    this.events++
    const at = (event.metadata as { readonly at?: unknown }).at
    if (typeof at === "number" && at > this.time) this.time = at
    if (ledger !== undefined) return this.applyLedger(ledger)
    const e = storedAs(event, foldTypes)
    if (e === undefined) return
    if (e.type.startsWith("Chain") && typeof at === "number") this.settled((e.data as { readonly chain: string }).chain, at)
    switch (e.type) {
      case "AddressDerived":
        for (const a of e.data.assetIds) this.hold(e.data.blockchain, e.data.network, e.data.address, a)
        return
      case "AssetAdded":
        return this.hold(e.data.blockchain, e.data.network, e.data.address, e.data.assetId)
      case "ChainConfigured": {
        const d = e.data
        const c = this.chains.get(d.chain)
        const schedule = {
          mode: d.mode,
          intervalSeconds: d.intervalSeconds,
          confirmations: d.confirmations,
          anchorHeight: d.anchorHeight,
          anchorAt: d.anchorAt,
        }
        this.chains.set(d.chain, { schedule, height: Math.max(c?.height ?? 0, d.anchorHeight) })
        return
      }
      case "ChainTxSubmitted": {
        const [blockchain, network] = splitChain(e.data.chain)
        const d = e.data
        this.transfers.set(d.transactionId, {
          blockchain,
          network,
          kind: d.kind,
          from: d.from,
          feePayer: d.feePayer,
          to: d.to,
          assetId: d.assetId,
          amount: BigInt(d.amount),
          moves: movesOf(d),
          payees: new Set((d.calls ?? [d]).map((c) => c.to)),
          submitted: refOf(event),
          mined: undefined,
        })
        return
      }
      case "ChainBlocksMined": {
        const c = this.chains.get(e.data.chain)
        // As the chain's decider does: the schedule is anchored at the last block, whatever mined it.
        if (c !== undefined) {
          c.schedule = { ...c.schedule, anchorHeight: e.data.toHeight, anchorAt: e.data.blockAt }
          c.height = Math.max(c.height, e.data.toHeight)
        }
        for (const id of e.data.transactionIds) {
          const t = this.transfers.get(id)
          if (t !== undefined && t.mined === undefined) t.mined = { height: e.data.fromHeight, ref: refOf(event) }
        }
        return
      }
    }
  }

  private hold(blockchain: string, network: string, address: string, assetId: string): void {
    const key = addressKeyOf(blockchain, network, address)
    let s = this.holds.get(key)
    if (s === undefined) this.holds.set(key, (s = new Set()))
    s.add(assetId)
  }

  private settlementKinds(
    type: string,
    effects: ReadonlyArray<BalanceEffect>,
    data: Readonly<Record<string, unknown>>,
  ): { credit: boolean; debit: boolean } {
    // A deposit credit carries a transaction id and only credits; a withdrawal's event debits (and may credit change),
    // or settles it without a debit (a tron staking request whose fee the free bandwidth paid).
    const debit = type === "TxRequestMined" || effects.some((fx) => fx.total < 0n)
    return { debit, credit: !debit && typeof data.transactionId === "string" && effects.some((fx) => fx.total > 0n) }
  }

  private settled(chain: string, at: number): void {
    if (at > (this.settledAt.get(chain) ?? Number.NEGATIVE_INFINITY)) this.settledAt.set(chain, at)
  }

  private confirmationsOfCredit(transactionId: string, at: unknown): Settlement["confirmations"] {
    const t = this.transfers.get(transactionId)
    if (t === undefined || t.kind !== "deposit" || typeof at !== "number") return undefined
    this.settled(`${t.blockchain}.${t.network}`, at)
    return { had: this.confirmationsAt(t, at), required: this.requiredConfirmations(t) }
  }

  private applyLater(event: StoredOf<LedgerType>): void {
    const data = event.data as Readonly<Record<string, unknown>>
    if (typeof data.transactionId === "string" && (event.type === "TxRequestMined" || balanceEffects(event).some((fx) => fx.total !== 0n)))
      this.settledLater.add(data.transactionId)
  }

  private applyLedger(event: StoredOf<LedgerType>): void {
    const effects = balanceEffects(event)
    if (effects.length === 0) return
    const ref = refOf(event)
    for (const fx of effects) {
      const key = balanceKey(fx.blockchain, fx.network, fx.address, fx.assetId)
      let line = this.lines.get(key)
      if (line === undefined) {
        line = {
          blockchain: fx.blockchain,
          network: fx.network,
          address: fx.address,
          assetId: fx.assetId,
          total: 0n,
          blocked: 0n,
          staked: 0n,
          byKind: {},
          last: ref,
          firstNegative: undefined,
        }
        this.lines.set(key, line)
      }
      line.total += fx.total
      line.blocked += fx.blocked
      line.staked += fx.staked
      const size = fx.total !== 0n ? fx.total : fx.blocked !== 0n ? fx.blocked : fx.staked
      line.byKind[fx.kind] = (line.byKind[fx.kind] ?? 0n) + (size < 0n ? -size : size)
      line.last = ref
      if (line.firstNegative === undefined && (line.total < 0n || line.blocked < 0n || line.staked < 0n || line.staked > line.total))
        line.firstNegative = ref
    }
    const data = event.data as Readonly<Record<string, unknown>>
    if (typeof data.transactionId !== "string") return
    const kinds = this.settlementKinds(event.type, effects, data)
    const target = kinds.debit ? this.debits : kinds.credit ? this.credits : undefined
    if (target === undefined) return
    const list = target.get(data.transactionId) ?? []
    list.push({
      ref,
      data,
      effects,
      confirmations: kinds.credit ? this.confirmationsOfCredit(data.transactionId, data.at ?? event.metadata.at) : undefined,
    })
    target.set(data.transactionId, list)
  }
}
