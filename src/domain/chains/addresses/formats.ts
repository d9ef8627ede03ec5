// Address formats and HD derivation parameters per blockchain and network (coin types, version bytes, prefixes).
import type { Blockchain, NetworkName } from "../types.js"

/** A base58check version prefix: one byte for most chains, two for zcash. */
export type Version = ReadonlyArray<number>

/** How an address is encoded from a secp256k1 public key. */
export type Encoding =
  | { readonly _tag: "P2wpkh"; readonly hrp: string }
  | { readonly _tag: "P2pkh"; readonly version: Version }
  | { readonly _tag: "CashAddr"; readonly prefix: string }
  | { readonly _tag: "Evm" }
  | { readonly _tag: "Tron" }
  | { readonly _tag: "Xrp" }

export interface UtxoFormat {
  /** Every base58check version accepted on this network: P2PKH, P2SH and legacy ones. */
  readonly base58: ReadonlyArray<Version>
  readonly segwitHrp?: string
  readonly cashAddrPrefix?: string
  /** Zcash ZIP-320 TEX addresses (bech32m of a P2PKH hash). */
  readonly texHrp?: string
}

/*
 * Version bytes: bitcoin 0x00/0x05 (test 0x6f/0xc4); litecoin 0x30 L, 0x32 M, legacy 0x05 (test 0x6f, 0x3a Q, legacy 0xc4);
 * dogecoin 0x1e D, 0x16 (test 0x71 n, 0xc4); dash 0x4c X, 0x10 (test 0x8c y, 0x13); zcash 1cb8 t1, 1cbd t3
 * (test 1d25 tm, 1cba t2). Bitcoin cash also accepts the legacy bitcoin versions, as BCHN's DecodeDestination does.
 */
export const UTXO_FORMATS: Readonly<Partial<Record<`${Blockchain}/${NetworkName}`, UtxoFormat>>> = {
  "bitcoin/mainnet": { base58: [[0x00], [0x05]], segwitHrp: "bc" },
  "bitcoin/testnet": { base58: [[0x6f], [0xc4]], segwitHrp: "tb" },
  "litecoin/mainnet": { base58: [[0x30], [0x32], [0x05]], segwitHrp: "ltc" },
  "litecoin/testnet": { base58: [[0x6f], [0x3a], [0xc4]], segwitHrp: "tltc" },
  "bitcoin-cash/mainnet": { base58: [[0x00], [0x05]], cashAddrPrefix: "bitcoincash" },
  "bitcoin-cash/testnet": { base58: [[0x6f], [0xc4]], cashAddrPrefix: "bchtest" },
  "dogecoin/mainnet": { base58: [[0x1e], [0x16]] },
  "dogecoin/testnet": { base58: [[0x71], [0xc4]] },
  "dash/mainnet": { base58: [[0x4c], [0x10]] },
  "dash/testnet": { base58: [[0x8c], [0x13]] },
  "zcash/mainnet": {
    base58: [
      [0x1c, 0xb8],
      [0x1c, 0xbd],
    ],
    texHrp: "tex",
  },
  "zcash/testnet": {
    base58: [
      [0x1d, 0x25],
      [0x1c, 0xba],
    ],
    texHrp: "textest",
  },
}

export type Scheme =
  | { readonly _tag: "Secp256k1"; readonly purpose: 44 | 84; readonly coinType: number; readonly encoding: Encoding }
  /** SLIP-10 ed25519: every level hardened. */
  | { readonly _tag: "Ed25519"; readonly coinType: number }

const MAIN_COIN_TYPE: { readonly [B in Blockchain]: number } = {
  bitcoin: 0,
  litecoin: 2,
  dogecoin: 3,
  dash: 5,
  zcash: 133,
  "bitcoin-cash": 145,
  ethereum: 60,
  "binance-smart-chain": 60,
  polygon: 60,
  avalanche: 60,
  arbitrum: 60,
  optimism: 60,
  base: 60,
  "ethereum-classic": 61,
  xrp: 144,
  tron: 195,
  solana: 501,
}

const secp = (purpose: 44 | 84, coinType: number, encoding: Encoding): Scheme => ({ _tag: "Secp256k1", purpose, coinType, encoding })

/** Undefined for a pair the catalogue does not have. */
export const schemeOf = (blockchain: Blockchain, network: NetworkName): Scheme | undefined => {
  const isMain = network === "mainnet"
  const utxoCoin = isMain ? MAIN_COIN_TYPE[blockchain] : 1 // SLIP-44: coin type 1 for every UTXO testnet
  switch (blockchain) {
    case "bitcoin":
    case "litecoin": {
      const hrp = UTXO_FORMATS[`${blockchain}/${network}`]?.segwitHrp
      return hrp === undefined ? undefined : secp(84, utxoCoin, { _tag: "P2wpkh", hrp })
    }
    case "bitcoin-cash": {
      const prefix = UTXO_FORMATS[`${blockchain}/${network}`]?.cashAddrPrefix
      return prefix === undefined ? undefined : secp(44, utxoCoin, { _tag: "CashAddr", prefix })
    }
    case "dogecoin":
    case "dash":
    case "zcash": {
      const version = UTXO_FORMATS[`${blockchain}/${network}`]?.base58[0]
      return version === undefined ? undefined : secp(44, utxoCoin, { _tag: "P2pkh", version })
    }
    case "tron":
      return secp(44, MAIN_COIN_TYPE.tron, { _tag: "Tron" })
    case "xrp":
      return secp(44, MAIN_COIN_TYPE.xrp, { _tag: "Xrp" })
    case "solana":
      return { _tag: "Ed25519", coinType: MAIN_COIN_TYPE.solana }
    default:
      return secp(44, MAIN_COIN_TYPE[blockchain], { _tag: "Evm" })
  }
}
