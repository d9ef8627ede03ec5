// One simulated chain as the façades read it: its transfers (the chains read model's rows, the latest of each
// transaction id), the block each was mined in, the mempool, and each block's hash and time. Made per request from
// the read models the custody API answers from, never kept: a revert or a reset shows at the next request.
import { sha256 } from "@noble/hashes/sha2.js"
import { keccak_256 } from "@noble/hashes/sha3.js"
import { chainKey, heightAt, type ChainTransfer } from "../../chain-sim/index.js"
import type { NetworkInfo } from "../../domain/chains/index.js"
import type { ApiDeps } from "../deps.js"

export interface ChainTx {
  readonly row: number
  readonly transfer: ChainTransfer
  /** Undefined while in the mempool. */
  readonly height: number | undefined
  readonly blockHash: string | undefined
  /** The fee it paid, native base units: a withdrawal's as recorded mined (what the custody API reports), else the transfer's. */
  readonly fee: bigint
  /** Simulated time of submission, ms. */
  readonly submittedAt: number
}

export interface ChainIndex {
  readonly network: NetworkInfo
  /** The chain's height now (an interval schedule moves on between recorded blocks). */
  readonly tip: number
  /** Every transaction, in the order submitted. */
  readonly txs: ReadonlyArray<ChainTx>
  readonly pending: ReadonlyArray<ChainTx>
  byId(id: string): ChainTx | undefined
  /** The transactions of block `height`, in the order submitted. */
  inBlock(height: number): ReadonlyArray<ChainTx>
  /** The heights from `from` to `to` whose blocks hold transactions, ascending. */
  minedHeights(from: number, to: number): ReadonlyArray<number>
  blockHash(height: number): string
  /** The height of a block hash at or below the tip (undefined: none). */
  heightOfHash(hash: string): number | undefined
  /** Simulated time of block `height`, ms. */
  blockTime(height: number): number
}

const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex")

/** A block that holds no transaction has no recorded hash: one derived from the chain and height, in the family's form. */
const derivedHash = (n: NetworkInfo, height: number): string => {
  const seed = new TextEncoder().encode(`custody-sim block ${chainKey(n.blockchain, n.network)} ${height}`)
  if (n.family === "evm") return `0x${hex(keccak_256(seed))}`
  const b = sha256(seed)
  b[0] = 0
  b[1] = 0
  b[2] = 0
  b[3] = b[3]! & 0x0f
  return hex(b)
}

export const chainIndex = (deps: ApiDeps, n: NetworkInfo): ChainIndex => {
  const models = deps.sim.models.chains
  const key = chainKey(n.blockchain, n.network)
  const now = deps.sim.clock.now()
  const states = models.chain(key)?.state
  const tip = models.heightAt(key, now)
  const rows = models.rows
  const requests = deps.sim.models.txRequests.byTransactionId
  const chainRef = models.strings.find(key)
  const txs: Array<ChainTx> = []
  const pending: Array<ChainTx> = []
  const byId = new Map<string, ChainTx>()
  const blocks = new Map<number, Array<ChainTx>>()
  if (chainRef >= 0)
    for (let row = 0; row < rows.length; row++) {
      if (rows.chain.values[row] !== chainRef || models.byIdOfRow(row) !== row) continue
      const view = models.view(row)
      const mined = view.mined.latest()
      const transfer = view.transfer
      const recorded = transfer.kind === "withdrawal" ? requests.get(transfer.transactionId)?.mined : undefined
      const tx: ChainTx = {
        row,
        transfer,
        height: mined?.height,
        blockHash: mined?.blockHash,
        fee: BigInt(recorded?.fee ?? transfer.fee),
        submittedAt: rows.submittedAt.values[row]!,
      }
      txs.push(tx)
      byId.set(tx.transfer.transactionId.toLowerCase(), tx)
      if (mined === undefined) pending.push(tx)
      else {
        const list = blocks.get(mined.height)
        if (list === undefined) blocks.set(mined.height, [tx])
        else list.push(tx)
      }
    }
  const blockHash = (height: number): string => blocks.get(height)?.[0]?.blockHash ?? derivedHash(n, height)
  const heights = [...blocks.keys()].sort((a, b) => a - b)
  const hashes = new Map<string, number>()
  for (const [height, list] of blocks) hashes.set(list[0]!.blockHash!.toLowerCase(), height)
  return {
    network: n,
    tip,
    txs,
    pending,
    byId: (id) => byId.get(id.toLowerCase()),
    inBlock: (height) => blocks.get(height) ?? [],
    minedHeights: (from, to) => heights.filter((h) => h >= from && h <= to),
    blockHash,
    heightOfHash: (hash) => {
      const h = hash.toLowerCase()
      const known = hashes.get(h)
      if (known !== undefined) return known <= tip ? known : undefined
      // An empty block's hash is derived: the tip's neighbourhood is what clients ask for, so search down from it.
      for (let height = tip; height >= 0 && height > tip - 10_000; height--) if (derivedHash(n, height) === h) return height
      return undefined
    },
    blockTime: (height) => {
      const mined = blocks.get(height)?.[0]
      if (mined !== undefined) return models.view(mined.row).mined.latest()!.blockAt
      if (states === undefined || states.length === 0) return now
      const heights = states.height.values
      const interval = (i: number) => states.configurations[states.configuration.values[i]!]!.intervalSeconds * 1000
      for (let i = 0; i < states.length; i++)
        if (heights[i]! >= height) {
          const anchor = states.anchorHeight.values[i]!
          const at = states.anchorAt.values[i]!
          return height >= anchor ? at : Math.max(states.anchorAt.values[0]!, at - (anchor - height) * interval(i))
        }
      const last = states.latest()!
      return heightAt(last.schedule, last.height, now) >= height
        ? last.schedule.anchorAt + (height - last.schedule.anchorHeight) * last.schedule.intervalSeconds * 1000
        : now
    },
  }
}
