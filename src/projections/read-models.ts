// All read models of the simulator, fed one event at a time in position order; each event reaches only the
// folds that handle its type (a rebuild of a million events asks one Map per event, not nine switches).
import type { EventType, StoredOf } from "../events/stored-event.js"
import type { RecordedEvent } from "../store/event-store.js"
import { AddressKeys } from "./address-keys.js"
import { ChainsModel, chainsFoldTypes } from "./chains.js"
import { HoldingsModel, holdingsFoldTypes } from "./balances/holdings.js"
import { OutboxModel, outboxFoldTypes } from "./outbox.js"
import { applyLedger, ledgerFoldTypes } from "./balances/ledger.js"
import { TxRequestsModel, txRequestsFoldTypes } from "./transaction-requests.js"
import { TransactionsModel, transactionsFoldTypes } from "./transactions.js"
import { UtxosModel, utxosFoldTypes } from "./utxos.js"
import { SettingsModel, settingsFoldTypes } from "./settings.js"
import { FaultsModel, faultsFoldTypes } from "./faults.js"
import { Timeline } from "./timeline.js"
import { TronModel, tronFoldTypes } from "./tron.js"
import { SettledDeposits, settledDepositsFoldTypes } from "./settled-deposits.js"
import { WorkspaceModel, workspaceFoldTypes } from "./workspace.js"
import { cloneGraph } from "./storage/clone-graph.js"
import { BalanceHistory } from "./balances/histories.js"
import { TransferList, TransferRows } from "./chains-transfers.js"
import { ChainStates } from "./chains-state.js"
import { IntColumn, NumberColumn, RowByString, StringTable } from "./storage/columns.js"
import { CreationOrder, History, Once } from "./storage/history.js"
import { RecordRows } from "./transactions.js"
import { classRegistry, CorruptGraph, decodeGraph, encodeGraph, type EncodedGraph, type LoadedGraph } from "./storage/graph-codec.js"

type Fold = (event: RecordedEvent) => void

/** Fields of ReadModels that wire events to the folds: code, not state. */
const routing = new Set(["routes", "extra"])

/** The models' state at one position, detached from the live models (a snapshot keeps one to revert to). */
export interface ModelsImage {
  readonly position: bigint
  readonly parts: ModelParts
}

/**
 * Every class whose instances the models hold: a checkpoint records instances by class name and gives them their
 * prototype back. A model that keeps instances of a class not listed here cannot be saved (the checkpoint tests
 * fail), so a new class is added here with the model.
 */
export const modelClasses = classRegistry([
  AddressKeys,
  Timeline,
  WorkspaceModel,
  HoldingsModel,
  BalanceHistory,
  SettingsModel,
  FaultsModel,
  ChainsModel,
  TransferRows,
  TransferList,
  ChainStates,
  StringTable,
  IntColumn,
  NumberColumn,
  RowByString,
  TxRequestsModel,
  TransactionsModel,
  RecordRows,
  OutboxModel,
  UtxosModel,
  TronModel,
  SettledDeposits,
  History,
  Once,
  CreationOrder,
])

interface ModelParts {
  keys: AddressKeys
  timeline: Timeline
  workspace: WorkspaceModel
  holdings: HoldingsModel
  settings: SettingsModel
  faults: FaultsModel
  chains: ChainsModel
  txRequests: TxRequestsModel
  transactions: TransactionsModel
  outbox: OutboxModel
  utxos: UtxosModel
  tron: TronModel
  settledDeposits: SettledDeposits
  lastSeq: number
  lastEpoch: number
}

export class ReadModels {
  // Not readonly: a revert installs another image of them (restore); the folds below look them up on `this`.
  private keys = new AddressKeys()
  timeline = new Timeline()
  workspace = new WorkspaceModel()
  holdings = new HoldingsModel(this.workspace, this.keys)
  settings = new SettingsModel()
  faults = new FaultsModel()
  chains = new ChainsModel(this.keys)
  txRequests = new TxRequestsModel()
  transactions = new TransactionsModel(this.holdings, this.chains, this.txRequests)
  outbox = new OutboxModel()
  utxos = new UtxosModel()
  tron = new TronModel()
  /** Per chain, how far its mined deposits are all credited (where the deposit process manager's walk starts). */
  settledDeposits = new SettledDeposits(this.chains)
  private readonly extra: Array<Fold> = []
  /** Event type → the folds that handle it, in the order the models are listed above (later ones read earlier ones). */
  private readonly routes = new Map<string, Array<Fold>>()

