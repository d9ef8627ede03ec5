// The few real networks and assets the pure properties use: an EVM chain with a token, a UTXO chain, XRP (reserve).
import { assetsOf, findNetwork } from "../../../src/domain/chains/index.js"
import type { AssetId } from "../../../src/domain/shared/ids.js"
import type { AssetRef, NetworkRef } from "../../../src/domain/vault-account/index.js"

const network = (blockchain: string, name: string): NetworkRef => {
  const n = findNetwork(blockchain, name)!
  return { blockchain, network: name, networkType: n.networkType, utxo: n.family === "utxo", nativeAssetId: n.nativeAssetId as AssetId }
}

export const NETWORKS: ReadonlyArray<NetworkRef> = [
  network("ethereum", "sepolia"),
  network("bitcoin", "testnet"),
  network("xrp", "testnet"),
]

const asset = (n: NetworkRef, symbol: string): AssetRef & { readonly symbol: string } => {
  const a = assetsOf({ blockchain: n.blockchain, network: n.network, symbol })[0]!
  return {
    id: a.id as AssetId,
    blockchain: n.blockchain,
    network: n.network,
    networkType: n.networkType,
    utxo: n.utxo,
    native: a.type === "COIN",
    symbol,
  }
}

export const ASSETS = [
  asset(NETWORKS[0]!, "ETH"),
  asset(NETWORKS[0]!, "USDC"),
  asset(NETWORKS[1]!, "BTC"),
  asset(NETWORKS[2]!, "XRP"),
] as const

export const networkOf = (a: AssetRef): NetworkRef => NETWORKS.find((n) => n.blockchain === a.blockchain && n.network === a.network)!

/** A fresh address of a network, as HD derivation would give (only distinctness matters to the deciders). */
export const freshAddress = (n: NetworkRef, index: number): string =>
  n.blockchain === "ethereum"
    ? `0x${index.toString(16).padStart(40, "0")}`
    : n.blockchain === "bitcoin"
      ? `tb1qprop${index}`
      : `rProp${index}`

/** XRP's base reserve (drops): counted as allocatedAmount, never spendable. */
export const XRP_RESERVE = 1_000_000n
