// All read models of the simulator, fed one event at a time in position order.
import type { RecordedEvent } from "../store/event-store.js"
import { ChainsModel } from "./chains.js"
import { HoldingsModel } from "./holdings.js"
import { OutboxModel } from "./outbox.js"
import { applyLedger } from "./ledger.js"
import { TxRequestsModel } from "./transaction-requests.js"
import { TransactionsModel } from "./transactions.js"
import { SettingsModel } from "./settings.js"
import { Timeline } from "./timeline.js"
import { WorkspaceModel } from "./workspace.js"

export class ReadModels {
  readonly timeline = new Timeline()
  readonly workspace = new WorkspaceModel()
  readonly holdings = new HoldingsModel(this.workspace)
  readonly settings = new SettingsModel()
  readonly chains = new ChainsModel()
  readonly txRequests = new TxRequestsModel()
  readonly transactions = new TransactionsModel(this.holdings, this.chains, this.txRequests)
  readonly outbox = new OutboxModel()
  private readonly extra: Array<(event: RecordedEvent) => void> = []

  /** Registers another fold; read models that depend on others register in the composition root. */
  register(apply: (event: RecordedEvent) => void): void {
    this.extra.push(apply)
  }

  /** Highest Ids sequence recorded in metadata: a restarted simulator continues after it. */
  lastSeq = 0

  apply(event: RecordedEvent): void {
    const seq = event.metadata.seq
    if (typeof seq === "number" && seq > this.lastSeq) this.lastSeq = seq
    this.timeline.record(event)
    this.workspace.apply(event)
    this.holdings.apply(event)
    this.settings.apply(event)
    this.chains.apply(event)
    applyLedger(this.holdings, event)
    this.txRequests.apply(event)
    this.transactions.apply(event)
    this.outbox.apply(event)
    for (const f of this.extra) f(event)
  }

  get position(): bigint {
    return this.timeline.head
  }
}
