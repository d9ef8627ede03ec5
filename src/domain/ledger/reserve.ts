// The part of a balance a chain never lets go of (XRP's base reserve): counted as allocatedAmount.
import { findAsset, findNetwork } from "../chains/index.js"

export const reserveOf = (blockchain: string, network: string, assetId: string): bigint => {
  const n = findNetwork(blockchain, network)
  if (n === undefined || n.fees._tag !== "XrpDrops" || findAsset(assetId)?.type !== "COIN") return 0n
  return n.fees.baseReserve
}
