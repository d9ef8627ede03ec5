// Solana addresses' public keys come from Node's crypto; they must be noble's, byte for byte.
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { ed25519PublicKey, nativePublicKey, noblePublicKey } from "../../../../src/adapters/hd/ed25519-key.js"

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex")

describe("ed25519PublicKey", () => {
  it("is RFC 8032's public key for its test vectors", () => {
    // RFC 8032 section 7.1, tests 1-3.
    for (const [seed, pub] of [
      [
        "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
        "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
      ],
      [
        "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
        "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c",
      ],
      [
        "c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
        "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025",
      ],
    ] as const) {
      expect(hex(ed25519PublicKey(Buffer.from(seed, "hex")))).toBe(pub)
    }
  })

  it("agrees, by Node's crypto, with noble's getPublicKey for any 32-byte key, whatever array it is a view of", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.nat({ max: 16 }), (key, offset) => {
        const view = new Uint8Array(offset + 32 + 7).subarray(offset, offset + 32)
        view.set(key)
        expect(hex(nativePublicKey(view))).toBe(hex(noblePublicKey(key)))
        expect(hex(ed25519PublicKey(view))).toBe(hex(noblePublicKey(key)))
      }),
      { numRuns: 500 },
    )
  })

  it("refuses a key that is not 32 bytes", () => {
    expect(() => ed25519PublicKey(new Uint8Array(31))).toThrow(RangeError)
    expect(() => ed25519PublicKey(new Uint8Array(33))).toThrow(RangeError)
  })
})
