// Properties of derivation: valid exactly where the format says, deterministic, distinct across accounts and indexes.
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { createAddressDeriver, deriveAddress } from "../../../../src/adapters/hd/deriver.js"
import { allNetworks, validateAddress, type NetworkInfo } from "../../../../src/domain/chains/index.js"

const NETWORKS = allNetworks()
const seed = fc.uint8Array({ minLength: 16, maxLength: 64 })
const childIndex = fc.integer({ min: 0, max: 2 ** 31 - 1 })
const path = fc.record({ account: childIndex, change: fc.constantFrom<0 | 1>(0, 1), index: childIndex })
const network = fc.constantFrom(...NETWORKS)

/**
 * Where a derived address of `from` must validate: utxo formats are specific to one chain and network; EVM, tron,
 * solana and classic xrp addresses look the same on every network of their family (and EVM on every EVM chain).
 */
const sharesFormat = (from: NetworkInfo, to: NetworkInfo) =>
  from.family === to.family && (from.family !== "utxo" || (from.blockchain === to.blockchain && from.network === to.network))

describe("derived addresses", () => {
  it("validate on their own network and exactly on the networks sharing its format", () => {
    fc.assert(
      fc.property(seed, path, network, (s, p, from) => {
        const { address } = deriveAddress(s, from.blockchain, from.network, p)
        for (const to of NETWORKS)
          expect(
            validateAddress(to.blockchain, to.network, address),
            `${from.blockchain}/${from.network} on ${to.blockchain}/${to.network}`,
          ).toBe(sharesFormat(from, to))
      }),
    )
  })

  it("are deterministic: same seed and path, same address, whatever the deriver has cached", () => {
    fc.assert(
      fc.property(seed, fc.array(fc.tuple(path, network), { minLength: 1, maxLength: 8 }), (s, requests) => {
        const warm = createAddressDeriver(s, { cacheSize: 2 })
        for (const [p, n] of requests)
          expect(warm.derive(n.blockchain, n.network, p)).toEqual(deriveAddress(Uint8Array.from(s), n.blockchain, n.network, p))
      }),
    )
  })

  it("differ across accounts and indexes", () => {
    const distinctPair = fc.tuple(childIndex, childIndex, childIndex, childIndex).filter(([a1, i1, a2, i2]) => a1 !== a2 || i1 !== i2)
    fc.assert(
      fc.property(seed, network, distinctPair, fc.constantFrom<0 | 1>(0, 1), (s, n, [a1, i1, a2, i2], change) => {
        const d = createAddressDeriver(s)
        const one = d.derive(n.blockchain, n.network, { account: a1, change, index: i1 })
        const two = d.derive(n.blockchain, n.network, { account: a2, change, index: i2 })
        expect(one.address).not.toBe(two.address)
        expect(one.derivationPath).not.toBe(two.derivationPath)
      }),
    )
  })

  it("differ across seeds", () => {
    fc.assert(
      fc.property(seed, seed, path, network, (s1, s2, p, n) => {
        fc.pre(Buffer.compare(s1, s2) !== 0)
        expect(deriveAddress(s1, n.blockchain, n.network, p).address).not.toBe(deriveAddress(s2, n.blockchain, n.network, p).address)
      }),
    )
  })
})