  constructor() {
    // The routing is the decoding: a fold is handed only events of the types it lists, so it receives them with
    // their data typed by their type (events/stored-event.ts says why the data is trusted).
    const route = <T extends EventType>(types: ReadonlyArray<T>, fold: (event: StoredOf<T>) => void) => {
      for (const type of types) {
        const folds = this.routes.get(type)
        if (folds === undefined) this.routes.set(type, [fold as unknown as Fold])
        else folds.push(fold as unknown as Fold)
      }
    }
    route(workspaceFoldTypes, (e) => this.workspace.apply(e))
    route(holdingsFoldTypes, (e) => this.holdings.apply(e))
    route(settingsFoldTypes, (e) => this.settings.apply(e))
    route(faultsFoldTypes, (e) => this.faults.apply(e))
    route(chainsFoldTypes, (e) => this.chains.apply(e))
    route(ledgerFoldTypes, (e) => applyLedger(this.holdings, e))
    route(txRequestsFoldTypes, (e) => this.txRequests.apply(e))
    route(transactionsFoldTypes, (e) => this.transactions.apply(e))
    route(outboxFoldTypes, (e) => this.outbox.apply(e))
    route(utxosFoldTypes, (e) => this.utxos.apply(e))
    route(tronFoldTypes, (e) => this.tron.apply(e))
    route(settledDepositsFoldTypes, (e) => this.settledDeposits.apply(e))
  }

  /** Registers another fold, fed every event; read models that depend on others register in the composition root. */
  register(apply: Fold): void {
    this.extra.push(apply)
  }

  /** Highest Ids sequence recorded in metadata: a restarted simulator continues after it. */
  lastSeq = 0
  /** Highest epoch recorded in metadata (src/adapters/ids.ts): a restarted or replayed simulator goes on in it. */
  lastEpoch = 0

  apply(event: RecordedEvent): void {
    // The metadata is read here once (its shape varies with the request that wrote the event): the folds after it
    // see one shape, the event's.
    const meta = event.metadata
    const seq = meta.seq
    if (typeof seq === "number" && seq > this.lastSeq) this.lastSeq = seq
    const epoch = meta.epoch
    if (typeof epoch === "number" && epoch > this.lastEpoch) this.lastEpoch = epoch
    this.timeline.record(event.position, meta.at)
    const folds = this.routes.get(event.type)
    if (folds !== undefined) for (let i = 0; i < folds.length; i++) folds[i]!(event)
    for (let i = 0; i < this.extra.length; i++) this.extra[i]!(event)
  }

  get position(): bigint {
    return this.timeline.head
  }

  /**
   * The models' state: what a snapshot copies and a checkpoint saves. Every field but the event routes, so a model
   * added as a field is in both without more ado (its classes go into `modelClasses`).
   */
  parts(): ModelParts {
    const parts: Record<string, unknown> = {}
    for (const key of Object.keys(this)) if (!routing.has(key)) parts[key] = (this as unknown as Record<string, unknown>)[key]
    return parts as unknown as ModelParts
  }

  /** A deep copy of every model (cross-model references kept), detached from these live models. */
  capture(): ModelsImage {
    const parts = cloneGraph(this.parts())
    parts.outbox.listen(undefined)
    return { position: this.position, parts }
  }

  /** Every model as flat columns (a checkpoint's payload); the delivery listener is wiring, not state, and stays out. */
  encode(): EncodedGraph {
    const listener = this.outbox.listen(undefined)
    // Columns are saved as they are: without the room they keep for growth, a decoded model encodes to the same bytes.
    this.chains.compact()
    this.transactions.compact()
    try {
      return encodeGraph(this.parts(), modelClasses)
    } finally {
      this.outbox.listen(listener)
    }
  }

  /** Makes the models those `encode` saved; throws (CorruptGraph, or a TypeError) on a damaged encoding, changing nothing. */
  load(encoded: EncodedGraph | LoadedGraph): void {
    const parts = decodeGraph(encoded, modelClasses) as ModelParts
    if (!(parts.timeline instanceof Timeline) || !(parts.outbox instanceof OutboxModel))
      throw new CorruptGraph("the encoding does not hold the models")
    this.restore({ position: parts.timeline.head, parts })
  }

  static decode(encoded: EncodedGraph | LoadedGraph): ReadModels {
    const models = new ReadModels()
    models.load(encoded)
    return models
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
