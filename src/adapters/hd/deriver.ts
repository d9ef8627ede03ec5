// HD derivation of deposit addresses from a workspace seed: BIP32/44/84 (secp256k1) and SLIP-10 (ed25519).
import { HARDENED_OFFSET, HDKey } from "@scure/bip32"
import { HDKey as Slip10Key } from "micro-key-producer/slip10.js"
import { findNetwork } from "../../domain/chains/catalogue.js"
import type { Blockchain, NetworkName } from "../../domain/chains/types.js"
import { ed25519PublicKey } from "./ed25519-key.js"
import { encodeEd25519, encodeSecp256k1 } from "../../domain/chains/addresses/encode.js"
import { publicBranchOf, publicChild, type PublicBranch } from "./public-child.js"
import { schemeOf, type Scheme } from "../../domain/chains/addresses/formats.js"

export interface DerivationPath {
  readonly account: number
  readonly change: 0 | 1
  readonly index: number
}

export interface DerivedAddress {
  readonly address: string
  readonly derivationPath: string
}

export interface AddressDeriver {
  /** Throws (a defect) for a pair the catalogue lacks or a path component outside 0..2^31-1. */
  readonly derive: (blockchain: Blockchain, network: NetworkName, path: DerivationPath) => DerivedAddress
}

export interface DeriverOptions {
  /** Branch nodes kept; one per (purpose, coin type, account, change) in use. */
  readonly cacheSize?: number
}

const isChildIndex = (n: number) => Number.isInteger(n) && n >= 0 && n < HARDENED_OFFSET

const checkPath = (path: DerivationPath): void => {
  if (!isChildIndex(path.account) || !isChildIndex(path.index) || (path.change !== 0 && path.change !== 1))
    throw new RangeError(`invalid derivation path ${JSON.stringify(path)}`)
}

/** Solana wallets use m/44'/501'/account'/index'; there are no change addresses, so `change` is not part of it. */
const branchPath = (scheme: Scheme, path: DerivationPath): string =>
  scheme._tag === "Secp256k1"
    ? `m/${scheme.purpose}'/${scheme.coinType}'/${path.account}'/${path.change}`
    : `m/44'/${scheme.coinType}'/${path.account}'`

const fullPath = (scheme: Scheme, path: DerivationPath): string =>
  `${branchPath(scheme, path)}/${path.index}${scheme._tag === "Ed25519" ? "'" : ""}`

export const derivationPathOf = (blockchain: Blockchain, network: NetworkName, path: DerivationPath): string | undefined => {
  const scheme = findNetwork(blockchain, network) === undefined ? undefined : schemeOf(blockchain, network)
  return scheme === undefined ? undefined : fullPath(scheme, path)
}

/**
 * micro-key-producer recomputes a parent's public key (one ed25519 multiplication) for the fingerprint on every
 * deriveChild; a cached branch remembers it, which halves the cost of a solana address.
 */
class Slip10Branch extends Slip10Key {
  #fingerprint: number | undefined
  override get fingerprint(): number {
    return (this.#fingerprint ??= super.fingerprint)
  }
}
const slip10Branch = (node: Slip10Key): Slip10Branch =>
  new Slip10Branch({
    chainCode: node.chainCode,
    privateKey: node.privateKey,
    depth: node.depth,
    index: node.index,
    parentFingerprint: node.parentFingerprint,
  })

/** A small LRU over a Map (whose iteration order is insertion order). */
const lruCache = <V>(capacity: number) => {
  const entries = new Map<string, V>()
  return (key: string, make: () => V): V => {
    const hit = entries.get(key)
    if (hit !== undefined) {
      entries.delete(key)
      entries.set(key, hit)
      return hit
    }
    const made = make()
    entries.set(key, made)
    if (entries.size > capacity) {
      const oldest = entries.keys().next()
      if (oldest.done !== true) entries.delete(oldest.value)
    }
    return made
  }
}

/**
 * Deriving from the master for every address costs four hardened steps; the deriver keeps the branch nodes
 * (…/account'/change for secp256k1, …/account' for ed25519) in a bounded cache of its own, so one address
 * costs one child step. Secp256k1 branches are kept as parsed public points, and a child is one variable-time
 * fixed-base multiplication and one addition (public-child.ts).
 */
export const createAddressDeriver = (seed: Uint8Array, options: DeriverOptions = {}): AddressDeriver => {
  if (seed.length < 16 || seed.length > 64) throw new RangeError("the seed must be 16 to 64 bytes")
  const ownSeed = Uint8Array.from(seed)
  const capacity = Math.max(1, options.cacheSize ?? 512)
  let secpMaster: HDKey | undefined
  let edMaster: Slip10Key | undefined
  const secpBranches = lruCache<PublicBranch>(capacity)
  const edBranches = lruCache<Slip10Branch>(capacity)

  const derive = (blockchain: Blockchain, network: NetworkName, path: DerivationPath): DerivedAddress => {
    checkPath(path)
    const scheme = findNetwork(blockchain, network) === undefined ? undefined : schemeOf(blockchain, network)
    if (scheme === undefined) throw new RangeError(`unsupported network ${blockchain}/${network}`)
    const branch = branchPath(scheme, path)
    const derivationPath = fullPath(scheme, path)
    if (scheme._tag === "Ed25519") {
      const node = edBranches(branch, () => slip10Branch((edMaster ??= Slip10Key.fromMasterSeed(ownSeed)).derive(branch)))
      return { address: encodeEd25519(ed25519PublicKey(node.deriveChild(HARDENED_OFFSET + path.index).privateKey)), derivationPath }
    }
    const node = secpBranches(branch, () => publicBranchOf((secpMaster ??= HDKey.fromMasterSeed(ownSeed)).derive(branch)))
    const child = publicChild(node, path.index)
    if (child === undefined) {
      // BIP32's invalid child (probability ~2^-127): let the library apply the rule.
      const lib = (secpMaster ??= HDKey.fromMasterSeed(ownSeed)).derive(derivationPath)
      if (lib.publicKey === null || lib.pubKeyHash === undefined) throw new Error(`no public key at ${derivationPath}`)
      return { address: encodeSecp256k1(scheme.encoding, lib.publicKey, lib.pubKeyHash), derivationPath }
    }
    return { address: encodeSecp256k1(scheme.encoding, child.publicKey, child.keyHash, child.uncompressed), derivationPath }
  }
  return { derive }
}

/** Convenience for one-off use: builds a throwaway deriver (slow in a loop; keep a deriver instead). */
export const deriveAddress = (seed: Uint8Array, blockchain: Blockchain, network: NetworkName, path: DerivationPath): DerivedAddress =>
  createAddressDeriver(seed, { cacheSize: 1 }).derive(blockchain, network, path)
