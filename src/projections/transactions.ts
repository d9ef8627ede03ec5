// Transactions read model (endpoints #13, #14): per vault, the transfers it can see, with status over time.
import type { LedgerEvent } from "../domain/ledger/index.js"
import { addressKey, type VaultAccountEvent } from "../domain/vault-account/index.js"
import type { ChainEvent } from "../chain-sim/index.js"
import type { TxRequestEvent } from "../domain/transaction-request/index.js"
import type { StoredOf } from "../events/stored-event.js"
import type { TxRequestsModel } from "./transaction-requests.js"
import type { ChainsModel } from "./chains.js"
import { Slot, type Status, type TransferView, type TxRecord, type TxStatus } from "./chains-transfers.js"
import { compactColumns, IntColumn, NumberColumn, RowByString } from "./storage/columns.js"
import type { HoldingsModel } from "./balances/holdings.js"
import type { AsOf } from "./projection.js"

export type { TxRecord, TxStatus } from "./chains-transfers.js"

export const transactionsFoldTypes = [
  "ChainTxSubmitted",
  "AssetAdded",
  "TxRequestMined",
  "TxRequestSucceeded",
  "DepositCredited",
] as const satisfies ReadonlyArray<(ChainEvent | VaultAccountEvent | LedgerEvent | TxRequestEvent)["type"]>

const statuses: ReadonlyArray<TxStatus> = ["pending", "confirmed", "broadcasted", "mined", "completed", "failed"]
const OUTGOING = 1
/** internal: 0 none, 1 vault-internal, 2 client-internal, shifted by one. */
const internals: ReadonlyArray<TxRecord["internal"]> = [null, "vault-internal", "client-internal"]

/**
 * The records, a row each, as columns; each record's status history is a chain of entries (position, status), its
 * first and last entry named by the record. Records of one transfer link on from the transfer's row (the chains
 * model's `firstRecord`), records of one vault from its first (`firstOfVault`), in creation order.
 */
export class RecordRows {
  readonly transfer = new IntColumn()
  /** The vault's id, a reference into the chains model's string table. */
  readonly vault = new IntColumn()
  readonly kind = new IntColumn()
  readonly nextOfTransfer = new IntColumn()
  readonly nextOfVault = new IntColumn()
  readonly firstStatus = new IntColumn()
  readonly lastStatus = new IntColumn()
  readonly statusAt = new NumberColumn()
  readonly status = new IntColumn()
  readonly nextStatus = new IntColumn()

  get length(): number {
    return this.transfer.length
  }
}

class RecordRef implements TxRecord, Status {
  /** The transfer's view, made once per record read. */
  private transferView: TransferView | undefined = undefined

  constructor(
    private readonly model: TransactionsModel,
    readonly row: number,
  ) {}
  private get rows(): RecordRows {
    return this.model.records
  }
  get vaultId(): string {
    return this.model.vaultOf(this.row)
  }
  get direction(): TxRecord["direction"] {
    return this.rows.kind.values[this.row]! & OUTGOING ? "outgoing" : "incoming"
  }
  get internal(): TxRecord["internal"] {
    return internals[this.rows.kind.values[this.row]! >>> 1]!
  }
  get view(): TransferView {
    return (this.transferView ??= this.model.transferOf(this.row))
  }
  get status(): Status {
    return this
  }
  /** Listed with its first status: the position of that. */
  get position(): bigint {
    return BigInt(this.rows.statusAt.values[this.rows.firstStatus.values[this.row]!]!)
  }
  latest(): TxStatus | undefined {
    return statuses[this.rows.status.values[this.rows.lastStatus.values[this.row]!]!]
  }
  at(asOf: bigint | undefined): TxStatus | undefined {
    if (asOf === undefined) return this.latest()
    const p = Number(asOf)
    const r = this.rows
    let found: TxStatus | undefined
    for (let k = r.firstStatus.values[this.row]!; k >= 0 && r.statusAt.values[k]! <= p; k = r.nextStatus.values[k]!)
      found = statuses[r.status.values[k]!]
    return found
  }
  entries(): ReadonlyArray<readonly [bigint, TxStatus]> {
    const r = this.rows
    const out: Array<readonly [bigint, TxStatus]> = []
    for (let k = r.firstStatus.values[this.row]!; k >= 0; k = r.nextStatus.values[k]!)
      out.push([BigInt(r.statusAt.values[k]!), statuses[r.status.values[k]!]!])
    return out
  }
}

