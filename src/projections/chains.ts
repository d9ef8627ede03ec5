// Chains read model: each chain's schedule and height over time, and every transfer with where it was mined (the
// transfers' rows and views are chains-transfers.ts; this is the fold and the lookups by id and address).
import { heightAt, type ChainEvent } from "../chain-sim/index.js"
import type { StoredOf } from "../events/stored-event.js"
import type { AddressKeys } from "./address-keys.js"
import { compactColumns, RowByString, StringTable } from "./storage/columns.js"
import {
  isDepositRow,
  pushTransfer,
  Slot,
  TransferList,
  TransferRef,
  TransferRows,
  type Submitted,
  type TransferSource,
  type TransfersById,
  type TransferView,
} from "./chains-transfers.js"
import { ChainStates } from "./chains-state.js"
import type { AsOf } from "./projection.js"
import { keepAside } from "./storage/not-state.js"

export interface ChainView {
  readonly chain: string
  readonly blockchain: string
  readonly network: string
  /** Schedule and recorded height, as of each change. */
  readonly state: ChainStates
  /** Deposits in the order they were mined (the confirmation process manager walks this). */
  readonly minedDeposits: TransferList
  /** Withdrawals in the order they were mined (the withdrawal process manager walks this). */
  readonly minedWithdrawals: TransferList
}

export const chainsFoldTypes = ["ChainConfigured", "ChainTxSubmitted", "ChainBlocksMined"] as const satisfies ReadonlyArray<
  ChainEvent["type"]
>

export class ChainsModel implements TransferSource {
  readonly chains = new Map<string, ChainView>()
  /**
   * Transaction ids, interned, in a table of their own: one string per transfer, and a rebuild adds one at every
   * submission. Apart from them, the other strings looked up at each event (chains, assets, addresses, fees, vault
   * ids) are a small table whose index stays in the caches, and what is indexed by their references stays small.
   */
  readonly ids = new StringTable()
  /** The other strings the transfers (and the transactions model's records) are looked up by, interned… */
  readonly strings = new StringTable()
  /** …and those only read back, nearly all distinct (record ids, amounts, block hashes), appended without a hash.
   * A submission's addresses and fee repeat: they are interned, so a rebuild keeps one string of each, not one per
   * transfer. */
  readonly text = new StringTable(false)
  readonly rows = new TransferRows()
  /** Transaction id (its reference in `ids`) → its latest row. */
  private readonly byId = new RowByString()
  /** Address key (its reference) → the last deposit to it; earlier ones link back from there. */
  private readonly lastDeposit = new RowByString()
  /** Chain (its reference) → its blockchain and network. */
  private readonly split = new Map<number, readonly [string, string]>()

  constructor(private readonly keys: AddressKeys) {}

  /** Drops the columns' room for growth (before a checkpoint is written). */
  compact(): void {
    this.ids.compact()
    this.strings.compact()
    this.text.compact()
    compactColumns(this.rows)
    for (const c of this.chains.values()) {
      c.state.compact()
      c.minedDeposits.rows.compact()
      c.minedWithdrawals.rows.compact()
    }
  }

  names(chainRef: number): readonly [string, string] {
    let n = this.split.get(chainRef)
    if (n === undefined) this.split.set(chainRef, (n = splitChain(this.strings.at(chainRef))))
    return n
  }

  view(row: number): TransferView {
    return new TransferRef(this, row)
  }

  /**
   * The last transaction id looked up, and its row. The folds of one event ask for the same id one after another (a
   * credit: the transactions model, then the settled deposits), and the id is most often the very string asked for
   * before, so one lookup in the table of every id serves them all. Not state: a non-enumerable property, neither
   * saved in a checkpoint nor copied, made on the first lookup.
   */
  declare private lookup: { id: string; row: number } | undefined

  /**
   * The row now kept under a transaction id (-1: none). Credits come mostly in the order their transfers were
   * submitted: the row after the last one looked up is tried first, and holds when its id (one added since the last
   * checkpoint, so kept as given) is this string and it is the row kept under it; otherwise the table is asked.
   */
  rowOf(transactionId: string): number {
    const last = this.lookup
    if (last !== undefined) {
      if (last.id === transactionId) return last.row
      const next = last.row + 1
      if (last.row >= 0 && next < this.rows.length) {
        const ref = this.rows.transactionId.values[next]!
        if (ref >= this.ids.packed && this.byId.get(ref) === next && this.ids.at(ref) === transactionId) {
          last.id = transactionId
          last.row = next
          return next
        }
      }
    }
    const row = this.byId.get(this.ids.find(transactionId))
    if (last === undefined) keepAside(this, "lookup", { id: transactionId, row })
    else {
      last.id = transactionId
      last.row = row
    }
    return row
  }

  /**
   * rowOf(transactionId), tried first at `guess`: a block mostly mines transfers in the order they were submitted, so
   * an id is most often at the row after the previous one's. The guess holds when the row's id is this string and the
   * row is the one kept under it (then it is exactly what rowOf answers); otherwise the table is asked.
   */
  private rowAfter(transactionId: string, guess: number): number {
    if (guess >= 0 && guess < this.rows.length) {
      const ref = this.rows.transactionId.values[guess]!
      if (this.byId.get(ref) === guess && this.ids.at(ref) === transactionId) return guess
    }
    return this.rowOf(transactionId)
  }

