// The chains model's transfers: a row each in columns (TransferRows), how a submitted transfer is written into a row
// and read back out of it, and the views the other models and the API read a transfer through.
import type { ChainTransfer } from "../chain-sim/index.js"
import { IntColumn, NumberColumn, type StringTable } from "./storage/columns.js"

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

/**
 * The call sites that intern into the chains model's table of strings, each with its own memo of the last string
 * (StringTable.internAt): a rebuild meets the same chain, asset, sender, fee and vault in event after event.
 */
export const Slot = { chain: 0, asset: 1, from: 2, to: 3, fee: 4, feePayer: 5, addressKey: 6, vault: 7 } as const

/** Writes a submitted transfer into a new row (not yet mined, no records, no earlier deposit); returns the row. */
export const pushTransfer = (
  r: TransferRows,
  s: StringTable,
  text: StringTable,
  chainRef: number,
  idRef: number,
  position: number,
  d: Submitted,
): number => {
  const row = r.length
  r.chain.push(chainRef)
  r.position.push(position)
  r.submittedAt.push(d.at)
  r.transactionId.push(idRef)
  r.recordId.push(text.append(d.recordId))
  r.assetId.push(s.internAt(Slot.asset, d.assetId))
  r.from.push(s.internAt(Slot.from, d.from))
  r.to.push(s.internAt(Slot.to, d.to))
  r.amount.push(text.append(d.amount))
  r.fee.push(s.internAt(Slot.fee, d.fee))
  r.feePayer.push(d.feePayer === undefined ? -1 : s.internAt(Slot.feePayer, d.feePayer))
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
  return row
}

/** The transfer of a row, as the event recorded it (a field it lacked reads undefined). */
export const transferOfRow = (m: TransferSource, row: number): ChainTransfer => {
  const r = m.rows
  const s = m.strings
  const text = m.text
  const flags = r.flags.values[row]!
  const feePayer = r.feePayer.values[row]!
  const nested = r.nested.get(row)
  return {
    transactionId: m.ids.at(r.transactionId.values[row]!),
    recordId: text.at(r.recordId.values[row]!),
    kind: flags & WITHDRAWAL ? "withdrawal" : "deposit",
    assetId: s.at(r.assetId.values[row]!),
    from: s.at(r.from.values[row]!),
    to: s.at(r.to.values[row]!),
    amount: text.at(r.amount.values[row]!),
    fee: s.at(r.fee.values[row]!),
    feePayer: feePayer < 0 ? undefined : s.at(feePayer),
    calls: nested?.calls,
    operation: nested?.operation,
    vout: flags & VOUT_NULL ? null : flags & VOUT_ABSENT ? (undefined as unknown as null) : r.vout.values[row]!,
    failsInExecution: flags & FAILS_STATED ? (flags & FAILS) !== 0 : undefined,
  }
}

/** Whether a row is a deposit (without reading the transfer). */
export const isDepositRow = (r: TransferRows, row: number): boolean => (r.flags.values[row]! & WITHDRAWAL) === 0

/** What a transfer's view reads: the model's rows and string tables (the chains model). */
export interface TransferSource {
  readonly rows: TransferRows
  /** Interned transaction ids (a table of their own: it holds a string per transfer, the others a few thousand). */
  readonly ids: StringTable
  /** Interned strings: chains, assets, addresses (from, to, fee payer), fees. */
  readonly strings: StringTable
  /** Strings only read back, each distinct: record ids, amounts, block hashes. */
  readonly text: StringTable
  /** A chain's blockchain and network, by its reference. */
  names(chainRef: number): readonly [string, string]
  view(row: number): TransferView
}

/** A submitted transfer as the chains model's fold gives it. */
export type Submitted = ChainTransfer & { readonly chain: string; readonly at: number }

export class TransferRef implements TransferView, MinedAt {
  /** The transfer, made once per view (a caller reading several fields makes its strings once). */
  private read: ChainTransfer | undefined = undefined

  constructor(
    private readonly model: TransferSource,
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
    return (this.read ??= transferOfRow(this.model, this.row))
  }
  latest(): Mined | undefined {
    return this.at(undefined)
  }
  at(asOf: bigint | undefined): Mined | undefined {
    const r = this.model.rows
    const at = r.minedAt.values[this.row]!
    if (Number.isNaN(at) || (asOf !== undefined && at > Number(asOf))) return undefined
    return {
      height: r.minedHeight.values[this.row]!,
      blockHash: this.model.text.at(r.minedHash.values[this.row]!),
      blockAt: r.minedBlockAt.values[this.row]!,
    }
  }
}

/** Transfers in the order they were mined, as rows (the process managers walk these by index). */
export class TransferList {
  readonly rows = new IntColumn()
  constructor(private readonly model: TransferSource) {}

  get length(): number {
    return this.rows.length
  }

  at(i: number): TransferView {
    if (!(i >= 0 && i < this.rows.length)) throw new RangeError(`no transfer ${i} of ${this.rows.length}`)
    return this.model.view(this.rows.values[i]!)
  }
}

/** The transfers by transaction id (a Map's reading interface over the rows: the latest submission of each id). */
export interface TransfersById {
  get(transactionId: string): TransferView | undefined
  has(transactionId: string): boolean
  values(): IterableIterator<TransferView>
}
