// eth_getLogs over the façade: the ERC-20 Transfer logs of a block range (or one block by hash), filtered by
// contract address and by topics, as the execution API defines the filter (a position's null matches anything, a
// list matches any of its values).
import type { ChainIndex } from "./chain-index.js"
import { badParams, blockParam, hash, isAddress, isHash, RawJson, RpcError, stateHeight } from "./evm-params.js"

type TopicFilter = ReadonlyArray<ReadonlyArray<string> | null>

const addresses = (v: unknown): ReadonlySet<string> | null | RpcError => {
  if (v === undefined || v === null) return null
  const list = Array.isArray(v) ? v : [v]
  if (!list.every(isAddress)) return badParams("address must be an address or a list of addresses")
  return new Set(list.map((a) => a.toLowerCase()))
}

const topics = (v: unknown): TopicFilter | RpcError => {
  if (v === undefined || v === null) return []
  if (!Array.isArray(v) || v.length > 4) return badParams("topics must be a list of at most 4 entries")
  const out: Array<ReadonlyArray<string> | null> = []
  for (const t of v) {
    if (t === null) out.push(null)
    else if (isHash(t)) out.push([t.toLowerCase()])
    else if (Array.isArray(t) && t.every(isHash)) out.push(t.map((x) => x.toLowerCase()))
    else return badParams("each topic must be null, a 32-byte hash or a list of them")
  }
  return out
}

export const getLogs = (ix: ChainIndex, [f]: ReadonlyArray<unknown>): unknown => {
  if (typeof f !== "object" || f === null || Array.isArray(f)) return badParams("the parameter must be a filter object")
  const o = f as Record<string, unknown>
  const only = addresses(o.address)
  if (only instanceof RpcError) return only
  const filter = topics(o.topics)
  if (filter instanceof RpcError) return filter
  let from: number
  let to: number
  if (o.blockHash !== undefined) {
    if (o.fromBlock !== undefined || o.toBlock !== undefined) return badParams("blockHash excludes fromBlock and toBlock")
    const h = hash(o.blockHash, "blockHash")
    if (h instanceof RpcError) return h
    const height = ix.heightOfHash(h)
    if (height === undefined) return badParams(`no block ${h}`)
    from = to = height
  } else {
    const a = blockParam(ix, o.fromBlock, "fromBlock")
    if (a instanceof RpcError) return a
    const b = blockParam(ix, o.toBlock, "toBlock")
    if (b instanceof RpcError) return b
    from = stateHeight(ix, a)
    to = stateHeight(ix, b)
    if (from > to) return badParams("fromBlock is after toBlock")
  }
  return new RawJson(ix.logsJson({ addresses: only, topics: filter }, from, to))
}
