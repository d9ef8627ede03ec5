// Chains read model: each chain's schedule and height over time, and every transfer with where it was mined.
import { heightAt, type ChainEvent, type ChainSchedule, type ChainTransfer } from "../chain-sim/index.js"
import type { StoredOf } from "../events/stored-event.js"
import type { AddressKeys } from "./address-keys.js"
import { compactColumns, IntColumn, NumberColumn, RowByString, StringTable } from "./columns.js"
import { History } from "./history.js"
import type { AsOf } from "./projection.js"

/** Wire statuses of transactions (the spec gives examples, not the list; the README documents these). */
export type TxStatus = "pending" | "confirmed" | "broadcasted" | "mined" | "completed" | "failed"

export interface TxRecord {
  readonly vaultId: string
  readonly direction: "incoming" | "outgoing"
  /** Between addresses of this workspace: "vault-internal" within one vault, "client-internal" across vaults. */
  readonly internal: "vault-internal" | "client-internal" | null
  readonly view: TransferView
  readonly status: Status
  readonly position: bigint
}

/** A record's status over time (History's reading interface). */
export interface Status {
  latest(): TxStatus | undefined
  at(asOf: bigint | undefined): TxStatus | undefined
  entries(): ReadonlyArray<readonly [bigint, TxStatus]>
}

export interface Mined {
  readonly height: number
  readonly blockHash: string
  readonly blockAt: number
}

/** Where a transfer was mined, as of a position (Once's reading interface). */
export interface MinedAt {
  latest(): Mined | undefined
  at(asOf: bigint | undefined): Mined | undefined
}

/** A transfer as read: made from the model's columns when read, so it reflects them as they are then. */
export interface TransferView {
  /** The transfer's row in the chains model's columns. */
  readonly row: number
  readonly chain: string
  readonly blockchain: string
  readonly network: string
  readonly transfer: ChainTransfer
  readonly submittedAt: number
  readonly position: bigint
  readonly mined: MinedAt
}

/**
 * Every field of a ChainTransfer, and only those, in the order a transfer reads back with: the type makes each one
 * listed — a field added to ChainTransfer fails to compile here until it is listed, and the view test checks that
 * each listed field reads back — so that no field is silently left behind.
 */
export const transferFields: { readonly [K in keyof Required<ChainTransfer>]: true } = {
  transactionId: true,
  recordId: true,
  kind: true,
  assetId: true,
  from: true,
  to: true,
  amount: true,
  fee: true,
  feePayer: true,
  calls: true,
  operation: true,
  vout: true,
  failsInExecution: true,
}

const WITHDRAWAL = 1
const VOUT_NULL = 2
const VOUT_ABSENT = 4
const FAILS_STATED = 8
const FAILS = 16

/**
 * The transfers, a row each, as columns: numbers in typed arrays, strings as references into the model's string
 * table (-1: absent). What is rare and nested (a batch's calls, a Tron operation) is kept as the event gave it, by row.
 */
export class TransferRows {
  readonly chain = new IntColumn()
  readonly position = new NumberColumn()
  readonly submittedAt = new NumberColumn()
  readonly transactionId = new IntColumn()
  readonly recordId = new IntColumn()
  readonly assetId = new IntColumn()
  readonly from = new IntColumn()
  readonly to = new IntColumn()
  readonly amount = new IntColumn()
  readonly fee = new IntColumn()
  readonly feePayer = new IntColumn()
  readonly flags = new IntColumn()
  readonly vout = new NumberColumn()
  /** Where it was mined: the position of the block's event (NaN until then), height, hash and time. */
  readonly minedAt = new NumberColumn()
  readonly minedHeight = new NumberColumn()
  readonly minedHash = new IntColumn()
  readonly minedBlockAt = new NumberColumn()
  /** The transactions model's first record of it (-1: none); records link on from there. */
  readonly firstRecord = new IntColumn()
  /** The previous deposit to the same address (-1: none). */
  readonly previousDeposit = new IntColumn()
  readonly nested = new Map<number, { readonly calls: ChainTransfer["calls"]; readonly operation: ChainTransfer["operation"] }>()

  get length(): number {
    return this.position.length
  }
}

class TransferRef implements TransferView, MinedAt {
  /** The transfer, made once per view (a caller reading several fields makes its strings once). */
  private read: ChainTransfer | undefined = undefined

  constructor(
    private readonly model: ChainsModel,
    readonly row: number,
  ) {}

