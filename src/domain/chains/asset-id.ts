// Stable asset ids: the first 24 hex chars of sha256("asset:<blockchain>:<network>:<symbol>").
import { sha256 } from "@noble/hashes/sha2.js"
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js"
import type { AssetId } from "../shared/ids.js"
import type { Blockchain, NetworkName } from "./types.js"

/** Never change the canonical string: ids are stored in events and must survive versions. */
export const assetIdOf = (blockchain: Blockchain, network: NetworkName, symbol: string): AssetId =>
  bytesToHex(sha256(utf8ToBytes(`asset:${blockchain}:${network}:${symbol}`))).slice(0, 24) as AssetId
