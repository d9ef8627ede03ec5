// Every supported blockchain and network: family, native coin, confirmations, block time, fee parameters.
import { assetIdOf } from "./asset-id.js"
import type { Blockchain, ChainFamily, FeeModel, NetworkInfo, NetworkName, NetworkType, PerPriority } from "./types.js"

/*
 * Defaults (the chain simulator may override them at runtime). Realistic but small; the same on test networks.
 * Block times are whole seconds, sub-second chains rounded up to 1 (bsc 0.75 s, arbitrum 0.25 s, solana 0.4 s).
 *
 * | blockchain          | conf. | block s | fees, in base units of the native coin                      |
 * |---------------------|-------|---------|--------------------------------------------------------------|
 * | bitcoin             |     3 |     600 | 2 / 5 / 10 sat/vB (testnet 1 / 2 / 5)                        |
 * | bitcoin-cash        |     6 |     600 | 1 / 1 / 2 sat/B (blocks are rarely full)                     |
 * | litecoin            |     6 |     150 | 1 / 2 / 5 litoshi/vB                                         |
 * | dogecoin            |     6 |      60 | 500 / 1000 / 2000 koinu/B (1000 = Core's 0.01 DOGE/kB)       |
 * | dash                |     6 |     150 | 1 / 1 / 2 duff/B                                             |
 * | zcash               |    10 |      75 | ZIP-317: 5000 zat per logical action, 2 grace actions        |
 * | ethereum            |    12 |      12 | 1 / 2 / 5 gwei                                               |
 * | ethereum-classic    |    60 |      13 | 1 / 2 / 5 gwei (51% reorgs happened: exchanges ask far more) |
 * | binance-smart-chain |    15 |       1 | 0.1 / 0.2 / 1 gwei                                           |
 * | polygon             |    30 |       2 | 30 / 50 / 100 gwei (25 gwei minimum tip)                     |
 * | avalanche (C-chain) |     1 |       2 | 0.5 / 1 / 2 gwei (single-slot finality)                      |
 * | arbitrum            |    20 |       1 | 0.01 / 0.02 / 0.05 gwei                                      |
 * | optimism            |    20 |       2 | 0.001 / 0.002 / 0.005 gwei                                   |
 * | base                |    20 |       2 | 0.005 / 0.01 / 0.02 gwei                                     |
 * | tron                |    19 |       3 | resources (spec "Limits"), see TRON_FEES                     |
 * | solana              |    32 |       1 | 5000 lamports per signature ("finalized" is ~32 slots)       |
 * | xrp                 |     1 |       4 | 10 / 12 / 15 drops (a validated ledger is final)             |
 *
 * EVM gas limits: 21000 for a coin transfer, 65000 for a token transfer. L2 data fees paid to L1 are not modelled.
 */

const GWEI = 1_000_000_000n
const tiers = <A>(slow: A, standard: A, fast: A): PerPriority<A> => ({ slow, standard, fast })

const utxo = (slow: bigint, standard: bigint, fast: bigint): FeeModel => ({ _tag: "UtxoFeeRate", perVbyte: tiers(slow, standard, fast) })
const evm = (slow: bigint, standard: bigint, fast: bigint): FeeModel => ({
  _tag: "EvmGas",
  gasPriceWei: tiers(slow, standard, fast),
  gasLimit: { coin: 21_000n, token: 65_000n },
})

