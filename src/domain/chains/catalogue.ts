// Lookups over the static catalogue of networks and assets.
import { ASSETS } from "./assets.js"
import { CHAIN_SPECS, NETWORKS } from "./networks.js"
import type { AssetInfo, Blockchain, ChainFamily, CoinInfo, NetworkInfo, NetworkType, TokenInfo } from "./types.js"

const networkKey = (blockchain: string, network: string) => `${blockchain}/${network}`
const isHexContract = (contract: string) => /^0x[0-9a-fA-F]{40}$/.test(contract)
/** EVM hex is case-insensitive; base58 contracts (tron, solana) are not. */
const contractKey = (blockchain: string, network: string, contract: string) =>
  `${networkKey(blockchain, network)}/${isHexContract(contract) ? contract.toLowerCase() : contract}`

const networksByKey: ReadonlyMap<string, NetworkInfo> = new Map(NETWORKS.map((n) => [networkKey(n.blockchain, n.network), n]))
const assetsById: ReadonlyMap<string, AssetInfo> = new Map(ASSETS.map((a) => [a.id, a]))
const tokensByContract: ReadonlyMap<string, TokenInfo> = new Map(
  ASSETS.flatMap((a) => (a.type === "TOKEN" ? [[contractKey(a.blockchain, a.network, a.contract), a] as const] : [])),
)

export const allNetworks = (): ReadonlyArray<NetworkInfo> => NETWORKS
export const allAssets = (): ReadonlyArray<AssetInfo> => ASSETS

/** Accepts untrusted strings (path parameters); undefined when the pair is not supported. */
export const findNetwork = (blockchain: string, network: string): NetworkInfo | undefined =>
  networksByKey.get(networkKey(blockchain, network))

export const networksOf = (networkType: NetworkType): ReadonlyArray<NetworkInfo> => NETWORKS.filter((n) => n.networkType === networkType)

export const findAsset = (id: string): AssetInfo | undefined => assetsById.get(id)

export const findAssetByContract = (blockchain: string, network: string, contract: string): TokenInfo | undefined =>
  tokensByContract.get(contractKey(blockchain, network, contract))

export interface AssetFilter {
  readonly blockchain?: string
  readonly network?: string
  readonly networkType?: NetworkType
  /** Compared case-insensitively ("usdt" finds USDT). */
  readonly symbol?: string
}

export const assetsOf = (filter: AssetFilter = {}): ReadonlyArray<AssetInfo> => {
  const symbol = filter.symbol?.toUpperCase()
  return ASSETS.filter(
    (a) =>
      (filter.blockchain === undefined || a.blockchain === filter.blockchain) &&
      (filter.network === undefined || a.network === filter.network) &&
      (filter.networkType === undefined || a.networkType === filter.networkType) &&
      (symbol === undefined || a.symbol.toUpperCase() === symbol),
  )
}

export const nativeAsset = (blockchain: string, network: string): CoinInfo | undefined => {
  const n = findNetwork(blockchain, network)
  const a = n === undefined ? undefined : assetsById.get(n.nativeAssetId)
  return a?.type === "COIN" ? a : undefined
}

export const familyOf = (blockchain: Blockchain): ChainFamily => CHAIN_SPECS[blockchain].family

/** UTXO chains attach their coin automatically and hold one asset per address (spec "What the service does"). */
export const isUtxo = (blockchain: Blockchain): boolean => familyOf(blockchain) === "utxo"
