// The Ed25519 public key of a 32-byte private key (RFC 8032's seed), by Node's crypto (OpenSSL) rather than noble.
import { ed25519 } from "@noble/curves/ed25519.js"
import { createPrivateKey } from "node:crypto"

/**
 * Node's crypto, by OpenSSL, in about a tenth of noble's `getPublicKey` time (one Solana address was ~80% that
 * multiplication). The key goes in as a JWK: Node builds an OKP private key from `d` alone, and OpenSSL derives the
 * public key from it (`x` must be a string and is not read). A PKCS#8 import of the same seed gives the same key,
 * but OpenSSL 3.0's decoder costs more than noble's whole multiplication.
 */
export const nativePublicKey = (privateKey: Uint8Array): Uint8Array => {
  const d = Buffer.from(privateKey.buffer, privateKey.byteOffset, privateKey.byteLength).toString("base64url")
  const { x } = createPrivateKey({ key: { kty: "OKP", crv: "Ed25519", d, x: "" }, format: "jwk" }).export({ format: "jwk" })
  return new Uint8Array(Buffer.from(x ?? "", "base64url"))
}

export const noblePublicKey = (privateKey: Uint8Array): Uint8Array => ed25519.getPublicKey(privateKey)

/**
 * Checked once against noble on RFC 8032's first test vector: should a Node version build the key differently or
 * refuse the import, every key comes from noble instead.
 */
const nativeAgrees = (): boolean => {
  const seed = Buffer.from("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60", "hex")
  try {
    return Buffer.from(nativePublicKey(seed)).equals(noblePublicKey(seed))
  } catch {
    return false
  }
}

let publicKeyOf: ((privateKey: Uint8Array) => Uint8Array) | undefined

export const ed25519PublicKey = (privateKey: Uint8Array): Uint8Array => {
  if (privateKey.length !== 32) throw new RangeError("an Ed25519 private key is 32 bytes")
  publicKeyOf ??= nativeAgrees() ? nativePublicKey : noblePublicKey
  return publicKeyOf(privateKey)
}
