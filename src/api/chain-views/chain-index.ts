// One simulated chain as the façades read it at one request: the kept cache of its transactions (chain-cache.ts),
// brought up to date with the read models the custody API answers from, and the chain's height and block times now.
import { sha256 } from "@noble/hashes/sha2.js"
import { keccak_256 } from "@noble/hashes/sha3.js"
import { chainKey, heightAt } from "../../chain-sim/index.js"
import type { NetworkInfo } from "../../domain/chains/index.js"
import type { ApiDeps } from "../deps.js"
import { type ChainCache, chainCache } from "./chain-cache.js"
import type { ChainTx } from "./chain-tx.js"
import { type LogFilter, logsAnswer } from "./log-query.js"
import { firstAtOrAbove, lastAtOrBelow } from "./steps.js"
import type { UtxoTx } from "./utxo-tx.js"

export interface ChainIndex {
  readonly network: NetworkInfo
  /** The chain's height now (an interval schedule moves on between recorded blocks). */
  readonly tip: number
  /** The mempool, in the order submitted. */
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
  /** The transactions an address sends, receives or pays for, in the order submitted. */
  ofAddress(address: string): ReadonlyArray<ChainTx>
  /** A UTXO transaction's inputs and outputs (undefined on other chains). */
  utxo(tx: ChainTx): UtxoTx | undefined
  /** An account's balance of the coin (contract undefined) or a token at `height`, fees paid included; never below 0 (an address outside the workspace is funded from outside). */
  balanceAt(address: string, contract: string | undefined, height: number): bigint
  /** A token's supply: what deposits brought in, mined by `height`. */
  supplyAt(contract: string, height: number): bigint
  /** Transactions sent by an account, mined by `height` (with `pending`, those in the mempool too). */
  sentAt(address: string, height: number, pending: boolean): number
  /** The mined logs from `from` to `to` that pass the filter, in block order, as a JSON list in UTF-8. */
  logsJson(filter: LogFilter, from: number, to: number): Uint8Array
}

const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex")

/** How many of a derived hash's last bytes write its height (big-endian): up to 2^48 blocks. */
const HEIGHT_BYTES = 6

/**
 * A block that holds no transaction has no recorded hash: one derived from the chain and height, in the family's
 * form, its last bytes the height, so that a hash names its block without a search (nor an index of every height).
 */
const derivedHash = (n: NetworkInfo, height: number): string => {
  const seed = new TextEncoder().encode(`custody-sim block ${chainKey(n.blockchain, n.network)} ${height}`)
  const b = n.family === "evm" ? keccak_256(seed) : sha256(seed)
  if (n.family !== "evm") {
    b[0] = 0
    b[1] = 0
    b[2] = 0
    b[3] = b[3]! & 0x0f
  }
  for (let i = 0, h = height; i < HEIGHT_BYTES; i++, h = Math.floor(h / 256)) b[b.length - 1 - i] = h % 256
  return n.family === "evm" ? `0x${hex(b)}` : hex(b)
}

/** The height a derived hash names (undefined: not a derived hash of this chain). */
const derivedHeight = (n: NetworkInfo, hash: string): number | undefined => {
  const height = Number.parseInt(hash.slice(-2 * HEIGHT_BYTES), 16)
  return Number.isSafeInteger(height) && derivedHash(n, height) === hash ? height : undefined
}

const blockTimeOf = (deps: ApiDeps, c: ChainCache, now: number) => {
  const states = deps.sim.models.chains.chain(chainKey(c.network.blockchain, c.network.network))?.state
  return (height: number): number => {
    const mined = c.blocks.get(height)?.[0]?.blockAt
    if (mined !== undefined) return mined
    if (states === undefined || states.length === 0) return now
    const heights = states.height.values
    const interval = (i: number) => states.configurations[states.configuration.values[i]!]!.intervalSeconds * 1000
    // The first change whose recorded height reaches the block (recorded heights never decrease).
    const i = firstAtOrAbove(heights, height, states.length)
    if (i < states.length) {
      const anchor = states.anchorHeight.values[i]!
      const at = states.anchorAt.values[i]!
      return height >= anchor ? at : Math.max(states.anchorAt.values[0]!, at - (anchor - height) * interval(i))
    }
    const last = states.latest()!
    return heightAt(last.schedule, last.height, now) >= height
      ? last.schedule.anchorAt + (height - last.schedule.anchorHeight) * last.schedule.intervalSeconds * 1000
      : now
  }
}

export const chainIndex = (deps: ApiDeps, n: NetworkInfo): ChainIndex => {
  const models = deps.sim.models
  const c = chainCache(models.chains, models.txRequests, n)
  const now = deps.sim.clock.now()
  const tip = models.chains.heightAt(chainKey(n.blockchain, n.network), now)
  const blockHash = (height: number): string => c.blocks.get(height)?.[0]?.blockHash ?? derivedHash(n, height)
  return {
    network: n,
    tip,
    pending: [...c.pending.values()],
    byId: (id) => c.byId.get(id.toLowerCase()),
    inBlock: (height) => c.blocks.get(height) ?? [],
    minedHeights: (from, to) => c.heights.slice(firstAtOrAbove(c.heights, from), lastAtOrBelow(c.heights, to) + 1),
    blockHash,
    heightOfHash: (hash) => {
      const h = hash.toLowerCase()
      const height = c.hashes.get(h) ?? derivedHeight(n, h)
      // A derived hash names no block that has a recorded one, nor one above the tip.
      if (height === undefined || height > tip || blockHash(height).toLowerCase() !== h) return undefined
      return height
    },
    blockTime: blockTimeOf(deps, c, now),
    ofAddress: (address) => c.byAddress.get(c.key(address)) ?? [],
    utxo: (tx) => c.byRow.get(tx.row)?.utxo,
    balanceAt: (address, contract, height) => {
      const sum = c.balances.get(`${c.key(address)} ${contract ?? ""}`)?.at(height) ?? 0n
      return sum < 0n ? 0n : sum
    },
    supplyAt: (contract, height) => c.supply.get(contract)?.at(height) ?? 0n,
    sentAt: (address, height, pending) => {
      const a = c.key(address)
      return Number(c.sentMined.get(a)?.at(height) ?? 0n) + (pending ? (c.sentPending.get(a) ?? 0) : 0)
    },
    logsJson: (f, from, to) => logsAnswer(c, f, from, to),
  }
}
