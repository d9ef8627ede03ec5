// Every supported asset: the native coin of each network and the usual tokens with their real contracts.
import { assetIdOf } from "./asset-id.js"
import { CHAIN_SPECS, NETWORKS } from "./networks.js"
import type { AssetInfo, Blockchain, CoinInfo, NetworkName, TokenInfo, TokenStandard } from "./types.js"

interface TokenSpec {
  readonly blockchain: Blockchain
  readonly network: NetworkName
  readonly symbol: string
  readonly name: string
  readonly decimals: number
  readonly contract: string
  readonly standard: TokenStandard
}

const USDT = "Tether USD"
const USDC = "USD Coin"
const token =
  (blockchain: Blockchain, network: NetworkName, standard: TokenStandard) =>
  (symbol: "USDT" | "USDC", decimals: number, contract: string): TokenSpec => ({
    blockchain,
    network,
    symbol,
    name: symbol === "USDT" ? USDT : USDC,
    decimals,
    contract,
    standard,
  })

const ethereum = token("ethereum", "mainnet", "ERC-20")
const bsc = token("binance-smart-chain", "mainnet", "BEP-20")
const tron = token("tron", "mainnet", "TRC-20")
const solana = token("solana", "mainnet", "SPL")
const polygon = token("polygon", "mainnet", "ERC-20")
const avalanche = token("avalanche", "mainnet", "ERC-20")
const arbitrum = token("arbitrum", "mainnet", "ERC-20")
const optimism = token("optimism", "mainnet", "ERC-20")
const base = token("base", "mainnet", "ERC-20")

/** EVM contracts are kept in EIP-55 form; lookups by contract ignore hex case. */
const TOKENS: ReadonlyArray<TokenSpec> = [
  ethereum("USDT", 6, "0xdAC17F958D2ee523a2206206994597C13D831ec7"),
  ethereum("USDC", 6, "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"),
  // The Binance-peg tokens on BNB Smart Chain have 18 decimals, unlike their 6-decimal originals.
  bsc("USDT", 18, "0x55d398326f99059fF775485246999027B3197955"),
  bsc("USDC", 18, "0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d"),
  tron("USDT", 6, "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"),
  tron("USDC", 6, "TEkxiTehnzSmSe2XqrBj4w32RUN966rdz8"),
  solana("USDT", 6, "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB"),
  solana("USDC", 6, "EPjFWdd5AufqZSqeM2qpai3Pk3c2X2ry3HC3Ek2LbkcH"),
  polygon("USDT", 6, "0xc2132D05D31c914a87C6611C10748AEb04B58e8F"),
  polygon("USDC", 6, "0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359"),
  avalanche("USDT", 6, "0x9702230A8Ea53601f5cD2dc00fDBc13d4dF4A8c7"),
  avalanche("USDC", 6, "0xB97EF9Ef8734C71904D8002F8b6Bc66Dd9c48a6E"),
  arbitrum("USDT", 6, "0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9"),
  arbitrum("USDC", 6, "0xaf88d065e77c8cC2239327C5EDb3A432268e5831"),
  optimism("USDT", 6, "0x94b008aA00579c1307B0EF2c499aD98a8ce58e58"),
  optimism("USDC", 6, "0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85"),
  base("USDC", 6, "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"),
  // Test networks: the faucet tokens integrators actually use (Circle's testnet USDC, Tether's Nile USDT).
  token("ethereum", "sepolia", "ERC-20")("USDC", 6, "0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238"),
  token("binance-smart-chain", "testnet", "BEP-20")("USDT", 18, "0x337610d27c682E347C9cD60BD4b3b107C9d34dDd"),
  token("tron", "nile", "TRC-20")("USDT", 6, "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf"),
  token("solana", "devnet", "SPL")("USDC", 6, "4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU"),
  token("polygon", "amoy", "ERC-20")("USDC", 6, "0x41E94Eb019C0762f9Bfcf9Fb1E58725BfB0e7582"),
  token("avalanche", "fuji", "ERC-20")("USDC", 6, "0x5425890298aed601595a70AB815c96711a31Bc65"),
  token("arbitrum", "sepolia", "ERC-20")("USDC", 6, "0x75faf114eafb1BDbe2F0316DF893fd58CE46AA4d"),
  token("optimism", "sepolia", "ERC-20")("USDC", 6, "0x5fd84259d66Cd46123540766Be93DFE6D43130D7"),
  token("base", "sepolia", "ERC-20")("USDC", 6, "0x036CbD53842c5426634e7929541eC2318f3dCF7e"),
]

const COINS: ReadonlyArray<CoinInfo> = NETWORKS.map((n) => {
  const coin = CHAIN_SPECS[n.blockchain].coin
  return {
    id: n.nativeAssetId,
    type: "COIN",
    symbol: coin.symbol,
    name: coin.name,
    blockchain: n.blockchain,
    network: n.network,
    networkType: n.networkType,
    decimals: coin.decimals,
    unit: coin.symbol,
  }
})

// Every network but "mainnet" is a test network in this catalogue (a test asserts it).
const networkTypeOf = (network: NetworkName) => (network === "mainnet" ? "main" : "test")

const TOKEN_ASSETS: ReadonlyArray<TokenInfo> = TOKENS.map((t) => ({
  id: assetIdOf(t.blockchain, t.network, t.symbol),
  type: "TOKEN",
  symbol: t.symbol,
  name: t.name,
  blockchain: t.blockchain,
  network: t.network,
  networkType: networkTypeOf(t.network),
  decimals: t.decimals,
  unit: t.symbol,
  contract: t.contract,
  standard: t.standard,
}))

/** Coins first (in network order), then tokens: the order listings show. */
export const ASSETS: ReadonlyArray<AssetInfo> = [...COINS, ...TOKEN_ASSETS]