  get chain(): string {
    return this.model.strings.at(this.model.rows.chain.values[this.row]!)
  }
  get blockchain(): string {
    return this.model.names(this.model.rows.chain.values[this.row]!)[0]
  }
  get network(): string {
    return this.model.names(this.model.rows.chain.values[this.row]!)[1]
  }
  get submittedAt(): number {
    return this.model.rows.submittedAt.values[this.row]!
  }
  get position(): bigint {
    return BigInt(this.model.rows.position.values[this.row]!)
  }
  get mined(): MinedAt {
    return this
  }
  get transfer(): ChainTransfer {
    return (this.read ??= this.model.transferAt(this.row))
  }
  latest(): Mined | undefined {
    return this.at(undefined)
  }
  at(asOf: bigint | undefined): Mined | undefined {
    const r = this.model.rows
    const at = r.minedAt.values[this.row]!
    if (Number.isNaN(at) || (asOf !== undefined && at > Number(asOf))) return undefined
    return { height: r.minedHeight.values[this.row]!, blockHash: this.model.text.at(r.minedHash.values[this.row]!), blockAt: r.minedBlockAt.values[this.row]! }
  }
}

/** Transfers in the order they were mined, as rows (the process managers walk these by index). */
export class TransferList {
  readonly rows = new IntColumn()
  constructor(private readonly model: ChainsModel) {}

  get length(): number {
    return this.rows.length
  }

  at(i: number): TransferView {
    if (!(i >= 0 && i < this.rows.length)) throw new RangeError(`no transfer ${i} of ${this.rows.length}`)
    return this.model.view(this.rows.values[i]!)
  }
}

export interface ChainView {
  readonly chain: string
  readonly blockchain: string
  readonly network: string
  /** Schedule and recorded height, as of each change. */
  readonly state: History<{ readonly schedule: ChainSchedule; readonly height: number }>
  /** Deposits in the order they were mined (the confirmation process manager walks this). */
  readonly minedDeposits: TransferList
  /** Withdrawals in the order they were mined (the withdrawal process manager walks this). */
  readonly minedWithdrawals: TransferList
}

/** The transfers by transaction id (a Map's reading interface over the rows: the latest submission of each id). */
export interface TransfersById {
  get(transactionId: string): TransferView | undefined
  has(transactionId: string): boolean
  values(): IterableIterator<TransferView>
}

export const chainsFoldTypes = ["ChainConfigured", "ChainTxSubmitted", "ChainBlocksMined"] as const satisfies ReadonlyArray<ChainEvent["type"]>

export class ChainsModel {
  readonly chains = new Map<string, ChainView>()
  /** The strings the transfers (and the transactions model's records) are looked up by, interned… */
  readonly strings = new StringTable()
  /** …and those only read back (record ids, addresses, amounts, block hashes), appended without a hash. */
  readonly text = new StringTable(false)
  readonly rows = new TransferRows()
  /** Transaction id (its reference) → its latest row. */
  private readonly byId = new RowByString()
  /** Address key (its reference) → the last deposit to it; earlier ones link back from there. */
  private readonly lastDeposit = new RowByString()
  /** Chain (its reference) → its blockchain and network. */
  private readonly split = new Map<number, readonly [string, string]>()

  constructor(private readonly keys: AddressKeys) {}

