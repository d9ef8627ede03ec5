// Catalogue sanity: networks, asset ids, natives, tokens, lookups and default rates.
import { createHash } from "node:crypto"
import { describe, expect, it } from "vitest"
import {
  allAssets,
  allNetworks,
  assetsOf,
  BLOCKCHAINS,
  DEFAULT_EXCHANGE_RATES,
  exchangeRateOf,
  findAsset,
  findAssetByContract,
  findNetwork,
  isUtxo,
  nativeAsset,
  networksOf,
  validateAddress,
} from "../../../../src/domain/chains/index.js"

const idOf = (blockchain: string, network: string, symbol: string) =>
  createHash("sha256").update(`asset:${blockchain}:${network}:${symbol}`).digest("hex").slice(0, 24)

describe("networks", () => {
  it("every blockchain has exactly one main network and one test network", () => {
    for (const b of BLOCKCHAINS) {
      const ns = allNetworks().filter((n) => n.blockchain === b)
      expect(ns.map((n) => n.networkType).sort(), b).toEqual(["main", "test"])
    }
  })

  it("names the networks as the spec and the brief do", () => {
    const names = allNetworks().map((n) => `${n.blockchain}/${n.network}`)
    for (const expected of [
      "bitcoin/testnet",
      "ethereum/sepolia",
      "ethereum-classic/mordor",
      "binance-smart-chain/testnet",
      "polygon/amoy",
      "avalanche/fuji",
      "arbitrum/sepolia",
      "optimism/sepolia",
      "base/sepolia",
      "tron/nile",
      "solana/devnet",
      "xrp/testnet",
    ])
      expect(names).toContain(expected)
    expect(findNetwork("ethereum", "testnet")).toBeUndefined()
    expect(findNetwork("bitcoin", "sepolia")).toBeUndefined()
  })

  it("mainnet is the only main network", () => {
    for (const n of allNetworks()) expect(n.networkType === "main", `${n.blockchain}/${n.network}`).toBe(n.network === "mainnet")
    expect(networksOf("main")).toHaveLength(BLOCKCHAINS.length)
    expect(networksOf("test")).toHaveLength(BLOCKCHAINS.length)
  })

  it("has positive confirmations and block times and a fee model matching the family", () => {
    const feeTag = {
      utxo: ["UtxoFeeRate", "Zip317"],
      evm: ["EvmGas"],
      tron: ["TronResources"],
      solana: ["SolanaSignature"],
      xrp: ["XrpDrops"],
    }
    for (const n of allNetworks()) {
      expect(Number.isInteger(n.confirmations) && n.confirmations >= 1).toBe(true)
      expect(Number.isInteger(n.blockTimeSeconds) && n.blockTimeSeconds >= 1).toBe(true)
      expect(feeTag[n.family]).toContain(n.fees._tag)
      expect(n.chainId !== undefined).toBe(n.family === "evm")
    }
    expect(findNetwork("bitcoin", "mainnet")).toMatchObject({ confirmations: 3, blockTimeSeconds: 600 })
    expect(findNetwork("ethereum", "mainnet")).toMatchObject({ confirmations: 12, blockTimeSeconds: 12, chainId: 1 })
  })

  it("fee tiers never decrease from slow to fast", () => {
    for (const n of allNetworks()) {
      const f = n.fees
      const tiers =
        f._tag === "UtxoFeeRate" ? f.perVbyte : f._tag === "EvmGas" ? f.gasPriceWei : f._tag === "XrpDrops" ? f.drops : undefined
      if (tiers === undefined) continue
      expect(tiers.slow > 0n && tiers.slow <= tiers.standard && tiers.standard <= tiers.fast, `${n.blockchain}/${n.network}`).toBe(true)
    }
  })

  it("keeps the tron resource prices of the spec's Limits table", () => {
    expect(findNetwork("tron", "nile")?.fees).toMatchObject({ freeBandwidthPerDay: 1500n, sunPerBandwidth: 1000n, sunPerEnergy: 280n })
  })

  it("isUtxo is true exactly for the utxo chains", () => {
    expect(BLOCKCHAINS.filter(isUtxo)).toEqual(["bitcoin", "bitcoin-cash", "litecoin", "dogecoin", "dash", "zcash"])
  })
})

