// Address validation per chain and network, checksums included, for any real-world address format of the chain.
import { base58, bech32, bech32m } from "@scure/base"
import { decodeCashAddress } from "ecashaddrjs"
import { addr } from "micro-eth-signer"
import { decodeXAddress, isValidClassicAddress, isValidXAddress } from "ripple-address-codec"
import { familyOf, findNetwork } from "../catalogue.js"
import type { Blockchain, NetworkName } from "../types.js"
import { base58check, TRON_PREFIX } from "./encode.js"
import { UTXO_FORMATS, type UtxoFormat, type Version } from "./formats.js"

/** Longer than any address of any supported format (bech32 stops at 90). */
const MAX_LENGTH = 128
const HASH160_BYTES = 20

/** The codec libraries throw on malformed input; here that only means "not valid". */
const attempt = <A>(f: () => A): A | undefined => {
  try {
    return f()
  } catch {
    return undefined
  }
}

/** BIP173/BIP350: v0 is bech32 with a 20- or 32-byte program; v1..16 are bech32m with 2..40 bytes. */
const isSegwit = (hrp: string, address: string): boolean => {
  for (const [codec, modern] of [
    [bech32, false],
    [bech32m, true],
  ] as const) {
    const decoded = codec.decodeUnsafe(address)
    if (decoded === undefined || decoded.prefix !== hrp) continue
    const [version, ...words] = decoded.words
    const program = codec.fromWordsUnsafe(words)
    if (version === undefined || version > 16 || program === undefined || program.length < 2 || program.length > 40) return false
    return version === 0 ? !modern && (program.length === 20 || program.length === 32) : modern
  }
  return false
}

/** ZIP-320 TEX: the bech32m encoding of a 20-byte P2PKH hash. */
const isTex = (hrp: string, address: string): boolean => {
  const decoded = bech32m.decodeUnsafe(address)
  return decoded !== undefined && decoded.prefix === hrp && bech32m.fromWordsUnsafe(decoded.words)?.length === HASH160_BYTES
}

/**
 * With or without the prefix, in one letter case. P2PKH hashes are 20 bytes, P2SH 20 or 32 (P2SH32).
 * CashTokens-aware addresses (type bits 2 and 3, `z…`/`r…`) are rejected: the codec does not know them.
 */
const isCashAddr = (prefix: string, address: string): boolean => {
  const full = address.includes(":") ? address : `${address === address.toUpperCase() ? prefix.toUpperCase() : prefix}:${address}`
  const decoded = attempt(() => decodeCashAddress(full))
  if (decoded === undefined || decoded.prefix !== prefix) return false
  const bytes = decoded.hash.length / 2
  return decoded.type === "p2pkh" ? bytes === HASH160_BYTES : bytes === HASH160_BYTES || bytes === 32
}

const startsWith = (bytes: Uint8Array, version: Version) => version.every((b, i) => bytes[i] === b)

const isBase58Check = (versions: ReadonlyArray<Version>, address: string): boolean => {
  const bytes = attempt(() => base58check.decode(address))
  return bytes !== undefined && versions.some((v) => bytes.length === v.length + HASH160_BYTES && startsWith(bytes, v))
}

const isUtxoAddress = (format: UtxoFormat, address: string): boolean =>
  (format.segwitHrp !== undefined && isSegwit(format.segwitHrp, address)) ||
  (format.cashAddrPrefix !== undefined && isCashAddr(format.cashAddrPrefix, address)) ||
  (format.texHrp !== undefined && isTex(format.texHrp, address)) ||
  isBase58Check(format.base58, address)

/** All-lowercase and all-uppercase hex carry no checksum and are valid; mixed case must match EIP-55. */
const isEvmAddress = (address: string): boolean => address.startsWith("0x") && addr.isValid(address)

/**
 * The one form an external address is kept in, once it is valid: EVM hex in its EIP-55 checksummed form (any
 * spelling names the same account); every other format as given (base58 and the like are case-sensitive).
 */
export const canonicalExternalAddress = (address: string): string =>
  address.length === 42 && isEvmAddress(address) ? addr.addChecksum(address.toLowerCase()) : address

/** Base58check of 0x41 ‖ 20 bytes (always 34 characters, starting with T). The hex form 41… is not accepted. */
const isTronAddress = (address: string): boolean => {
  const bytes = attempt(() => base58check.decode(address))
  return bytes !== undefined && bytes.length === 1 + HASH160_BYTES && bytes[0] === TRON_PREFIX
}

/**
 * Any base58 string that decodes to 32 bytes, as real validators check (solana's PublicKey does the same):
 * there is no checksum, and off-curve keys (program-derived addresses) are valid accounts too.
 */
const isSolanaAddress = (address: string): boolean =>
  /^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(address) && attempt(() => base58.decode(address))?.length === 32

/** Classic r… addresses are the same on every network; X-addresses (XLS-5d) carry a test flag (X… main, T… test). */
const isXrpAddress = (network: NetworkName, address: string): boolean =>
  attempt(() => isValidClassicAddress(address)) === true ||
  (attempt(() => isValidXAddress(address)) === true && decodeXAddress(address).test === (network !== "mainnet"))

/**
 * True when `address` is a well-formed address of that blockchain and network with a correct checksum. Where a
 * chain's format does not tell networks apart (EVM, tron, solana, classic xrp), the address is valid on both.
 * Not accepted: shielded/unified zcash addresses, litecoin MWEB addresses (the simulator cannot pay them).
 */
export const validateAddress = (blockchain: Blockchain, network: NetworkName, address: string): boolean => {
  if (typeof address !== "string" || address.length === 0 || address.length > MAX_LENGTH) return false
  const byNetwork = verdicts.get(blockchain)?.get(network)
  const known = byNetwork?.get(address)
  if (known !== undefined) return known
  const valid = checkAddress(blockchain, network, address)
  if (verdictCount >= MAX_VERDICTS) {
    verdicts.clear()
    verdictCount = 0
  }
  let networks = verdicts.get(blockchain)
  if (networks === undefined) verdicts.set(blockchain, (networks = new Map()))
  let addresses = networks.get(network)
  if (addresses === undefined) networks.set(network, (addresses = new Map()))
  addresses.set(address, valid)
  verdictCount++
  return valid
}

/**
 * Verdicts already reached: a base58check address costs two SHA-256 and a base-58 decode (tens of µs), and a
 * 150-recipient transfer names 150; integrations pay the same addresses again and again. Bounded: cleared when full.
 * Keyed by blockchain, then network, then the address as given: a key joined from the three cost a string per
 * lookup, most of a cached verdict's price.
 */
const verdicts = new Map<string, Map<string, Map<string, boolean>>>()
let verdictCount = 0
const MAX_VERDICTS = 50_000

const checkAddress = (blockchain: Blockchain, network: NetworkName, address: string): boolean => {
  if (findNetwork(blockchain, network) === undefined) return false
  switch (familyOf(blockchain)) {
    case "utxo": {
      const format = UTXO_FORMATS[`${blockchain}/${network}`]
      return format !== undefined && isUtxoAddress(format, address)
    }
    case "evm":
      return isEvmAddress(address)
    case "tron":
      return isTronAddress(address)
    case "solana":
      return isSolanaAddress(address)
    case "xrp":
      return isXrpAddress(network, address)
  }
}
