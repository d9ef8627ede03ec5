// The EVM JSON-RPC methods the façade answers, each from a chain index: a method name to what it answers (a
// value, or a JSON-RPC error object). Every method that takes a block answers as of that block.
import { findAssetByContract, type TokenInfo } from "../../domain/chains/index.js"
import type { ChainIndex } from "./chain-index.js"
import { callToken } from "./erc20.js"
import { address, badParams, blockParam, hash, isData, quantityParam, RpcError, stateHeight } from "./evm-params.js"
import { blockJson, quantity, receiptJson, transactionJson } from "./evm-shapes.js"
import { getLogs } from "./evm-logs.js"

type Params = ReadonlyArray<unknown>
export type Method = (ix: ChainIndex, params: Params) => unknown

/**
 * What eth_getCode shows at a catalogue token's contract: the simulator runs no EVM, so this is a marker that the
 * address holds a contract (clients test for code ≠ "0x"), `INVALID` followed by the ASCII of "custody-sim".
 */
const TOKEN_CODE = `0xfe${Buffer.from("custody-sim").toString("hex")}`

const tokenAt = (ix: ChainIndex, contract: string): TokenInfo | undefined =>
  findAssetByContract(ix.network.blockchain, ix.network.network, contract)

const fullFlag = (v: unknown): boolean | RpcError =>
  v === undefined || typeof v === "boolean" ? v === true : badParams("the second parameter must be a boolean")

const standardPrice = (ix: ChainIndex): bigint => (ix.network.fees._tag === "EvmGas" ? ix.network.fees.gasPriceWei.standard : 0n)

const getBlockByNumber: Method = (ix, [tag, full]) => {
  // A block not mined yet is null, as a node answers it (a bad tag is still a bad parameter).
  const asked = quantityParam(tag, "block")
  if (typeof asked === "number" && asked > ix.tip) return null
  const b = blockParam(ix, tag, "block", undefined)
  if (b instanceof RpcError) return b
  const f = fullFlag(full)
  if (f instanceof RpcError) return f
  return blockJson(ix, b === "pending" ? undefined : b, f)
}

const getBlockByHash: Method = (ix, [h, full]) => {
  const given = hash(h, "block hash")
  if (given instanceof RpcError) return given
  const f = fullFlag(full)
  if (f instanceof RpcError) return f
  const height = ix.heightOfHash(given)
  return height === undefined ? null : blockJson(ix, height, f)
}

const accountRead =
  (read: (ix: ChainIndex, account: string, height: number, pending: boolean) => bigint | number): Method =>
  (ix, [a, tag]) => {
    const account = address(a, "address")
    if (account instanceof RpcError) return account
    const b = blockParam(ix, tag, "block")
    if (b instanceof RpcError) return b
    return quantity(read(ix, account, stateHeight(ix, b), b === "pending"))
  }

const call: Method = (ix, [tx, tag]) => {
  if (typeof tx !== "object" || tx === null || Array.isArray(tx)) return badParams("the first parameter must be a call object")
  const o = tx as Record<string, unknown>
  const to = address(o.to, "to")
  if (to instanceof RpcError) return to
  const data = o.data ?? o.input ?? "0x"
  if (!isData(data)) return badParams("data must be hex bytes")
  const b = blockParam(ix, tag, "block")
  if (b instanceof RpcError) return b
  const token = tokenAt(ix, to)
  if (token === undefined) return "0x"
  const height = stateHeight(ix, b)
  const contract = token.contract.toLowerCase()
  const out = callToken(token, data, {
    balanceOf: (account) => ix.balanceAt(account, contract, height),
    totalSupply: () => ix.supplyAt(contract, height),
  })
  return out ?? new RpcError(3, "execution reverted")
}

const feeHistory: Method = (ix, [count, newest, percentiles]) => {
  const n = typeof count === "number" && Number.isInteger(count) ? count : quantityParam(count, "blockCount")
  if (n instanceof RpcError || n < 1 || n > 1024) return badParams("blockCount must be from 1 to 1024")
  const b = blockParam(ix, newest, "newestBlock")
  if (b instanceof RpcError) return b
  const last = stateHeight(ix, b)
  const oldest = Math.max(0, last - n + 1)
  const ps = percentiles ?? []
  if (!Array.isArray(ps) || ps.some((p) => typeof p !== "number" || p < 0 || p > 100))
    return badParams("rewardPercentiles must be numbers from 0 to 100")
  const fees = ix.network.fees
  const tier = (p: number) =>
    fees._tag !== "EvmGas" ? 0n : p < 100 / 3 ? fees.gasPriceWei.slow : p < 200 / 3 ? fees.gasPriceWei.standard : fees.gasPriceWei.fast
  const heights = Array.from({ length: last - oldest + 1 }, (_, i) => oldest + i)
  return {
    oldestBlock: quantity(oldest),
    baseFeePerGas: [...heights, last + 1].map(() => "0x0"),
    gasUsedRatio: heights.map(() => 0),
    ...(percentiles !== undefined ? { reward: heights.map(() => (ps as Array<number>).map((p) => quantity(tier(p)))) } : {}),
  }
}

export const methods: Readonly<Record<string, Method>> = {
  eth_chainId: (ix) => quantity(ix.network.chainId ?? 0),
  net_version: (ix) => String(ix.network.chainId ?? 0),
  net_listening: () => true,
  eth_syncing: () => false,
  web3_clientVersion: () => "custody-sim",
  eth_blockNumber: (ix) => quantity(ix.tip),
  eth_getBlockByNumber: getBlockByNumber,
  eth_getBlockByHash: getBlockByHash,
  eth_getTransactionByHash: (ix, [h]) => {
    const given = hash(h, "transaction hash")
    if (given instanceof RpcError) return given
    const tx = ix.byId(given)
    return tx === undefined ? null : transactionJson(ix, tx)
  },
  eth_getTransactionReceipt: (ix, [h]) => {
    const given = hash(h, "transaction hash")
    if (given instanceof RpcError) return given
    const tx = ix.byId(given)
    return tx === undefined || tx.height === undefined ? null : receiptJson(ix, tx)
  },
  eth_getBalance: accountRead((ix, account, height) => ix.balanceAt(account, undefined, height)),
  eth_getTransactionCount: accountRead((ix, account, height, pending) => ix.sentAt(account, height, pending)),
  eth_getCode: (ix, [a, tag]) => {
    const account = address(a, "address")
    if (account instanceof RpcError) return account
    const b = blockParam(ix, tag, "block")
    if (b instanceof RpcError) return b
    return tokenAt(ix, account) === undefined ? "0x" : TOKEN_CODE
  },
  eth_call: call,
  eth_getLogs: getLogs,
  eth_gasPrice: (ix) => quantity(standardPrice(ix)),
  eth_maxPriorityFeePerGas: (ix) => quantity(standardPrice(ix)),
  eth_feeHistory: feeHistory,
}