/** Spec "Limits": 1500 free bandwidth per address per 24 h, 1000 SUN per bandwidth, 280 SUN per energy. */
const TRON_FEES: FeeModel = {
  _tag: "TronResources",
  freeBandwidthPerDay: 1500n,
  sunPerBandwidth: 1000n,
  sunPerEnergy: 280n,
  // approve: a TRC-20 approve call; resource: a Stake 2.0 system contract (freeze, unfreeze, delegate, …).
  bandwidth: { coin: 268n, token: 345n, approve: 313n, resource: 282n },
  // A TRC-20 transfer to an address that has never held the token; ~31895 when it already does. We keep the dearer one.
  energy: { token: 65_000n, approve: 22_000n },
  bandwidthPerTrx: 1n,
  energyPerTrx: 10n,
  unfreezeDelayDays: 14,
}
/** tokenAccountRent: the rent-exempt balance of a new SPL token account, paid once per recipient and token. */
const SOLANA_FEES: FeeModel = { _tag: "SolanaSignature", lamportsPerSignature: 5000n, tokenAccountRent: 2_039_280n }
/** baseReserve: the 1 XRP an account must keep (reserve lowered to 1 XRP in Dec 2024). */
const XRP_FEES: FeeModel = { _tag: "XrpDrops", drops: tiers(10n, 12n, 15n), baseReserve: 1_000_000n }

interface NetworkSpec {
  readonly network: NetworkName
  readonly networkType: NetworkType
  readonly fees: FeeModel
  readonly chainId?: number
}
interface ChainSpec {
  readonly family: ChainFamily
  readonly coin: { readonly symbol: string; readonly name: string; readonly decimals: number }
  readonly confirmations: number
  readonly blockTimeSeconds: number
  readonly networks: ReadonlyArray<NetworkSpec>
}

const main = (fees: FeeModel, chainId?: number): NetworkSpec => ({
  network: "mainnet",
  networkType: "main",
  fees,
  ...(chainId !== undefined ? { chainId } : {}),
})
const test = (network: NetworkName, fees: FeeModel, chainId?: number): NetworkSpec => ({
  network,
  networkType: "test",
  fees,
  ...(chainId !== undefined ? { chainId } : {}),
})
const both = (fees: FeeModel): ReadonlyArray<NetworkSpec> => [main(fees), test("testnet", fees)]
const evmPair = (testnet: NetworkName, mainId: number, testId: number, fees: FeeModel): ReadonlyArray<NetworkSpec> => [
  main(fees, mainId),
  test(testnet, fees, testId),
]

