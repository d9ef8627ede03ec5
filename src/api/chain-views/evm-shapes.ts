// The JSON an Ethereum node answers with (the execution API's block, transaction, receipt and log objects), made
// from a chain index. Values that need a real EVM (state and receipt tries, bloom filters, signatures) are fixed
// placeholders: clients read them, none of the simulator's answers depends on them.
import { keccak_256 } from "@noble/hashes/sha3.js"
import { findAsset } from "../../domain/chains/index.js"
import type { ChainIndex } from "./chain-index.js"
import { type ChainTx, isBatch } from "./chain-tx.js"
import { transferInput } from "./erc20.js"
import { gasOf, gasPriceOf, senderOf } from "./evm-ledger.js"

export const quantity = (n: bigint | number): string => `0x${n.toString(16)}`

const ZERO_ADDRESS = "0x0000000000000000000000000000000000000000"
const EMPTY_BLOOM = `0x${"00".repeat(256)}`
const EMPTY_TRIE = "0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421"
const EMPTY_UNCLES = "0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347"
const ZERO_WORD = `0x${"00".repeat(32)}`
const BLOCK_GAS_LIMIT = 30_000_000n

const digest = (parts: ReadonlyArray<string>): string =>
  parts.length === 0 ? EMPTY_TRIE : `0x${Buffer.from(keccak_256(new TextEncoder().encode(parts.join(",")))).toString("hex")}`

const position = (tx: ChainTx) => {
  if (tx.height === undefined) return { blockNumber: null, blockHash: null, transactionIndex: null }
  return {
    blockNumber: quantity(tx.height),
    blockHash: tx.blockHash ?? null,
    transactionIndex: quantity(tx.index!),
  }
}

// Addresses are written in lower case, as Ethereum nodes write them.

/** What the transaction calls: the coin's recipient with its value, a token's contract with `transfer`, a batch the sender's own address. */
const target = (tx: ChainTx): { to: string; value: bigint; input: string } => {
  const t = tx.transfer
  if (isBatch(tx)) return { to: t.from.toLowerCase(), value: 0n, input: "0x" }
  const asset = findAsset(t.assetId)
  if (asset?.type === "TOKEN") return { to: asset.contract.toLowerCase(), value: 0n, input: transferInput(t.to, BigInt(t.amount)) }
  return { to: t.to.toLowerCase(), value: BigInt(t.amount), input: "0x" }
}

export const transactionJson = (ix: ChainIndex, tx: ChainTx) => {
  const n = ix.network
  const { to, value, input } = target(tx)
  return {
    hash: tx.transfer.transactionId,
    nonce: quantity(tx.nonce),
    ...position(tx),
    from: senderOf(tx),
    to,
    value: quantity(value),
    gas: quantity(gasOf(n, tx)),
    gasPrice: quantity(gasPriceOf(n, tx)),
    input,
    type: "0x0",
    chainId: quantity(n.chainId ?? 0),
    v: quantity(BigInt(n.chainId ?? 0) * 2n + 35n),
    r: ZERO_WORD,
    s: ZERO_WORD,
  }
}

export const receiptJson = (ix: ChainIndex, tx: ChainTx) => {
  const n = ix.network
  const at = position(tx)
  const block = ix.inBlock(tx.height!)
  let cumulative = 0n
  for (const other of block) {
    cumulative += gasOf(n, other)
    if (other === tx) break
  }
  return {
    transactionHash: tx.transfer.transactionId,
    ...at,
    from: senderOf(tx),
    to: target(tx).to,
    cumulativeGasUsed: quantity(cumulative),
    gasUsed: quantity(gasOf(n, tx)),
    effectiveGasPrice: quantity(gasPriceOf(n, tx)),
    contractAddress: null,
    logs: tx.logs,
    logsBloom: EMPTY_BLOOM,
    status: tx.transfer.failsInExecution === true ? "0x0" : "0x1",
    type: "0x0",
  }
}

/** Block `height` (undefined: the pending block, the mempool on top of the tip). */
export const blockJson = (ix: ChainIndex, height: number | undefined, full: boolean) => {
  const pending = height === undefined
  const number = height ?? ix.tip + 1
  const txs = pending ? ix.pending : ix.inBlock(number)
  const ids = txs.map((t) => t.transfer.transactionId)
  const gasUsed = txs.reduce((a, t) => a + gasOf(ix.network, t), 0n)
  return {
    number: quantity(number),
    hash: pending ? null : ix.blockHash(number),
    parentHash: number === 0 ? ZERO_WORD : ix.blockHash(number - 1),
    nonce: pending ? null : "0x0000000000000000",
    mixHash: ZERO_WORD,
    sha3Uncles: EMPTY_UNCLES,
    logsBloom: EMPTY_BLOOM,
    transactionsRoot: digest(ids),
    stateRoot: digest([ix.blockHash(Math.min(number, ix.tip))]),
    receiptsRoot: digest(ids),
    miner: ZERO_ADDRESS,
    difficulty: "0x0",
    totalDifficulty: "0x0",
    extraData: "0x",
    size: quantity(540 + 110 * txs.length),
    gasLimit: quantity(BLOCK_GAS_LIMIT),
    gasUsed: quantity(gasUsed),
    baseFeePerGas: "0x0",
    timestamp: quantity(Math.floor((pending ? ix.blockTime(ix.tip) : ix.blockTime(number)) / 1000)),
    transactions: full ? txs.map((t) => transactionJson(ix, t)) : ids,
    uncles: [],
  }
}
