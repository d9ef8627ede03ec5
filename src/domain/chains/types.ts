// Vocabulary of the chain & asset catalogue: blockchains, networks, fee models, asset records.
import type { AssetId } from "../shared/ids.js"

export const BLOCKCHAINS = [
  "bitcoin",
  "bitcoin-cash",
  "litecoin",
  "dogecoin",
  "dash",
  "zcash",
  "ethereum",
  "ethereum-classic",
  "binance-smart-chain",
  "polygon",
  "avalanche",
  "arbitrum",
  "optimism",
  "base",
  "tron",
  "solana",
  "xrp",
] as const
export type Blockchain = (typeof BLOCKCHAINS)[number]

export const NETWORK_NAMES = ["mainnet", "testnet", "sepolia", "mordor", "amoy", "fuji", "nile", "devnet"] as const
export type NetworkName = (typeof NETWORK_NAMES)[number]

export type NetworkType = "main" | "test"
export type ChainFamily = "utxo" | "evm" | "tron" | "solana" | "xrp"
export type FeePriority = "slow" | "standard" | "fast"

export type PerPriority<A> = { readonly [P in FeePriority]: A }

/** Fee parameters of a network; every amount is in the base unit of the network's native coin. */
export type FeeModel =
  | { readonly _tag: "UtxoFeeRate"; readonly perVbyte: PerPriority<bigint> }
  /** Zcash ZIP-317: fee = marginalFee × max(graceActions, logical actions); no fee market, so no priority. */
  | { readonly _tag: "Zip317"; readonly marginalFee: bigint; readonly graceActions: number }
  | {
      readonly _tag: "EvmGas"
      readonly gasPriceWei: PerPriority<bigint>
      readonly gasLimit: { readonly coin: bigint; readonly token: bigint }
    }
  | {
      readonly _tag: "TronResources"
      readonly freeBandwidthPerDay: bigint
      readonly sunPerBandwidth: bigint
      readonly sunPerEnergy: bigint
      readonly bandwidth: { readonly coin: bigint; readonly token: bigint; readonly approve: bigint; readonly resource: bigint }
      readonly energy: { readonly token: bigint; readonly approve: bigint }
      /** Stake 2.0: resource units a day per TRX frozen (a fixed share; the real one follows the network's total stake). */
      readonly bandwidthPerTrx: bigint
      readonly energyPerTrx: bigint
      /** Days unfrozen TRX waits before it can be withdrawn. */
      readonly unfreezeDelayDays: number
    }
  | { readonly _tag: "SolanaSignature"; readonly lamportsPerSignature: bigint; readonly tokenAccountRent: bigint }
  | { readonly _tag: "XrpDrops"; readonly drops: PerPriority<bigint>; readonly baseReserve: bigint }

export interface NetworkInfo {
  readonly blockchain: Blockchain
  readonly network: NetworkName
  readonly networkType: NetworkType
  readonly family: ChainFamily
  readonly nativeSymbol: string
  readonly nativeAssetId: AssetId
  readonly confirmations: number
  /** Whole seconds; sub-second chains are rounded up to 1. */
  readonly blockTimeSeconds: number
  /** EIP-155 chain id, EVM networks only. */
  readonly chainId?: number
  readonly fees: FeeModel
}

export type TokenStandard = "ERC-20" | "BEP-20" | "TRC-20" | "SPL"

interface AssetCommon {
  readonly id: AssetId
  readonly symbol: string
  readonly name: string
  readonly blockchain: Blockchain
  readonly network: NetworkName
  readonly networkType: NetworkType
  readonly decimals: number
  /** The unit symbol shown next to amounts. */
  readonly unit: string
}

export type CoinInfo = AssetCommon & { readonly type: "COIN" }
export type TokenInfo = AssetCommon & { readonly type: "TOKEN"; readonly contract: string; readonly standard: TokenStandard }
export type AssetInfo = CoinInfo | TokenInfo

const blockchainSet: ReadonlySet<string> = new Set(BLOCKCHAINS)

export const isBlockchain = (s: string): s is Blockchain => blockchainSet.has(s)