describe("assets", () => {
  it("ids are unique 24-hex sha256 prefixes of the canonical string", () => {
    const ids = allAssets().map((a) => a.id)
    expect(new Set(ids).size).toBe(ids.length)
    for (const a of allAssets()) {
      expect(a.id).toMatch(/^[0-9a-f]{24}$/)
      expect(a.id).toBe(idOf(a.blockchain, a.network, a.symbol))
    }
  })

  it("ids are pinned: they are stored in events and must never change", () => {
    expect(nativeAsset("bitcoin", "mainnet")?.id).toBe("fa328b02dc47ca563f6d17a9")
    expect(nativeAsset("bitcoin", "testnet")?.id).toBe("cc4703cc7dd2bfcbc063d6d7")
    expect(nativeAsset("ethereum", "mainnet")?.id).toBe("f6a47fe661bfa2b3015172d5")
    expect(nativeAsset("solana", "mainnet")?.id).toBe("72f1a2ab6d5f29603b36a696")
    expect(assetsOf({ blockchain: "ethereum", network: "mainnet", symbol: "USDT" })[0]?.id).toBe("1ced7ff49bb5885cbb71c06f")
    expect(assetsOf({ blockchain: "ethereum", network: "sepolia", symbol: "USDC" })[0]?.id).toBe("dea8fe756b43968e7c33c9e4")
    expect(assetsOf({ blockchain: "tron", network: "mainnet", symbol: "USDT" })[0]?.id).toBe("473a9f7b0708a311ae36e961")
  })

  it("every network has one native coin, the one it names", () => {
    for (const n of allNetworks()) {
      const coins = assetsOf({ blockchain: n.blockchain, network: n.network }).filter((a) => a.type === "COIN")
      expect(coins).toHaveLength(1)
      expect(coins[0]?.id).toBe(n.nativeAssetId)
      expect(coins[0]).toMatchObject({ symbol: n.nativeSymbol, unit: n.nativeSymbol, networkType: n.networkType })
      expect(findAsset(n.nativeAssetId)).toBe(coins[0])
    }
  })

  it("native coins carry their real decimals and symbols", () => {
    const decimals = (b: string) => nativeAsset(b, "mainnet")?.decimals
    expect([
      decimals("bitcoin"),
      decimals("ethereum"),
      decimals("tron"),
      decimals("solana"),
      decimals("xrp"),
      decimals("dogecoin"),
    ]).toEqual([8, 18, 6, 9, 6, 8])
    expect(nativeAsset("polygon", "amoy")?.symbol).toBe("POL")
    expect(["arbitrum", "optimism", "base"].map((b) => nativeAsset(b, "mainnet")?.symbol)).toEqual(["ETH", "ETH", "ETH"])
  })

  it("tokens have a contract that is a valid address of their network and a standard of their family", () => {
    const standards = { evm: ["ERC-20", "BEP-20"], tron: ["TRC-20"], solana: ["SPL"], utxo: [], xrp: [] }
    const tokens = allAssets().flatMap((a) => (a.type === "TOKEN" ? [a] : []))
    expect(tokens.length).toBeGreaterThan(20)
    for (const t of tokens) {
      const n = findNetwork(t.blockchain, t.network)
      expect(n, t.id).toBeDefined()
      expect(standards[n?.family ?? "utxo"]).toContain(t.standard)
      expect(validateAddress(t.blockchain, t.network, t.contract), `${t.symbol} on ${t.blockchain}/${t.network}`).toBe(true)
      expect(t.networkType).toBe(n?.networkType)
      expect(t.unit).toBe(t.symbol)
    }
  })

  it("has the real stablecoin contracts and decimals", () => {
    expect(findAssetByContract("tron", "mainnet", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t")).toMatchObject({
      symbol: "USDT",
      decimals: 6,
      standard: "TRC-20",
    })
    expect(findAssetByContract("solana", "mainnet", "EPjFWdd5AufqZSqeM2qpai3Pk3c2X2ry3HC3Ek2LbkcH")).toMatchObject({
      symbol: "USDC",
      decimals: 6,
      standard: "SPL",
    })
    expect(findAssetByContract("binance-smart-chain", "mainnet", "0x55d398326f99059fF775485246999027B3197955")).toMatchObject({
      symbol: "USDT",
      decimals: 18,
      standard: "BEP-20",
    })
  })

  it("finds EVM contracts whatever the hex case, base58 contracts only exactly", () => {
    const usdc = findAssetByContract("ethereum", "sepolia", "0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238")
    expect(usdc?.symbol).toBe("USDC")
    expect(findAssetByContract("ethereum", "sepolia", "0x1C7D4B196CB0C7B01D743FBC6116A902379C7238")).toBe(usdc)
    expect(findAssetByContract("ethereum", "sepolia", "0x1c7d4b196cb0c7b01d743fbc6116a902379c7238")).toBe(usdc)
    expect(findAssetByContract("ethereum", "mainnet", "0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238")).toBeUndefined()
    expect(findAssetByContract("tron", "mainnet", "tr7nhqjekqxgtci8q8zy4pl8otszgjlj6t")).toBeUndefined()
  })

  it("test networks have tokens for test vaults to exercise", () => {
    const testTokens = assetsOf({ networkType: "test" }).filter((a) => a.type === "TOKEN")
    for (const b of ["ethereum", "binance-smart-chain", "tron", "solana"])
      expect(
        testTokens.some((t) => t.blockchain === b),
        b,
      ).toBe(true)
  })

  it("filters by blockchain, network, network type and symbol (case-insensitive)", () => {
    expect(assetsOf({ symbol: "usdt", networkType: "main" }).every((a) => a.symbol === "USDT" && a.networkType === "main")).toBe(true)
    expect(assetsOf({ blockchain: "bitcoin" }).map((a) => a.network)).toEqual(["mainnet", "testnet"])
    expect(assetsOf({ networkType: "main" }).length + assetsOf({ networkType: "test" }).length).toBe(allAssets().length)
    expect(assetsOf({ blockchain: "nope" })).toEqual([])
    expect(findAsset("000000000000000000000000")).toBeUndefined()
    expect(nativeAsset("ethereum", "testnet")).toBeUndefined()
  })
})

describe("exchange rates", () => {
  it("has a decimal rate for every symbol; test assets share their mainnet twin's", () => {
    for (const a of allAssets()) {
      expect(DEFAULT_EXCHANGE_RATES[a.symbol], a.symbol).toBeDefined()
      expect(exchangeRateOf(a), a.symbol).toMatch(/^(0|[1-9][0-9]*)(\.[0-9]+)?$/)
    }
    expect(exchangeRateOf(nativeAsset("bitcoin", "testnet")!)).toBe(DEFAULT_EXCHANGE_RATES.BTC)
    expect(exchangeRateOf({ symbol: "USDC" })).toBe("1")
    expect(exchangeRateOf({ symbol: "UNKNOWN" })).toBe("0")
    expect(exchangeRateOf({ symbol: "BTC" }, { BTC: "1" })).toBe("1")
  })
})