export class TransactionsModel {
  readonly records = new RecordRows()
  /** Vault (its reference) → its first and its last record. */
  private readonly firstOfVault = new RowByString()
  private readonly lastOfVault = new RowByString()
  /** Deposits (their rows) to a vault address that does not hold the asset yet: listed once it is added (the spec's rule). */
  private readonly waiting = new Map<string, Array<number>>()

  constructor(
    private readonly holdings: HoldingsModel,
    private readonly chains: ChainsModel,
    private readonly txRequests: TxRequestsModel,
  ) {}

  /** Drops the columns' room for growth (before a checkpoint is written). */
  compact(): void {
    compactColumns(this.records)
  }

  vaultOf(record: number): string {
    return this.chains.strings.at(this.records.vault.values[record]!)
  }

  transferOf(record: number): TransferView {
    return this.chains.view(this.records.transfer.values[record]!)
  }

  list(vaultId: string, asOf: AsOf): ReadonlyArray<TxRecord> {
    const r = this.records
    const p = asOf === undefined ? Infinity : Number(asOf)
    const out: Array<TxRecord> = []
    for (let k = this.firstOfVault.get(this.chains.strings.find(vaultId)); k >= 0; k = r.nextOfVault.values[k]!) {
      if (r.statusAt.values[r.firstStatus.values[k]!]! > p) break
      out.push(new RecordRef(this, k))
    }
    return out
  }

  /** The record of a transfer's row listed for a vault (by its reference); -1: none. */
  private recordOf(transferRow: number, vaultRef: number): number {
    if (transferRow < 0 || vaultRef < 0) return -1
    const r = this.records
    for (let k = this.chains.rows.firstRecord.values[transferRow]!; k >= 0; k = r.nextOfTransfer.values[k]!)
      if (r.vault.values[k] === vaultRef) return k
    return -1
  }

  /** The records of a transaction, one per vault that lists it. */
  private byTx(transactionId: string): Array<number> {
    const out: Array<number> = []
    const row = this.chains.rowOf(transactionId)
    if (row < 0) return out
    for (let k = this.chains.rows.firstRecord.values[row]!; k >= 0; k = this.records.nextOfTransfer.values[k]!) out.push(k)
    return out
  }

  private findRow(vaultId: string, transactionId: string): number {
    return this.recordOf(this.chains.rowOf(transactionId), this.chains.strings.findAt(Slot.vault, vaultId))
  }

  find(vaultId: string, transactionId: string, asOf: AsOf): TxRecord | undefined {
    const k = this.findRow(vaultId, transactionId)
    if (k < 0) return undefined
    const r = this.records
    return asOf === undefined || r.statusAt.values[r.firstStatus.values[k]!]! <= Number(asOf) ? new RecordRef(this, k) : undefined
  }

  private setStatus(record: number, position: bigint, status: TxStatus): void {
    const r = this.records
    const p = Number(position)
    const code = statuses.indexOf(status)
    const last = r.lastStatus.values[record]!
    if (last >= 0 && r.statusAt.values[last] === p) {
      r.status.values[last] = code
      return
    }
    const k = r.statusAt.push(p)
    r.status.push(code)
    r.nextStatus.push(-1)
    if (last < 0) r.firstStatus.values[record] = k
    else r.nextStatus.values[last] = k
    r.lastStatus.values[record] = k
  }

