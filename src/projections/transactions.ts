// Transactions read model (endpoints #13, #14): per vault, the transfers it can see, with status over time.
import type { LedgerEvent } from "../domain/ledger/index.js"
import { addressKey, type VaultAccountEvent } from "../domain/vault-account/index.js"
import type { ChainEvent } from "../chain-sim/index.js"
import type { TxRequestEvent } from "../domain/transaction-request/index.js"
import type { StoredOf } from "../events/stored-event.js"
import type { TxRequestsModel } from "./transaction-requests.js"
import type { ChainsModel, TransferView, TxRecord, TxStatus } from "./chains.js"
import { CreationOrder, History } from "./history.js"
import type { HoldingsModel } from "./holdings.js"
import type { AsOf } from "./projection.js"

export type { TxRecord, TxStatus } from "./chains.js"

export const transactionsFoldTypes = ["ChainTxSubmitted", "AssetAdded", "TxRequestMined", "TxRequestSucceeded", "DepositCredited"] as const satisfies ReadonlyArray<
  (ChainEvent | VaultAccountEvent | LedgerEvent | TxRequestEvent)["type"]
>

/**
 * A record is its own status history: one allocation per record instead of two. It was listed with its first
 * status, so the position it was listed at is that of its history's first entry (not a field of its own).
 */
export class Listed extends History<TxStatus> implements TxRecord {
  constructor(
    readonly vaultId: string,
    readonly direction: TxRecord["direction"],
    readonly internal: TxRecord["internal"],
    readonly view: TransferView,
    position: bigint,
    status: TxStatus,
  ) {
    super()
    this.set(position, status)
  }

  get status(): History<TxStatus> {
    return this
  }

  get position(): bigint {
    return this.firstAt()!
  }
}

const recordOf = (records: TransferView["txRecords"], vaultId: string): TxRecord | undefined => {
  if (records === undefined) return undefined
  if (!Array.isArray(records)) return records.vaultId === vaultId ? records : undefined
  for (const r of records) if (r.vaultId === vaultId) return r
  return undefined
}

export class TransactionsModel {
  private readonly byVault = new Map<string, CreationOrder<TxRecord>>()
  /** Deposits to a vault address that does not hold the asset yet: listed once it is added (the spec's rule). */
  private readonly waiting = new Map<string, Array<TransferView>>()

  constructor(
    private readonly holdings: HoldingsModel,
    private readonly chains: ChainsModel,
    private readonly txRequests: TxRequestsModel,
  ) {}

  list(vaultId: string, asOf: AsOf): ReadonlyArray<TxRecord> {
    return this.byVault.get(vaultId)?.upTo(asOf) ?? []
  }

  /** The records of a transaction, one per vault that lists it (kept on the chains model's view of the transfer). */
  private byTx(transactionId: string): ReadonlyArray<TxRecord> {
    const records = this.chains.transfers.get(transactionId)?.txRecords
    return records === undefined ? [] : Array.isArray(records) ? records : [records]
  }

  find(vaultId: string, transactionId: string, asOf: AsOf): TxRecord | undefined {
    const r = recordOf(this.chains.transfers.get(transactionId)?.txRecords, vaultId)
    return r !== undefined && (asOf === undefined || r.position <= asOf) ? r : undefined
  }

  /** `holder` is the view the chains model now keeps under the transaction's id (`view` itself unless it was submitted again). */
  private add(vaultId: string, direction: TxRecord["direction"], view: TransferView, status: TxStatus, position: bigint, internal: TxRecord["internal"] = null, holder = view): void {
    const records = holder.txRecords
    if (recordOf(records, vaultId) !== undefined) return
    const record = new Listed(vaultId, direction, internal, view, position, status)
    if (records === undefined) holder.txRecords = record
    else if (Array.isArray(records)) records.push(record)
    else holder.txRecords = [records, record]
    let list = this.byVault.get(vaultId)
    if (list === undefined) this.byVault.set(vaultId, (list = new CreationOrder()))
    list.push(position, record)
  }

  apply(event: StoredOf<(typeof transactionsFoldTypes)[number]>): void {
    switch (event.type) {
      case "ChainTxSubmitted": {
        if (event.data.kind === "withdrawal") {
          const request = this.txRequests.byTransactionId.get(event.data.transactionId)
          const view = this.chains.submittedAt(event.position, event.data.transactionId)
          if (request === undefined || view === undefined) return
          const sender = request.draft.vaultId
          const receivers = request.draft.recipients
            .map((r) => this.holdings.addressInLog(view.blockchain, view.network, r.address))
            .filter((a, i) => a !== undefined && a.assets.has(request.draft.recipients[i]!.assetId ?? request.draft.assetId))
          const internal = receivers.length === 0 ? null : receivers.some((a) => a!.facts.vaultId === sender) ? "vault-internal" : "client-internal"
          this.add(sender, "outgoing", view, "broadcasted", event.position, internal)
          for (const a of receivers) if (a!.facts.vaultId !== sender) this.add(a!.facts.vaultId, "incoming", view, "pending", event.position, "client-internal")
          return
        }
        const view = this.chains.submittedAt(event.position, event.data.transactionId)
        if (view === undefined) return
        const address = this.holdings.addressInLog(view.blockchain, view.network, event.data.to)
        if (address === undefined) return
        if (address.assets.has(event.data.assetId)) this.add(address.facts.vaultId, "incoming", view, "pending", event.position)
        else {
          const key = `${addressKey(view.blockchain, view.network, event.data.to)}|${event.data.assetId}`
          const list = this.waiting.get(key)
          if (list === undefined) this.waiting.set(key, [view])
          else list.push(view)
        }
        return
      }
      case "AssetAdded": {
        const key = `${addressKey(event.data.blockchain, event.data.network, event.data.address)}|${event.data.assetId}`
        for (const view of this.waiting.get(key) ?? [])
          this.add(event.data.vaultId, "incoming", view, "pending", event.position, null, this.chains.transfers.get(view.transfer.transactionId) ?? view)
        this.waiting.delete(key)
        return
      }
      case "TxRequestMined":
        this.find(event.data.vaultId, event.data.transactionId, undefined)?.status.set(event.position, event.data.withErrors ? "failed" : "mined")
        if (event.data.withErrors)
          for (const r of this.byTx(event.data.transactionId)) if (r.vaultId !== event.data.vaultId) r.status.set(event.position, "failed")
        return
      case "TxRequestSucceeded": {
        const request = this.txRequests.byId.get(event.data.requestId)
        if (request !== undefined) this.find(event.data.vaultId, request.draft.transactionId, undefined)?.status.set(event.position, "completed")
        return
      }
      case "DepositCredited": {
        const r = this.find(event.data.vaultId, event.data.transactionId, undefined)
        // An internal transfer within one vault keeps its outgoing record; its completion is the request's success.
        if (r !== undefined && r.direction === "incoming") r.status.set(event.position, "confirmed")
        return
      }
      default:
        return
    }
  }
}