  /** The row now kept under the transaction id of a row (-1: none). */
  byIdOfRow(row: number): number {
    return this.byId.get(this.rows.transactionId.values[row]!)
  }

  get transfers(): TransfersById {
    return {
      get: (id) => {
        const row = this.rowOf(id)
        return row < 0 ? undefined : this.view(row)
      },
      has: (id) => this.rowOf(id) >= 0,
      values: () => this.latestViews(),
    }
  }

  private *latestViews(): IterableIterator<TransferView> {
    const ids = this.rows.transactionId.values
    for (let row = 0; row < this.rows.length; row++) if (this.byId.get(ids[row]!) === row) yield this.view(row)
  }

  /** Deposits to an address (by its addressKey) in the order they were submitted. */
  depositsTo(key: string): Array<TransferView> {
    const out: Array<TransferView> = []
    for (let row = this.lastDeposit.get(this.strings.find(key)); row >= 0; row = this.rows.previousDeposit.values[row]!)
      out.push(this.view(row))
    return out.reverse()
  }

  /** The row of the transfer the ChainTxSubmitted at `position` recorded (kept under its transaction id); -1: none. */
  submittedAt(position: bigint, transactionId: string): number {
    const last = this.rows.length - 1
    return last >= 0 && this.rows.position.values[last] === Number(position) ? last : this.rowOf(transactionId)
  }

  chain(chain: string): ChainView | undefined {
    return this.chains.get(chain)
  }

  /** The chain's height at simulated time `at` (interval schedules move on between recorded blocks). */
  heightAt(chain: string, at: number, asOf?: AsOf): number {
    const s = this.chains.get(chain)?.state.at(asOf)
    return s === undefined ? 0 : heightAt(s.schedule, s.height, at)
  }

  confirmations(t: TransferView, at: number, asOf?: AsOf): number {
    const m = t.mined.at(asOf)
    return m === undefined ? 0 : Math.max(0, this.heightAt(t.chain, at, asOf) - m.height + 1)
  }

  private submit(event: { readonly position: bigint }, d: Submitted): void {
    const r = this.rows
    const s = this.strings
    const chainRef = s.internAt(Slot.chain, d.chain)
    const [blockchain, network] = this.names(chainRef)
    const idRef = this.ids.intern(d.transactionId)
    const row = pushTransfer(r, s, this.text, chainRef, idRef, Number(event.position), d)
    // A log written before submissions were taken once may name a transaction again: its records stay found by id.
    const before = this.byId.get(idRef)
    r.firstRecord.push(before < 0 ? -1 : r.firstRecord.values[before]!)
    this.byId.set(idRef, row)
    // Only a submission files a row under an id: the last lookup, if it was of this id, now finds this row.
    const last = this.lookup
    if (last !== undefined && last.id === d.transactionId) last.row = row
    if (d.kind === "deposit") {
      const key = s.internAt(Slot.addressKey, this.keys.of(blockchain, network, d.to))
      r.previousDeposit.push(this.lastDeposit.get(key))
      this.lastDeposit.set(key, row)
    } else r.previousDeposit.push(-1)
  }

  apply(event: StoredOf<(typeof chainsFoldTypes)[number]>): void {
    switch (event.type) {
      case "ChainConfigured": {
        const d = event.data
        const [blockchain, network] = splitChain(d.chain)
        let c = this.chains.get(d.chain)
        if (c === undefined)
          this.chains.set(
            d.chain,
            (c = {
              chain: d.chain,
              blockchain,
              network,
              state: new ChainStates(),
              minedDeposits: new TransferList(this),
              minedWithdrawals: new TransferList(this),
            }),
          )
        c.state.configure(
          event.position,
          {
            mode: d.mode,
            intervalSeconds: d.intervalSeconds,
            confirmations: d.confirmations,
            anchorHeight: d.anchorHeight,
            anchorAt: d.anchorAt,
          },
          Math.max(c.state.latestHeight(), d.anchorHeight),
        )
        return
      }
      case "ChainTxSubmitted":
        return this.submit(event, event.data)
      case "ChainBlocksMined": {
        const d = event.data
        const c = this.chains.get(d.chain)
        if (c === undefined || c.state.length === 0) return
        const interval = c.state.latestInterval()
        c.state.mined(event.position, d.toHeight, d.blockAt, Math.max(c.state.latestHeight(), d.toHeight))
        const blockAt = d.toHeight === d.fromHeight ? d.blockAt : d.blockAt - (d.toHeight - d.fromHeight) * interval * 1000
        const r = this.rows
        let hash = -1
        const position = Number(event.position)
        let guess = -1
        for (const id of d.transactionIds) {
          const row = this.rowAfter(id, guess)
          guess = row < 0 ? -1 : row + 1
          if (row < 0) continue
          // Mined once: a transaction named by a later block again keeps where it was first mined.
          if (Number.isNaN(r.minedAt.values[row]!)) {
            if (hash < 0) hash = this.text.append(d.blockHash)
            r.minedAt.values[row] = position
            r.minedHeight.values[row] = d.fromHeight
            r.minedHash.values[row] = hash
            r.minedBlockAt.values[row] = blockAt
          }
          if (isDepositRow(r, row)) c.minedDeposits.rows.push(row)
          else c.minedWithdrawals.rows.push(row)
        }
        return
      }
      default:
        return
    }
  }
}

export const splitChain = (chain: string): [string, string] => {
  const i = chain.lastIndexOf(".")
  return [chain.slice(0, i), chain.slice(i + 1)]
}
