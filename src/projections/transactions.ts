// Transactions read model (endpoints #13, #14): per vault, the transfers it can see, with status over time.
import type { LedgerEvent } from "../domain/ledger/index.js"
import { addressKey, type VaultAccountEvent } from "../domain/vault-account/index.js"
import type { ChainEvent } from "../chain-sim/index.js"
import type { TxRequestEvent } from "../domain/transaction-request/index.js"
import type { RecordedEvent } from "../store/event-store.js"
import type { TxRequestsModel } from "./transaction-requests.js"
import type { ChainsModel, TransferView } from "./chains.js"
import { CreationOrder, History } from "./history.js"
import type { HoldingsModel } from "./holdings.js"
import type { AsOf } from "./projection.js"

/** Wire statuses of transactions (the spec gives examples, not the list; the README documents these). */
export type TxStatus = "pending" | "confirmed" | "broadcasted" | "mined" | "completed" | "failed"

export interface TxRecord {
  readonly vaultId: string
  readonly direction: "incoming" | "outgoing"
  /** Between addresses of this workspace: "vault-internal" within one vault, "client-internal" across vaults. */
  readonly internal: "vault-internal" | "client-internal" | null
  readonly view: TransferView
  readonly status: History<TxStatus>
  readonly position: bigint
}

export const transactionsFoldTypes = ["ChainTxSubmitted", "AssetAdded", "TxRequestMined", "TxRequestSucceeded", "DepositCredited"] as const satisfies ReadonlyArray<
  (ChainEvent | VaultAccountEvent | LedgerEvent | TxRequestEvent)["type"]
>

export class TransactionsModel {
  private readonly byVault = new Map<string, CreationOrder<TxRecord>>()
  /** vault id → transaction id → record (nested maps: no composite key built per lookup). */
  private readonly byVaultTx = new Map<string, Map<string, TxRecord>>()
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

  private byTx(transactionId: string): Array<TxRecord> {
    const out: Array<TxRecord> = []
    for (const txs of this.byVaultTx.values()) {
      const r = txs.get(transactionId)
      if (r !== undefined) out.push(r)
    }
    return out
  }

  find(vaultId: string, transactionId: string, asOf: AsOf): TxRecord | undefined {
    const r = this.byVaultTx.get(vaultId)?.get(transactionId)
    return r !== undefined && (asOf === undefined || r.position <= asOf) ? r : undefined
  }

  private add(vaultId: string, direction: TxRecord["direction"], view: TransferView, status: TxStatus, position: bigint, internal: TxRecord["internal"] = null): void {
    let txs = this.byVaultTx.get(vaultId)
    if (txs === undefined) this.byVaultTx.set(vaultId, (txs = new Map()))
    if (txs.has(view.transfer.transactionId)) return
    const record: TxRecord = { vaultId, direction, view, status: new History(), position, internal }
    record.status.set(position, status)
    txs.set(view.transfer.transactionId, record)
    let list = this.byVault.get(vaultId)
    if (list === undefined) this.byVault.set(vaultId, (list = new CreationOrder()))
    list.push(position, record)
  }

  apply(event: RecordedEvent): void {
    const e = event as unknown as ChainEvent | VaultAccountEvent | LedgerEvent | TxRequestEvent
    switch (e.type) {
      case "ChainTxSubmitted": {
        if (e.data.kind === "withdrawal") {
          const request = this.txRequests.byTransactionId.get(e.data.transactionId)
          const view = this.chains.transfers.get(e.data.transactionId)
          if (request === undefined || view === undefined) return
          const sender = request.draft.vaultId
          const receivers = request.draft.recipients
            .map((r) => this.holdings.addressInLog(view.blockchain, view.network, r.address))
            .filter((a) => a !== undefined && a.assets.has(request.draft.assetId))
          const internal = receivers.length === 0 ? null : receivers.some((a) => a!.facts.vaultId === sender) ? "vault-internal" : "client-internal"
          this.add(sender, "outgoing", view, "broadcasted", event.position, internal)
          for (const a of receivers) if (a!.facts.vaultId !== sender) this.add(a!.facts.vaultId, "incoming", view, "pending", event.position, "client-internal")
          return
        }
        const view = this.chains.transfers.get(e.data.transactionId)
        if (view === undefined) return
        const address = this.holdings.addressInLog(view.blockchain, view.network, e.data.to)
        if (address === undefined) return
        if (address.assets.has(e.data.assetId)) this.add(address.facts.vaultId, "incoming", view, "pending", event.position)
        else {
          const key = `${addressKey(view.blockchain, view.network, e.data.to)}|${e.data.assetId}`
          const list = this.waiting.get(key)
          if (list === undefined) this.waiting.set(key, [view])
          else list.push(view)
        }
        return
      }
      case "AssetAdded": {
        const key = `${addressKey(e.data.blockchain, e.data.network, e.data.address)}|${e.data.assetId}`
        for (const view of this.waiting.get(key) ?? []) this.add(e.data.vaultId, "incoming", view, "pending", event.position)
        this.waiting.delete(key)
        return
      }
      case "TxRequestMined":
        this.find(e.data.vaultId, e.data.transactionId, undefined)?.status.set(event.position, e.data.withErrors ? "failed" : "mined")
        if (e.data.withErrors)
          for (const r of this.byTx(e.data.transactionId)) if (r.vaultId !== e.data.vaultId) r.status.set(event.position, "failed")
        return
      case "TxRequestSucceeded": {
        const request = this.txRequests.byId.get(e.data.requestId)
        if (request !== undefined) this.find(e.data.vaultId, request.draft.transactionId, undefined)?.status.set(event.position, "completed")
        return
      }
      case "DepositCredited": {
        const r = this.find(e.data.vaultId, e.data.transactionId, undefined)
        // An internal transfer within one vault keeps its outgoing record; its completion is the request's success.
        if (r !== undefined && r.direction === "incoming") r.status.set(event.position, "confirmed")
        return
      }
      default:
        return
    }
  }
}