  /** `holder` is the row the chains model now keeps under the transaction's id (`row` itself unless it was submitted again). */
  private add(
    vaultId: string,
    direction: TxRecord["direction"],
    row: number,
    status: TxStatus,
    position: bigint,
    internal: TxRecord["internal"] = null,
    holder = row,
  ): void {
    const vault = this.chains.strings.internAt(Slot.vault, vaultId)
    if (this.recordOf(holder, vault) >= 0) return
    const r = this.records
    const k = r.transfer.push(row)
    r.vault.push(vault)
    r.kind.push((direction === "outgoing" ? OUTGOING : 0) | (internals.indexOf(internal) << 1))
    r.nextOfTransfer.push(-1)
    r.nextOfVault.push(-1)
    r.firstStatus.push(-1)
    r.lastStatus.push(-1)
    this.setStatus(k, position, status)
    const firstRecord = this.chains.rows.firstRecord.values
    let tail = firstRecord[holder]!
    if (tail < 0) firstRecord[holder] = k
    else {
      while (r.nextOfTransfer.values[tail]! >= 0) tail = r.nextOfTransfer.values[tail]!
      r.nextOfTransfer.values[tail] = k
    }
    const last = this.lastOfVault.get(vault)
    if (last < 0) this.firstOfVault.set(vault, k)
    else r.nextOfVault.values[last] = k
    this.lastOfVault.set(vault, k)
  }

  apply(event: StoredOf<(typeof transactionsFoldTypes)[number]>): void {
    switch (event.type) {
      case "ChainTxSubmitted": {
        if (event.data.kind === "withdrawal") {
          const request = this.txRequests.byTransactionId.get(event.data.transactionId)
          const row = this.chains.submittedAt(event.position, event.data.transactionId)
          if (request === undefined || row < 0) return
          const [blockchain, network] = this.chains.names(this.chains.rows.chain.values[row]!)
          const sender = request.draft.vaultId
          const receivers = request.draft.recipients
            .map((r) => this.holdings.addressInLog(blockchain, network, r.address))
            .filter((a, i) => a?.assets.has(request.draft.recipients[i]!.assetId ?? request.draft.assetId) === true)
          const internal =
            receivers.length === 0 ? null : receivers.some((a) => a!.facts.vaultId === sender) ? "vault-internal" : "client-internal"
          this.add(sender, "outgoing", row, "broadcasted", event.position, internal)
          for (const a of receivers)
            if (a!.facts.vaultId !== sender) this.add(a!.facts.vaultId, "incoming", row, "pending", event.position, "client-internal")
          return
        }
        const row = this.chains.submittedAt(event.position, event.data.transactionId)
        if (row < 0) return
        const [blockchain, network] = this.chains.names(this.chains.rows.chain.values[row]!)
        const address = this.holdings.addressInLog(blockchain, network, event.data.to)
        if (address === undefined) return
        if (address.assets.has(event.data.assetId)) this.add(address.facts.vaultId, "incoming", row, "pending", event.position)
        else {
          const key = `${addressKey(blockchain, network, event.data.to)}|${event.data.assetId}`
          const list = this.waiting.get(key)
          if (list === undefined) this.waiting.set(key, [row])
          else list.push(row)
        }
        return
      }
      case "AssetAdded": {
        const key = `${addressKey(event.data.blockchain, event.data.network, event.data.address)}|${event.data.assetId}`
        for (const row of this.waiting.get(key) ?? []) {
          const holder = this.chains.byIdOfRow(row)
          this.add(event.data.vaultId, "incoming", row, "pending", event.position, null, holder < 0 ? row : holder)
        }
        this.waiting.delete(key)
        return
      }
      case "TxRequestMined": {
        const k = this.findRow(event.data.vaultId, event.data.transactionId)
        if (k >= 0) this.setStatus(k, event.position, event.data.withErrors ? "failed" : "mined")
        if (event.data.withErrors) {
          const vault = this.chains.strings.find(event.data.vaultId)
          for (const r of this.byTx(event.data.transactionId))
            if (this.records.vault.values[r] !== vault) this.setStatus(r, event.position, "failed")
        }
        return
      }
      case "TxRequestSucceeded": {
        const request = this.txRequests.byId.get(event.data.requestId)
        const k = request === undefined ? -1 : this.findRow(event.data.vaultId, request.draft.transactionId)
        if (k >= 0) this.setStatus(k, event.position, "completed")
        return
      }
      case "DepositCredited": {
        const k = this.findRow(event.data.vaultId, event.data.transactionId)
        // An internal transfer within one vault keeps its outgoing record; its completion is the request's success.
        if (k >= 0 && (this.records.kind.values[k]! & OUTGOING) === 0) this.setStatus(k, event.position, "confirmed")
        return
      }
      default:
        return
    }
  }
}
