// JSON-RPC's error object and the decoders of the EVM methods' parameters (addresses, hashes, data, block tags):
// a bad value is an answer (-32602), never a throw.
import type { ChainIndex } from "./chain-index.js"

export class RpcError {
  constructor(
    readonly code: number,
    readonly message: string,
  ) {}
}

/** A result already written as UTF-8 JSON (what a long list of logs is kept as): put into the answer as it is. */
export class RawJson {
  constructor(readonly bytes: Uint8Array) {}
}

export const badParams = (message: string) => new RpcError(-32602, `invalid params: ${message}`)

export const isAddress = (v: unknown): v is string => typeof v === "string" && /^0x[0-9a-fA-F]{40}$/.test(v)
export const isHash = (v: unknown): v is string => typeof v === "string" && /^0x[0-9a-fA-F]{64}$/.test(v)
export const isData = (v: unknown): v is string => typeof v === "string" && /^0x([0-9a-fA-F]{2})*$/.test(v)
const isQuantity = (v: unknown): v is string => typeof v === "string" && /^0x(0|[1-9a-fA-F][0-9a-fA-F]{0,15})$/.test(v)

export const address = (v: unknown, name: string): string | RpcError =>
  isAddress(v) ? v : badParams(`${name} must be a 20-byte hex address`)
export const hash = (v: unknown, name: string): string | RpcError => (isHash(v) ? v : badParams(`${name} must be a 32-byte hex hash`))

/** A quantity (hex, no leading zeros) as a number. */
export const quantityParam = (v: unknown, name: string): number | RpcError =>
  isQuantity(v) && Number(v) <= Number.MAX_SAFE_INTEGER ? Number(v) : badParams(`${name} must be a hex quantity`)

/** A block: its height, or "pending" (the mempool on top of the tip). */
export type BlockRef = number | "pending"

/**
 * A block tag (latest, safe, finalized, earliest, pending, a hex number) or EIP-1898's `{ blockNumber }` /
 * `{ blockHash }`; absent: `fallback`. A block past the tip, or a hash the chain has not, is a bad parameter.
 */
export const blockParam = (ix: ChainIndex, v: unknown, name: string, fallback: BlockRef | undefined = ix.tip): BlockRef | RpcError => {
  if (v === undefined && fallback !== undefined) return fallback
  if (typeof v === "object" && v !== null && !Array.isArray(v)) {
    const o = v as Record<string, unknown>
    if ("blockHash" in o) {
      const h = hash(o.blockHash, `${name}.blockHash`)
      if (h instanceof RpcError) return h
      return ix.heightOfHash(h) ?? badParams(`${name}: no block ${h}`)
    }
    return blockParam(ix, o.blockNumber, `${name}.blockNumber`, undefined)
  }
  switch (v) {
    case "latest":
    case "safe":
    case "finalized":
      return ix.tip
    case "earliest":
      return 0
    case "pending":
      return "pending"
  }
  const height = quantityParam(v, name)
  if (height instanceof RpcError) return badParams(`${name} must be a block number or one of latest, earliest, pending, safe, finalized`)
  return height > ix.tip ? badParams(`${name}: block ${height} is past the chain's tip ${ix.tip}`) : height
}

/** The height a state read answers at: the pending block reads as the tip (the mempool moves no balance). */
export const stateHeight = (ix: ChainIndex, b: BlockRef): number => (b === "pending" ? ix.tip : b)
