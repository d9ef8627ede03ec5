// All read models of the simulator, fed one event at a time in position order; each event reaches only the
// folds that handle its type (a rebuild of a million events asks one Map per event, not nine switches).
import type { RecordedEvent } from "../store/event-store.js"
import { AddressKeys } from "./address-keys.js"
import { ChainsModel, chainsFoldTypes } from "./chains.js"
import { HoldingsModel, holdingsFoldTypes } from "./holdings.js"
import { OutboxModel, outboxFoldTypes } from "./outbox.js"
import { applyLedger, ledgerFoldTypes } from "./ledger.js"
import { TxRequestsModel, txRequestsFoldTypes } from "./transaction-requests.js"
import { TransactionsModel, transactionsFoldTypes } from "./transactions.js"
import { UtxosModel, utxosFoldTypes } from "./utxos.js"
import { SettingsModel, settingsFoldTypes } from "./settings.js"
import { Timeline } from "./timeline.js"
import { TronModel, tronFoldTypes } from "./tron.js"
import { WorkspaceModel, workspaceFoldTypes } from "./workspace.js"
import { cloneGraph } from "./clone-graph.js"

type Fold = (event: RecordedEvent) => void

/** The models' state at one position, detached from the live models (a snapshot keeps one to revert to). */
export interface ModelsImage {
  readonly position: bigint
  readonly parts: ModelParts
}

interface ModelParts {
  keys: AddressKeys
  timeline: Timeline
  workspace: WorkspaceModel
  holdings: HoldingsModel
  settings: SettingsModel
  chains: ChainsModel
  txRequests: TxRequestsModel
  transactions: TransactionsModel
  outbox: OutboxModel
  utxos: UtxosModel
  tron: TronModel
  lastSeq: number
}

export class ReadModels {
  // Not readonly: a revert installs another image of them (restore); the folds below look them up on `this`.
  private keys = new AddressKeys()
  timeline = new Timeline()
  workspace = new WorkspaceModel()
  holdings = new HoldingsModel(this.workspace, this.keys)
  settings = new SettingsModel()
  chains = new ChainsModel(this.keys)
  txRequests = new TxRequestsModel()
  transactions = new TransactionsModel(this.holdings, this.chains, this.txRequests)
  outbox = new OutboxModel()
  utxos = new UtxosModel()
  tron = new TronModel()
  private readonly extra: Array<Fold> = []
  /** Event type → the folds that handle it, in the order the models are listed above (later ones read earlier ones). */
  private readonly routes = new Map<string, Array<Fold>>()

  constructor() {
    const route = (types: ReadonlyArray<string>, fold: Fold) => {
      for (const type of types) {
        const folds = this.routes.get(type)
        if (folds === undefined) this.routes.set(type, [fold])
        else folds.push(fold)
      }
    }
    route(workspaceFoldTypes, (e) => this.workspace.apply(e))
    route(holdingsFoldTypes, (e) => this.holdings.apply(e))
    route(settingsFoldTypes, (e) => this.settings.apply(e))
    route(chainsFoldTypes, (e) => this.chains.apply(e))
    route(ledgerFoldTypes, (e) => applyLedger(this.holdings, e))
    route(txRequestsFoldTypes, (e) => this.txRequests.apply(e))
    route(transactionsFoldTypes, (e) => this.transactions.apply(e))
    route(outboxFoldTypes, (e) => this.outbox.apply(e))
    route(utxosFoldTypes, (e) => this.utxos.apply(e))
    route(tronFoldTypes, (e) => this.tron.apply(e))
  }

  /** Registers another fold, fed every event; read models that depend on others register in the composition root. */
  register(apply: Fold): void {
    this.extra.push(apply)
  }

  /** Highest Ids sequence recorded in metadata: a restarted simulator continues after it. */
  lastSeq = 0

  apply(event: RecordedEvent): void {
    const seq = event.metadata.seq
    if (typeof seq === "number" && seq > this.lastSeq) this.lastSeq = seq
    this.timeline.record(event)
    const folds = this.routes.get(event.type)
    if (folds !== undefined) for (let i = 0; i < folds.length; i++) folds[i]!(event)
    for (let i = 0; i < this.extra.length; i++) this.extra[i]!(event)
  }

  get position(): bigint {
    return this.timeline.head
  }

  /** A deep copy of every model (cross-model references kept), detached from these live models. */
  capture(): ModelsImage {
    const { keys, timeline, workspace, holdings, settings, chains, txRequests, transactions, outbox, utxos, tron, lastSeq } = this
    const parts = cloneGraph<ModelParts>({ keys, timeline, workspace, holdings, settings, chains, txRequests, transactions, outbox, utxos, tron, lastSeq })
    parts.outbox.listen(undefined)
    return { position: this.position, parts }
  }

  /** Makes an image the live models; the image is used up (the models go on mutating it). */
  restore(image: ModelsImage): void {
    Object.assign(this, image.parts)
  }

  /** Back to no event at all (before a rebuild from the log). */
  clear(): void {
    this.restore(new ReadModels().capture())
  }
}
