// The variable-time public child derivation agrees with @scure/bip32's own, child by child, with noble's base-point
// table and with the wider one a process switches to after WIDE_TABLE_AFTER children.
import fc from "fast-check"
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { HDKey } from "@scure/bip32"
import { describe, expect, it } from "vitest"
import { baseTimes, publicBranchOf, publicChild, WIDE_TABLE_AFTER } from "../../../../src/adapters/hd/public-child.js"

const ORDER = secp256k1.Point.Fn.ORDER

const agreesWithScure = (runs: number) =>
  fc.assert(
    fc.property(
      fc.uint8Array({ minLength: 16, maxLength: 64 }),
      fc.nat({ max: 2 ** 31 - 1 }),
      fc.nat({ max: 2 ** 31 - 1 }),
      (seed, account, index) => {
        const branch = HDKey.fromMasterSeed(seed).derive(`m/44'/60'/${account}'/0`)
        const expected = branch.deriveChild(index)
        const child = publicChild(publicBranchOf(branch), index)
        expect(child).toBeDefined()
        expect(Buffer.from(child!.publicKey).toString("hex")).toBe(Buffer.from(expected.publicKey!).toString("hex"))
        expect(Buffer.from(child!.keyHash()).toString("hex")).toBe(Buffer.from(expected.pubKeyHash!).toString("hex"))
        expect(Buffer.from(child!.uncompressed).toString("hex")).toBe(
          Buffer.from(secp256k1.Point.fromBytes(expected.publicKey!).toBytes(false)).toString("hex"),
        )
      },
    ),
    { numRuns: runs },
  )

/** Scalars of every size, the edges of the range, and ones whose top windows carry. */
const scalar = fc.oneof(
  fc.bigInt({ min: 1n, max: ORDER - 1n }),
  fc.bigInt({ min: 1n, max: 2n ** 64n }),
  fc.constantFrom(1n, 2n, 3n, 511n, 512n, 513n, 2n ** 128n, 2n ** 255n, ORDER - 1n, ORDER - 2n, ORDER - 2n ** 64n),
)

describe("publicChild", () => {
  it("derives the same public key and key hash as @scure/bip32 for any seed, branch and index", () => {
    agreesWithScure(60)
  })

  it("gives the same products and children once the process has switched to the wider base-point table", () => {
    // tweak 1 returns the base point itself: this only counts uses up to the switch.
    for (let i = 0; i <= WIDE_TABLE_AFTER; i++) baseTimes(1n)
    fc.assert(
      fc.property(scalar, (s) => {
        expect(baseTimes(s).equals(secp256k1.Point.BASE.multiplyUnsafe(s))).toBe(true)
      }),
      { numRuns: 300 },
    )
    agreesWithScure(60)
  }, 120_000)
})
