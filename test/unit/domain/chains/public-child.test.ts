// The variable-time public child derivation agrees with @scure/bip32's own, child by child.
import fc from "fast-check"
import { HDKey } from "@scure/bip32"
import { describe, expect, it } from "vitest"
import { publicBranchOf, publicChild } from "../../../../src/domain/chains/addresses/public-child.js"

describe("publicChild", () => {
  it("derives the same public key and key hash as @scure/bip32 for any seed, branch and index", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 16, maxLength: 64 }), fc.nat({ max: 2 ** 31 - 1 }), fc.nat({ max: 2 ** 31 - 1 }), (seed, account, index) => {
        const branch = HDKey.fromMasterSeed(seed).derive(`m/44'/60'/${account}'/0`)
        const expected = branch.deriveChild(index)
        const child = publicChild(publicBranchOf(branch), index)
        expect(child).toBeDefined()
        expect(Buffer.from(child!.publicKey).toString("hex")).toBe(Buffer.from(expected.publicKey!).toString("hex"))
        expect(Buffer.from(child!.keyHash()).toString("hex")).toBe(Buffer.from(expected.pubKeyHash!).toString("hex"))
      }),
      { numRuns: 60 },
    )
  })
})
