// What the façades read of one chain, kept: every transaction by id, row and block, the mempool, each address's
// transactions, balances and sent counts as running totals by height, and the Transfer logs by contract and topic.
// Kept beside the chains read model it was read from (a WeakMap keyed by that object: a revert, a reset or a replay
// installs another, and with it another cache) and brought up to date at each read from what the model appended
// since (rows submitted, rows mined). What it cannot bring up to date in order (a block below one already read, an
// id submitted again, a withdrawal's fee recorded other than the transfer's) it rebuilds from the model.
import { chainKey } from "../../chain-sim/index.js"
import type { NetworkInfo } from "../../domain/chains/index.js"
import type { ChainsModel } from "../../projections/chains.js"
import type { TxRequestsModel } from "../../projections/transaction-requests.js"
import { transferTopics, uintWord } from "./erc20.js"
import { type ChainTx, type EvmLog, legsOf, payerOf } from "./chain-tx.js"
import { Steps } from "./steps.js"
import { type UtxoTx, utxoTx } from "./utxo-tx.js"

type Rec = { -readonly [K in keyof ChainTx]: ChainTx[K] } & { logs: Array<EvmLog>; utxo: UtxoTx | undefined }

const quantity = (n: number): string => `0x${n.toString(16)}`

export class ChainCache {
  rowsSeen = 0
  minedDepositsSeen = 0
  minedWithdrawalsSeen = 0
  readonly byRow = new Map<number, Rec>()
  readonly byId = new Map<string, Rec>()
  /** The mempool, in the order submitted. */
  readonly pending = new Map<number, Rec>()
  readonly blocks = new Map<number, Array<Rec>>()
  /** The heights of blocks that hold transactions, ascending. */
  readonly heights: Array<number> = []
  readonly hashes = new Map<string, number>()
  /** Address (as `key` writes it) → the transactions it sends, receives or pays for, in the order submitted. */
  readonly byAddress = new Map<string, Array<Rec>>()
  /** `address contract` (contract "" for the coin) → its balance by height, fees paid included. */
  readonly balances = new Map<string, Steps>()
  /** Contract → what deposits brought in, by height. */
  readonly supply = new Map<string, Steps>()
  /** Sender → transactions mined by height; and those in the mempool; and all it submitted. */
  readonly sentMined = new Map<string, Steps>()
  readonly sentPending = new Map<string, number>()
  readonly sentAll = new Map<string, number>()
  /** Every mined log in block order, its height, and the logs (their indices) by `a<contract>` and `<n><topic n>`. */
  readonly logs: Array<EvmLog> = []
  /** Each log as UTF-8 JSON, written once. */
  readonly logJson: Array<Uint8Array> = []
  readonly logHeights: Array<number> = []
  readonly logsBy = new Map<string, Array<number>>()
  /** eth_getLogs answers kept for the next poll (log-query.ts), by range of logs and filter, least recently read first. */
  readonly answers = new Map<string, Uint8Array>()
  answerBytes = 0
  /** Withdrawals whose fee the custody API has not recorded yet. */
  readonly unsettled = new Set<Rec>()

  constructor(
    readonly network: NetworkInfo,
    readonly requests: TxRequestsModel,
  ) {}

  /** How the cache writes an address: EVM addresses in lower case, the others as given. */
  key(address: string): string {
    return this.network.family === "evm" ? address.toLowerCase() : address
  }
}

const pushTo = <K, V>(m: Map<K, Array<V>>, k: K, v: V): void => {
  const list = m.get(k)
  if (list === undefined) m.set(k, [v])
  else list.push(v)
}
const stepsOf = (m: Map<string, Steps>, k: string): Steps => {
  let s = m.get(k)
  if (s === undefined) m.set(k, (s = new Steps()))
  return s
}

const addressesOf = (c: ChainCache, r: Rec): ReadonlySet<string> => {
  const out = new Set<string>([c.key(r.transfer.from), c.key(payerOf(r.transfer))])
  for (const leg of legsOf(r.transfer)) out.add(c.key(leg.to))
  out.add(c.key(r.transfer.to))
  if (r.utxo !== undefined) {
    for (const i of r.utxo.vin) out.add(i.prevout.address)
    for (const o of r.utxo.vout) out.add(o.address)
  }
  return out
}

const submitted = (c: ChainCache, chains: ChainsModel, row: number): boolean => {
  const transfer = chains.view(row).transfer
  const id = transfer.transactionId.toLowerCase()
  if (c.byId.has(id)) return false
  const recorded = transfer.kind === "withdrawal" ? c.requests.byTransactionId.get(transfer.transactionId)?.mined : undefined
  const payer = c.key(payerOf(transfer))
  const nonce = c.sentAll.get(payer) ?? 0
  c.sentAll.set(payer, nonce + 1)
  c.sentPending.set(payer, (c.sentPending.get(payer) ?? 0) + 1)
  const r: Rec = {
    row,
    transfer,
    height: undefined,
    blockHash: undefined,
    blockAt: undefined,
    index: undefined,
    fee: BigInt(recorded?.fee ?? transfer.fee),
    submittedAt: chains.rows.submittedAt.values[row]!,
    nonce,
    logs: [],
    utxo: undefined,
  }
  if (c.network.family === "utxo") r.utxo = utxoTx(c.requests, r)
  if (transfer.kind === "withdrawal" && recorded === undefined) c.unsettled.add(r)
  c.byRow.set(row, r)
  c.byId.set(id, r)
  c.pending.set(row, r)
  for (const a of addressesOf(c, r)) pushTo(c.byAddress, a, r)
  return true
}

