// Chains read model: each chain's schedule and height over time, and every transfer with where it was mined.
import { heightAt, type ChainEvent, type ChainSchedule, type ChainTransfer } from "../chain-sim/index.js"
import type { StoredOf } from "../events/stored-event.js"
import type { AddressKeys } from "./address-keys.js"
import { History, Once } from "./history.js"
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

export interface Mined {
  readonly height: number
  readonly blockHash: string
  readonly blockAt: number
}

export interface TransferView {
  readonly chain: string
  readonly blockchain: string
  readonly network: string
  readonly transfer: ChainTransfer
  readonly submittedAt: number
  readonly position: bigint
  readonly mined: Once<Mined>
  /**
   * The transactions model's records of this transfer, one per vault that lists it (kept here: no second map by id);
   * the usual single record is held as it is, without an array.
   */
  txRecords: TxRecord | Array<TxRecord> | undefined
}

/**
 * Every field of a ChainTransfer, and only those: a view holds them itself (below). The type makes each one listed —
 * a field added to ChainTransfer fails to compile here until it is listed, and the view test checks that each listed
 * field is copied — so that no field is silently left behind.
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

/**
 * A transfer's view is its own `mined` record and its own transfer: a rebuild (and a restart from a checkpoint)
 * makes one object per transfer here, not three (the view, its Once, the event's data). Its position is kept as a
 * number (as History keeps positions: no bigint object per transfer). A field the event's data lacks is undefined
 * here: the transfer is read field by field, never spread or listed.
 */
export class Submitted extends Once<Mined> implements TransferView, ChainTransfer {
  readonly transactionId: string
  readonly recordId: string
  readonly kind: ChainTransfer["kind"]
  readonly assetId: string
  readonly from: string
  readonly to: string
  readonly amount: string
  readonly fee: string
  readonly feePayer: ChainTransfer["feePayer"]
  readonly calls: ChainTransfer["calls"]
  readonly operation: ChainTransfer["operation"]
  readonly vout: ChainTransfer["vout"]
  readonly failsInExecution: ChainTransfer["failsInExecution"]
  private readonly submittedPosition: number

  constructor(
    readonly chain: string,
    readonly blockchain: string,
    readonly network: string,
    t: ChainTransfer,
    readonly submittedAt: number,
    position: bigint,
    public txRecords: TxRecord | Array<TxRecord> | undefined,
  ) {
    super()
    this.transactionId = t.transactionId
    this.recordId = t.recordId
    this.kind = t.kind
    this.assetId = t.assetId
    this.from = t.from
    this.to = t.to
    this.amount = t.amount
    this.fee = t.fee
    this.feePayer = t.feePayer
    this.calls = t.calls
    this.operation = t.operation
    this.vout = t.vout
    this.failsInExecution = t.failsInExecution
    this.submittedPosition = Number(position)
  }

  get transfer(): ChainTransfer {
    return this
  }

  get position(): bigint {
    return BigInt(this.submittedPosition)
  }

  get mined(): Once<Mined> {
    return this
  }
}

export interface ChainView {
  readonly chain: string
  readonly blockchain: string
  readonly network: string
  /** Schedule and recorded height, as of each change. */
  readonly state: History<{ readonly schedule: ChainSchedule; readonly height: number }>
  /** Deposits in the order they were mined (the confirmation process manager walks this). */
  readonly minedDeposits: Array<TransferView>
  /** Withdrawals in the order they were mined (the withdrawal process manager walks this). */
  readonly minedWithdrawals: Array<TransferView>
}

export const chainsFoldTypes = ["ChainConfigured", "ChainTxSubmitted", "ChainBlocksMined"] as const satisfies ReadonlyArray<ChainEvent["type"]>

export class ChainsModel {
  readonly chains = new Map<string, ChainView>()
  readonly transfers = new Map<string, TransferView>()
  /** Deposits by destination (addressKey): the retroactive crediting looks here when an asset is added. */
  readonly depositsTo = new Map<string, Array<TransferView>>()

  private readonly names = new Map<string, readonly [string, string]>()
  /** The view made for the last ChainTxSubmitted: the transactions fold, next for that event, needs no lookup by id. */
  private lastSubmitted: TransferView | undefined = undefined

  constructor(private readonly keys: AddressKeys) {}

  private split(chain: string): readonly [string, string] {
    let n = this.names.get(chain)
    if (n === undefined) this.names.set(chain, (n = splitChain(chain)))
    return n
  }

  /** The view of the transfer the ChainTxSubmitted at `position` recorded (kept under its transaction id). */
  submittedAt(position: bigint, transactionId: string): TransferView | undefined {
    const last = this.lastSubmitted
    return last !== undefined && last.position === position ? last : this.transfers.get(transactionId)
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

  apply(event: StoredOf<(typeof chainsFoldTypes)[number]>): void {
    switch (event.type) {
      case "ChainConfigured": {
        const d = event.data
        const [blockchain, network] = this.split(d.chain)
        let c = this.chains.get(d.chain)
        if (c === undefined) this.chains.set(d.chain, (c = { chain: d.chain, blockchain, network, state: new History(), minedDeposits: [], minedWithdrawals: [] }))
        const prev = c.state.latest()
        c.state.set(event.position, {
          schedule: { mode: d.mode, intervalSeconds: d.intervalSeconds, confirmations: d.confirmations, anchorHeight: d.anchorHeight, anchorAt: d.anchorAt },
          height: Math.max(prev?.height ?? 0, d.anchorHeight),
        })
        return
      }
      case "ChainTxSubmitted": {
        // The view holds the transfer's fields: the event's data is not kept.
        const transfer: ChainTransfer = event.data
        const chain = event.data.chain
        const [blockchain, network] = this.split(chain)
        // A log written before submissions were taken once may name a transaction again: its records stay found by id.
        const txRecords = this.transfers.get(transfer.transactionId)?.txRecords
        const view = new Submitted(chain, blockchain, network, transfer, event.data.at, event.position, txRecords)
        this.transfers.set(transfer.transactionId, view)
        this.lastSubmitted = view
        if (transfer.kind === "deposit") {
          const key = this.keys.of(blockchain, network, transfer.to)
          const list = this.depositsTo.get(key)
          if (list === undefined) this.depositsTo.set(key, [view])
          else list.push(view)
        }
        return
      }
      case "ChainBlocksMined": {
        const d = event.data
        const c = this.chains.get(d.chain)
        const prev = c?.state.latest()
        if (c === undefined || prev === undefined) return
        c.state.set(event.position, { schedule: { ...prev.schedule, anchorHeight: d.toHeight, anchorAt: d.blockAt }, height: Math.max(prev.height, d.toHeight) })
        const blockAt = d.blockAt - (d.toHeight - d.fromHeight) * prev.schedule.intervalSeconds * 1000
        // One record of where they were mined, shared by the block's transfers (it is never changed).
        const mined: Mined = { height: d.fromHeight, blockHash: d.blockHash, blockAt: d.toHeight === d.fromHeight ? d.blockAt : blockAt }
        for (const id of d.transactionIds) {
          const t = this.transfers.get(id)
          if (t === undefined) continue
          t.mined.set(event.position, mined)
          if (t.transfer.kind === "deposit") c.minedDeposits.push(t)
          else c.minedWithdrawals.push(t)
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
