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
  readonly view: TransferView
  readonly status: History<TxStatus>
  readonly position: bigint
}

export class TransactionsModel {
  private readonly byVault = new Map<string, CreationOrder<TxRecord>>()
  private readonly byVaultTx = new Map<string, TxRecord>()
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

  find(vaultId: string, transactionId: string, asOf: AsOf): TxRecord | undefined {
    const r = this.byVaultTx.get(`${vaultId}|${transactionId}`)
    return r !== undefined && (asOf === undefined || r.position <= asOf) ? r : undefined
  }

  private add(vaultId: string, direction: TxRecord["direction"], view: TransferView, status: TxStatus, position: bigint): void {
    const key = `${vaultId}|${view.transfer.transactionId}`
    if (this.byVaultTx.has(key)) return
    const record: TxRecord = { vaultId, direction, view, status: new History(), position }
    record.status.set(position, status)
    this.byVaultTx.set(key, record)
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
          if (request !== undefined && view !== undefined) this.add(request.draft.vaultId, "outgoing", view, "broadcasted", event.position)
          return
        }
        const view = this.chains.transfers.get(e.data.transactionId)
        const [blockchain, network] = [view?.blockchain ?? "", view?.network ?? ""]
        const address = this.holdings.address(blockchain, network, e.data.to, undefined)
        if (view === undefined || address === undefined) return
        if (address.assets.has(e.data.assetId)) this.add(address.facts.vaultId, "incoming", view, "pending", event.position)
        else {
          const key = `${addressKey(blockchain, network, e.data.to)}|${e.data.assetId}`
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
        return
      case "TxRequestSucceeded": {
        const request = this.txRequests.byId.get(e.data.requestId)
        if (request !== undefined) this.find(e.data.vaultId, request.draft.transactionId, undefined)?.status.set(event.position, "completed")
        return
      }
      case "DepositCredited":
        this.find(e.data.vaultId, e.data.transactionId, undefined)?.status.set(event.position, "confirmed")
        return
      default:
        return
    }
  }
}