export const CHAIN_SPECS: { readonly [B in Blockchain]: ChainSpec } = {
  bitcoin: {
    family: "utxo",
    coin: { symbol: "BTC", name: "Bitcoin", decimals: 8 },
    confirmations: 3,
    blockTimeSeconds: 600,
    networks: [main(utxo(2n, 5n, 10n)), test("testnet", utxo(1n, 2n, 5n))],
  },
  "bitcoin-cash": {
    family: "utxo",
    coin: { symbol: "BCH", name: "Bitcoin Cash", decimals: 8 },
    confirmations: 6,
    blockTimeSeconds: 600,
    networks: both(utxo(1n, 1n, 2n)),
  },
  litecoin: {
    family: "utxo",
    coin: { symbol: "LTC", name: "Litecoin", decimals: 8 },
    confirmations: 6,
    blockTimeSeconds: 150,
    networks: both(utxo(1n, 2n, 5n)),
  },
  dogecoin: {
    family: "utxo",
    coin: { symbol: "DOGE", name: "Dogecoin", decimals: 8 },
    confirmations: 6,
    blockTimeSeconds: 60,
    networks: both(utxo(500n, 1000n, 2000n)),
  },
  dash: {
    family: "utxo",
    coin: { symbol: "DASH", name: "Dash", decimals: 8 },
    confirmations: 6,
    blockTimeSeconds: 150,
    networks: both(utxo(1n, 1n, 2n)),
  },
  zcash: {
    family: "utxo",
    coin: { symbol: "ZEC", name: "Zcash", decimals: 8 },
    confirmations: 10,
    blockTimeSeconds: 75,
    networks: both({ _tag: "Zip317", marginalFee: 5000n, graceActions: 2 }),
  },
  ethereum: {
    family: "evm",
    coin: { symbol: "ETH", name: "Ethereum", decimals: 18 },
    confirmations: 12,
    blockTimeSeconds: 12,
    networks: evmPair("sepolia", 1, 11155111, evm(GWEI, 2n * GWEI, 5n * GWEI)),
  },
  "ethereum-classic": {
    family: "evm",
    coin: { symbol: "ETC", name: "Ethereum Classic", decimals: 18 },
    confirmations: 60,
    blockTimeSeconds: 13,
    networks: evmPair("mordor", 61, 63, evm(GWEI, 2n * GWEI, 5n * GWEI)),
  },
  "binance-smart-chain": {
    family: "evm",
    coin: { symbol: "BNB", name: "BNB", decimals: 18 },
    confirmations: 15,
    blockTimeSeconds: 1,
    networks: evmPair("testnet", 56, 97, evm(GWEI / 10n, GWEI / 5n, GWEI)),
  },
  polygon: {
    family: "evm",
    coin: { symbol: "POL", name: "Polygon Ecosystem Token", decimals: 18 },
    confirmations: 30,
    blockTimeSeconds: 2,
    networks: evmPair("amoy", 137, 80002, evm(30n * GWEI, 50n * GWEI, 100n * GWEI)),
  },
  avalanche: {
    family: "evm",
    coin: { symbol: "AVAX", name: "Avalanche", decimals: 18 },
    confirmations: 1,
    blockTimeSeconds: 2,
    networks: evmPair("fuji", 43114, 43113, evm(GWEI / 2n, GWEI, 2n * GWEI)),
  },
  arbitrum: {
    family: "evm",
    coin: { symbol: "ETH", name: "Ethereum", decimals: 18 },
    confirmations: 20,
    blockTimeSeconds: 1,
    networks: evmPair("sepolia", 42161, 421614, evm(GWEI / 100n, GWEI / 50n, GWEI / 20n)),
  },
  optimism: {
    family: "evm",
    coin: { symbol: "ETH", name: "Ethereum", decimals: 18 },
    confirmations: 20,
    blockTimeSeconds: 2,
    networks: evmPair("sepolia", 10, 11155420, evm(GWEI / 1000n, GWEI / 500n, GWEI / 200n)),
  },
  base: {
    family: "evm",
    coin: { symbol: "ETH", name: "Ethereum", decimals: 18 },
    confirmations: 20,
    blockTimeSeconds: 2,
    networks: evmPair("sepolia", 8453, 84532, evm(GWEI / 200n, GWEI / 100n, GWEI / 50n)),
  },
  tron: {
    family: "tron",
    coin: { symbol: "TRX", name: "TRON", decimals: 6 },
    confirmations: 19,
    blockTimeSeconds: 3,
    networks: [main(TRON_FEES), test("nile", TRON_FEES)],
  },
  solana: {
    family: "solana",
    coin: { symbol: "SOL", name: "Solana", decimals: 9 },
    confirmations: 32,
    blockTimeSeconds: 1,
    networks: [main(SOLANA_FEES), test("devnet", SOLANA_FEES)],
  },
  xrp: {
    family: "xrp",
    coin: { symbol: "XRP", name: "XRP", decimals: 6 },
    confirmations: 1,
    blockTimeSeconds: 4,
    networks: both(XRP_FEES),
  },
}

export const NETWORKS: ReadonlyArray<NetworkInfo> = Object.entries(CHAIN_SPECS).flatMap(([blockchain, spec]) =>
  spec.networks.map(
    (n): NetworkInfo => ({
      blockchain: blockchain as Blockchain,
      network: n.network,
      networkType: n.networkType,
      family: spec.family,
      nativeSymbol: spec.coin.symbol,
      nativeAssetId: assetIdOf(blockchain as Blockchain, n.network, spec.coin.symbol),
      confirmations: spec.confirmations,
      blockTimeSeconds: spec.blockTimeSeconds,
      ...(n.chainId !== undefined ? { chainId: n.chainId } : {}),
      fees: n.fees,
    }),
  ),
)
