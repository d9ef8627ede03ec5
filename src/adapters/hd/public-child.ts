// BIP32 public child derivation (CKDpub) on noble primitives, in variable time: the simulator's keys guard no
// value, and @scure/bip32's constant-time path costs ~4× as much. Tests check it against @scure/bip32.
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { ripemd160 } from "@noble/hashes/legacy.js"
import { sha256 } from "@noble/hashes/sha2.js"
import { createHmac } from "node:crypto"
import type { HDKey } from "@scure/bip32"

type Point = InstanceType<typeof secp256k1.Point>

export interface PublicBranch {
  readonly point: Point
  readonly compressed: Uint8Array
  readonly chainCode: Uint8Array
}

export const publicBranchOf = (node: HDKey): PublicBranch => {
  if (node.publicKey === null || node.chainCode === null) throw new Error("a branch node needs a public key and a chain code")
  return { point: secp256k1.Point.fromBytes(node.publicKey), compressed: node.publicKey, chainCode: node.chainCode }
}

export interface PublicChild {
  readonly publicKey: Uint8Array
  readonly uncompressed: Uint8Array
  /** HASH160 of the compressed key, computed on first use (EVM-style encodings do not need it). */
  readonly keyHash: () => Uint8Array
}

const bytes32 = (n: bigint, out: Uint8Array, offset: number) => {
  for (let i = 31; i >= 0; i--) {
    out[offset + i] = Number(n & 0xffn)
    n >>= 8n
  }
}

const ORDER = secp256k1.Point.Fn.ORDER

/**
 * Nearly all of a child's cost is one multiplication of the base point by the tweak, one table addition per window
 * of noble's precomputed table. noble's own base point has windows of 6 bits (44 additions). A process that
 * derives many children gets a base point of its own with 10-bit windows (27 additions, about a quarter less CPU
 * per multiplication), built once it has derived WIDE_TABLE_AFTER children: the table takes a few tenths of a
 * second to build and holds ~14,000 points, which a test or a CLI call deriving a handful of addresses should not
 * pay for. Same point, same products: only the table differs.
 */
export const WIDE_TABLE_AFTER = 1_000
let narrowUses = 0
let wideBase: Point | undefined

const fixedBase = (): Point => {
  if (wideBase !== undefined) return wideBase
  if (++narrowUses <= WIDE_TABLE_AFTER) return secp256k1.Point.BASE
  // A distinct point object: noble keys its tables by identity, and the library's own BASE keeps its table.
  wideBase = secp256k1.Point.fromAffine(secp256k1.Point.BASE.toAffine()).precompute(10)
  return wideBase
}

/** tweak·G, in variable time (0 < tweak < n). */
export const baseTimes = (tweak: bigint): Point => fixedBase().multiplyUnsafe(tweak)

/** Child `index` (non-hardened) of a branch; undefined for the ~2^-127 invalid indexes BIP32 skips. */
export const publicChild = (branch: PublicBranch, index: number): PublicChild | undefined => {
  const data = new Uint8Array(37)
  data.set(branch.compressed)
  new DataView(data.buffer).setUint32(33, index, false)
  const i = createHmac("sha512", branch.chainCode).update(data).digest()
  let tweak = 0n
  for (let b = 0; b < 32; b++) tweak = (tweak << 8n) | BigInt(i[b]!)
  if (tweak === 0n || tweak >= ORDER) return undefined
  const child = branch.point.add(baseTimes(tweak))
  if (child.is0()) return undefined
  // One affine conversion (a field inversion) serves both encodings of the key.
  const { x, y } = child.toAffine()
  const uncompressed = new Uint8Array(65)
  uncompressed[0] = 4
  bytes32(x, uncompressed, 1)
  bytes32(y, uncompressed, 33)
  const publicKey = new Uint8Array(33)
  publicKey[0] = (y & 1n) === 0n ? 2 : 3
  publicKey.set(uncompressed.subarray(1, 33), 1)
  return { publicKey, uncompressed, keyHash: () => ripemd160(sha256(publicKey)) }
}