const indexLog = (c: ChainCache, log: EvmLog, height: number): void => {
  const i = c.logs.length
  c.logs.push(log)
  c.logJson.push(Buffer.from(JSON.stringify(log)))
  c.logHeights.push(height)
  pushTo(c.logsBy, `a${log.address}`, i)
  log.topics.forEach((t, n) => {
    pushTo(c.logsBy, `${n}${t.toLowerCase()}`, i)
  })
}

/** Records a transaction mined; false when it is out of order (below the highest block read, or before a row of its block). */
const mined = (c: ChainCache, chains: ChainsModel, r: Rec): boolean => {
  const rows = chains.rows
  const height = rows.minedHeight.values[r.row]!
  const top = c.heights[c.heights.length - 1]
  const block = c.blocks.get(height)
  if ((top !== undefined && height < top) || (block !== undefined && block[block.length - 1]!.row > r.row)) return false
  r.height = height
  r.blockHash = chains.text.at(rows.minedHash.values[r.row]!)
  r.blockAt = rows.minedBlockAt.values[r.row]!
  r.index = block?.length ?? 0
  if (block === undefined) {
    c.blocks.set(height, [r])
    c.heights.push(height)
    c.hashes.set(r.blockHash.toLowerCase(), height)
  } else block.push(r)
  c.pending.delete(r.row)
  const t = r.transfer
  const payer = c.key(payerOf(t))
  c.sentPending.set(payer, c.sentPending.get(payer)! - 1)
  stepsOf(c.sentMined, payer).add(height, 1n)
  stepsOf(c.balances, `${payer} `).add(height, -r.fee)
  const evm = c.network.family === "evm"
  let first = 0
  if (evm) for (const other of block ?? []) first += other.logs.length
  for (const leg of legsOf(t)) {
    const contract = leg.contract ?? ""
    stepsOf(c.balances, `${c.key(leg.to)} ${contract}`).add(height, leg.amount)
    stepsOf(c.balances, `${c.key(leg.from)} ${contract}`).add(height, -leg.amount)
    if (t.kind === "deposit" && leg.contract !== undefined) stepsOf(c.supply, leg.contract).add(height, leg.amount)
    if (!evm || leg.contract === undefined) continue
    const log: EvmLog = {
      address: leg.contract,
      topics: transferTopics(leg.from.toLowerCase(), leg.to.toLowerCase()),
      data: uintWord(leg.amount),
      blockNumber: quantity(height),
      blockHash: r.blockHash,
      transactionHash: t.transactionId,
      transactionIndex: quantity(r.index),
      logIndex: quantity(first + r.logs.length),
      removed: false,
    }
    r.logs.push(log)
    indexLog(c, log, height)
  }
  return true
}

/** Brings the cache up to date with the model; false when it must be rebuilt. */
const update = (c: ChainCache, chains: ChainsModel, chainRef: number): boolean => {
  for (const r of c.unsettled) {
    const recorded = c.requests.byTransactionId.get(r.transfer.transactionId)?.mined
    if (recorded === undefined) continue
    if (BigInt(recorded.fee) !== r.fee) return false
    c.unsettled.delete(r)
  }
  const rows = chains.rows
  for (; c.rowsSeen < rows.length; c.rowsSeen++) {
    const row = c.rowsSeen
    if (rows.chain.values[row] !== chainRef) continue
    // A row kept under its id no more was submitted again later: that later row is the transaction.
    if (chains.byIdOfRow(row) !== row) continue
    if (!submitted(c, chains, row)) return false
  }
  const view = chains.chain(chainKey(c.network.blockchain, c.network.network))
  if (view === undefined) return true
  const fresh = new Set<Rec>()
  const take = (list: { readonly rows: { readonly length: number; readonly values: ArrayLike<number> } }, from: number): number => {
    for (let i = from; i < list.rows.length; i++) {
      const r = c.byRow.get(list.rows.values[i]!)
      if (r !== undefined && r.height === undefined) fresh.add(r)
    }
    return list.rows.length
  }
  c.minedDepositsSeen = take(view.minedDeposits, c.minedDepositsSeen)
  c.minedWithdrawalsSeen = take(view.minedWithdrawals, c.minedWithdrawalsSeen)
  const inOrder = [...fresh].sort((a, b) => rows.minedHeight.values[a.row]! - rows.minedHeight.values[b.row]! || a.row - b.row)
  for (const r of inOrder) if (!mined(c, chains, r)) return false
  return true
}

const caches = new WeakMap<ChainsModel, Map<string, ChainCache>>()

/** The chain's cache, up to date with the chains and transaction-request read models as they are now. */
export const chainCache = (chains: ChainsModel, requests: TxRequestsModel, n: NetworkInfo): ChainCache => {
  let byChain = caches.get(chains)
  if (byChain === undefined) caches.set(chains, (byChain = new Map()))
  const key = chainKey(n.blockchain, n.network)
  const chainRef = chains.strings.find(key)
  let c = byChain.get(key)
  if (c === undefined || c.requests !== requests || !update(c, chains, chainRef)) {
    c = new ChainCache(n, requests)
    byChain.set(key, c)
    // A fresh cache meets no id twice but those the model itself keeps twice (rows not the latest are passed over).
    if (!update(c, chains, chainRef)) throw new Error(`the chain view of ${key} cannot be read in order`)
  }
  return c
}