  /** Drops the columns' room for growth (before a checkpoint is written). */
  compact(): void {
    this.strings.compact()
    this.text.compact()
    compactColumns(this.rows)
    for (const c of this.chains.values()) {
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

  /** The row now kept under a transaction id (-1: none). */
  rowOf(transactionId: string): number {
    const last = this.lookup
    if (last !== undefined && last.id === transactionId) return last.row
    const row = this.byId.get(this.strings.find(transactionId))
    if (last === undefined) Object.defineProperty(this, "lookup", { value: { id: transactionId, row }, writable: true, enumerable: false })
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
      if (this.byId.get(ref) === guess && this.strings.at(ref) === transactionId) return guess
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

  /** The transfer of a row, as the event recorded it (a field it lacked reads undefined). */
  transferAt(row: number): ChainTransfer {
    const r = this.rows
    const s = this.strings
    const flags = r.flags.values[row]!
    const feePayer = r.feePayer.values[row]!
    const nested = r.nested.get(row)
    const text = this.text
    return {
      transactionId: s.at(r.transactionId.values[row]!),
      recordId: text.at(r.recordId.values[row]!),
      kind: flags & WITHDRAWAL ? "withdrawal" : "deposit",
      assetId: s.at(r.assetId.values[row]!),
      from: text.at(r.from.values[row]!),
      to: text.at(r.to.values[row]!),
      amount: text.at(r.amount.values[row]!),
      fee: text.at(r.fee.values[row]!),
      feePayer: feePayer < 0 ? undefined : s.at(feePayer),
      calls: nested?.calls,
      operation: nested?.operation,
      vout: flags & VOUT_NULL ? null : flags & VOUT_ABSENT ? (undefined as unknown as null) : r.vout.values[row]!,
      failsInExecution: flags & FAILS_STATED ? (flags & FAILS) !== 0 : undefined,
    }
  }

  /** Whether a row is a deposit (without reading the transfer). */
  isDeposit(row: number): boolean {
    return (this.rows.flags.values[row]! & WITHDRAWAL) === 0
  }

  /** Deposits to an address (by its addressKey) in the order they were submitted. */
  depositsTo(key: string): Array<TransferView> {
    const out: Array<TransferView> = []
    for (let row = this.lastDeposit.get(this.strings.find(key)); row >= 0; row = this.rows.previousDeposit.values[row]!) out.push(this.view(row))
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

  private submit(event: { readonly position: bigint }, d: ChainTransfer & { readonly chain: string; readonly at: number }): void {
    const r = this.rows
    const s = this.strings
    const row = r.length
    const chainRef = s.intern(d.chain)
    const [blockchain, network] = this.names(chainRef)
    const idRef = s.intern(d.transactionId)
    r.chain.push(chainRef)
    r.position.push(Number(event.position))
    r.submittedAt.push(d.at)
    r.transactionId.push(idRef)
    const text = this.text
    r.recordId.push(text.append(d.recordId))
    r.assetId.push(s.intern(d.assetId))
    r.from.push(text.append(d.from))
    r.to.push(text.append(d.to))
    r.amount.push(text.append(d.amount))
    r.fee.push(text.append(d.fee))
    r.feePayer.push(d.feePayer === undefined ? -1 : s.intern(d.feePayer))
    const vout = d.vout
    r.flags.push(
      (d.kind === "withdrawal" ? WITHDRAWAL : 0) |
        (vout === null ? VOUT_NULL : vout === undefined ? VOUT_ABSENT : 0) |
        (d.failsInExecution === undefined ? 0 : FAILS_STATED | (d.failsInExecution ? FAILS : 0)),
    )
    r.vout.push(typeof vout === "number" ? vout : NaN)
    if (d.calls !== undefined || d.operation !== undefined) r.nested.set(row, { calls: d.calls, operation: d.operation })
    r.minedAt.push(NaN)
    r.minedHeight.push(NaN)
    r.minedHash.push(-1)
    r.minedBlockAt.push(NaN)
    // A log written before submissions were taken once may name a transaction again: its records stay found by id.
    const before = this.byId.get(idRef)
    r.firstRecord.push(before < 0 ? -1 : r.firstRecord.values[before]!)
    this.byId.set(idRef, row)
    // Only a submission files a row under an id: the last lookup, if it was of this id, now finds this row.
    const last = this.lookup
    if (last !== undefined && last.id === d.transactionId) last.row = row
    if (d.kind === "deposit") {
      const key = s.intern(this.keys.of(blockchain, network, d.to))
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
          this.chains.set(d.chain, (c = { chain: d.chain, blockchain, network, state: new History(), minedDeposits: new TransferList(this), minedWithdrawals: new TransferList(this) }))
        const prev = c.state.latest()
        c.state.set(event.position, {
          schedule: { mode: d.mode, intervalSeconds: d.intervalSeconds, confirmations: d.confirmations, anchorHeight: d.anchorHeight, anchorAt: d.anchorAt },
          height: Math.max(prev?.height ?? 0, d.anchorHeight),
        })
        return
      }
      case "ChainTxSubmitted":
        return this.submit(event, event.data)
      case "ChainBlocksMined": {
        const d = event.data
        const c = this.chains.get(d.chain)
        const prev = c?.state.latest()
        if (c === undefined || prev === undefined) return
        c.state.set(event.position, { schedule: { ...prev.schedule, anchorHeight: d.toHeight, anchorAt: d.blockAt }, height: Math.max(prev.height, d.toHeight) })
        const blockAt = d.toHeight === d.fromHeight ? d.blockAt : d.blockAt - (d.toHeight - d.fromHeight) * prev.schedule.intervalSeconds * 1000
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
          if (this.isDeposit(row)) c.minedDeposits.rows.push(row)
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
