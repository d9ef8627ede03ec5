// Encodes public keys as addresses, composing the codec libraries (bech32, base58check, cashaddr, EIP-55, ripple).
import { sha256 } from "@noble/hashes/sha2.js"
import { hexToBytes } from "@noble/hashes/utils.js"
import { base58, bech32, createBase58check } from "@scure/base"
import { encodeCashAddress } from "ecashaddrjs"
import { addr } from "micro-eth-signer"
import { encodeAccountID } from "ripple-address-codec"
import { absurd } from "../../shared/decider.js"
import type { Encoding } from "./formats.js"

export const base58check = createBase58check(sha256)

export const TRON_PREFIX = 0x41

const prefixed = (prefix: ReadonlyArray<number>, payload: Uint8Array): Uint8Array => {
  const out = new Uint8Array(prefix.length + payload.length)
  out.set(prefix)
  out.set(payload, prefix.length)
  return out
}

/** The 20-byte account of an EVM key, shared by tron. */
const evmAccount = (publicKey: Uint8Array): Uint8Array => hexToBytes(addr.fromPublicKey(publicKey).slice(2).toLowerCase())

/**
 * `publicKey` is the 33-byte compressed secp256k1 key; `keyHash` its HASH160 (RIPEMD160 ∘ SHA256),
 * which BIP32 nodes already carry as their identifier.
 */
export const encodeSecp256k1 = (
  encoding: Encoding,
  publicKey: Uint8Array,
  keyHashOf: Uint8Array | (() => Uint8Array),
  uncompressed?: Uint8Array,
): string => {
  const keyHash = () => (typeof keyHashOf === "function" ? keyHashOf() : keyHashOf)
  switch (encoding._tag) {
    case "P2wpkh":
      return bech32.encode(encoding.hrp, [0, ...bech32.toWords(keyHash())])
    case "P2pkh":
      return base58check.encode(prefixed(encoding.version, keyHash()))
    // Shown with its prefix ("bitcoincash:q…"), the canonical form; validation accepts it without.
    case "CashAddr":
      return encodeCashAddress(encoding.prefix, "p2pkh", keyHash())
    // The uncompressed key, when the caller has it, spares decompressing the point again.
    case "Evm":
      return addr.fromPublicKey(uncompressed ?? publicKey)
    case "Tron":
      return base58check.encode(prefixed([TRON_PREFIX], evmAccount(uncompressed ?? publicKey)))
    case "Xrp":
      return encodeAccountID(keyHash())
    default:
      return absurd(encoding)
  }
}

/** Solana addresses are the raw 32-byte ed25519 public key in base58. */
export const encodeEd25519 = (publicKey: Uint8Array): string => base58.encode(publicKey)
