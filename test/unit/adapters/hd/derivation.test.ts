// HD derivation against published test vectors of the BIP39 "abandon … about" mnemonic.
import { pbkdf2 } from "@noble/hashes/pbkdf2.js"
import { sha512 } from "@noble/hashes/sha2.js"
import { bytesToHex, hexToBytes, utf8ToBytes } from "@noble/hashes/utils.js"
import { describe, expect, it } from "vitest"
import { createAddressDeriver, derivationPathOf, deriveAddress } from "../../../../src/adapters/hd/deriver.js"
import { allNetworks, type Blockchain, type NetworkName } from "../../../../src/domain/chains/index.js"

const MNEMONIC = "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about"
/** The BIP39 seed of MNEMONIC with an empty passphrase (BIP84 spec's test vector). */
const SEED = hexToBytes(
  "5eb00bbddcf069084889a8ab9155568165f5c453ccb85e70811aaed6f6da5fc19a5ac40b389cd370d086206dec8aa6c43daea6690f20ad3d8d48b2d2ce9e38e4",
)
const at = (account: number, change: 0 | 1, index: number) => ({ account, change, index })

describe("test vectors", () => {
  it("the hardcoded seed is the BIP39 seed of the mnemonic", () => {
    const seed = pbkdf2(sha512, utf8ToBytes(MNEMONIC), utf8ToBytes("mnemonic"), { c: 2048, dkLen: 64 })
    expect(bytesToHex(seed)).toBe(bytesToHex(SEED))
  })

  // Published: BIP84 (bitcoin), MetaMask/hardhat (ethereum), Phantom/Solflare (solana), TronLink (tron), Xumm (xrp).
  it.each<[Blockchain, NetworkName, ReturnType<typeof at>, string, string]>([
    ["bitcoin", "mainnet", at(0, 0, 0), "m/84'/0'/0'/0/0", "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu"],
    ["bitcoin", "mainnet", at(0, 0, 1), "m/84'/0'/0'/0/1", "bc1qnjg0jd8228aq7egyzacy8cys3knf9xvrerkf9g"],
    ["bitcoin", "mainnet", at(0, 1, 0), "m/84'/0'/0'/1/0", "bc1q8c6fshw2dlwun7ekn9qwf37cu2rn755upcp6el"],
    ["ethereum", "mainnet", at(0, 0, 0), "m/44'/60'/0'/0/0", "0x9858EfFD232B4033E47d90003D41EC34EcaEda94"],
    ["ethereum", "mainnet", at(0, 0, 1), "m/44'/60'/0'/0/1", "0x6Fac4D18c912343BF86fa7049364Dd4E424Ab9C0"],
    ["solana", "mainnet", at(0, 0, 0), "m/44'/501'/0'/0'", "HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk"],
    ["tron", "mainnet", at(0, 0, 0), "m/44'/195'/0'/0/0", "TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH"],
    ["xrp", "mainnet", at(0, 0, 0), "m/44'/144'/0'/0/0", "rHsMGQEkVNJmpGWs8XUBoTBiAAbwxZN5v3"],
  ])("%s %s %o → %s", (blockchain, network, path, derivationPath, address) => {
    expect(deriveAddress(SEED, blockchain, network, path)).toEqual({ address, derivationPath })
  })

  // The same mnemonic's first addresses as other wallets' test fixtures publish them (Ian Coleman's tool, Trezor, Edge).
  it.each<[Blockchain, NetworkName, string, string]>([
    ["litecoin", "mainnet", "m/84'/2'/0'/0/0", "ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh"],
    ["dogecoin", "mainnet", "m/44'/3'/0'/0/0", "DBus3bamQjgJULBJtYXpEzDWQRwF5iwxgC"],
    ["dash", "mainnet", "m/44'/5'/0'/0/0", "XoJA8qE3N2Y3jMLEtZ3vcN42qseZ8LvFf5"],
    ["dash", "testnet", "m/44'/1'/0'/0/0", "yRd4FhXfVGHXpsuZXPNkMrfD9GVj46pnjt"],
    ["bitcoin-cash", "mainnet", "m/44'/145'/0'/0/0", "bitcoincash:qqyx49mu0kkn9ftfj6hje6g2wfer34yfnq5tahq3q6"],
    ["zcash", "mainnet", "m/44'/133'/0'/0/0", "t1XVXWCvpMgBvUaed4XDqWtgQgJSu1Ghz7F"],
  ])("%s %s %s → %s", (blockchain, network, derivationPath, address) => {
    expect(deriveAddress(SEED, blockchain, network, at(0, 0, 0))).toEqual({ address, derivationPath })
  })
})

describe("paths and encodings", () => {
  const deriver = createAddressDeriver(SEED)
  const derive = (b: Blockchain, n: NetworkName, path = at(0, 0, 0)) => deriver.derive(b, n, path)

  it("uses BIP84 for bitcoin and litecoin, BIP44 elsewhere, coin type 1 on every utxo testnet", () => {
    expect(derive("bitcoin", "testnet").derivationPath).toBe("m/84'/1'/0'/0/0")
    expect(derive("litecoin", "testnet").derivationPath).toBe("m/84'/1'/0'/0/0")
    expect(derive("dogecoin", "testnet").derivationPath).toBe("m/44'/1'/0'/0/0")
    expect(derive("zcash", "testnet", at(3, 1, 7)).derivationPath).toBe("m/44'/1'/3'/1/7")
    expect(derive("ethereum", "sepolia").derivationPath).toBe("m/44'/60'/0'/0/0")
    expect(derive("ethereum-classic", "mordor").derivationPath).toBe("m/44'/61'/0'/0/0")
    expect(derive("tron", "nile").derivationPath).toBe("m/44'/195'/0'/0/0")
    expect(derive("solana", "devnet", at(2, 0, 5)).derivationPath).toBe("m/44'/501'/2'/5'")
    expect(derivationPathOf("polygon", "amoy", at(1, 0, 2))).toBe("m/44'/60'/1'/0/2")
    expect(derivationPathOf("polygon", "sepolia", at(0, 0, 0))).toBeUndefined()
  })

  it("encodes each network in its own format", () => {
    const shapes: ReadonlyArray<[Blockchain, NetworkName, RegExp]> = [
      ["bitcoin", "mainnet", /^bc1q[a-z0-9]{38}$/],
      ["bitcoin", "testnet", /^tb1q[a-z0-9]{38}$/],
      ["litecoin", "mainnet", /^ltc1q/],
      ["litecoin", "testnet", /^tltc1q/],
      ["bitcoin-cash", "mainnet", /^bitcoincash:q/],
      ["bitcoin-cash", "testnet", /^bchtest:q/],
      ["dogecoin", "mainnet", /^D/],
      ["dogecoin", "testnet", /^n/],
      ["dash", "mainnet", /^X/],
      ["dash", "testnet", /^y/],
      ["zcash", "mainnet", /^t1/],
      ["zcash", "testnet", /^tm/],
      ["tron", "nile", /^T[1-9A-HJ-NP-Za-km-z]{33}$/],
      ["xrp", "testnet", /^r/],
      ["base", "sepolia", /^0x[0-9a-fA-F]{40}$/],
    ]
    for (const [b, n, shape] of shapes) expect(derive(b, n).address, `${b}/${n}`).toMatch(shape)
  })

  it("EVM chains share the ethereum key; the same key hash shows in each utxo testnet's format", () => {
    const eth = derive("ethereum", "mainnet").address
    for (const n of allNetworks().filter((x) => x.family === "evm" && x.blockchain !== "ethereum-classic"))
      expect(derive(n.blockchain, n.network).address).toBe(eth)
    expect(derive("ethereum-classic", "mainnet").address).not.toBe(eth)
    expect(derive("bitcoin", "testnet").address.slice(4, -6)).toBe(derive("litecoin", "testnet").address.slice(6, -6))
  })

  it("solana has no change branch: change does not alter the address", () => {
    expect(derive("solana", "mainnet", at(0, 1, 0))).toEqual(derive("solana", "mainnet", at(0, 0, 0)))
  })

  it("a deriver with a tiny cache gives the same addresses as a throwaway one", () => {
    const small = createAddressDeriver(SEED, { cacheSize: 1 })
    for (const [account, index] of [
      [0, 0],
      [1, 0],
      [0, 1],
      [2, 5],
      [0, 2],
      [1, 1],
    ] as const)
      for (const [b, n] of [
        ["bitcoin", "mainnet"],
        ["solana", "mainnet"],
        ["ethereum", "mainnet"],
      ] as const)
        expect(small.derive(b, n, at(account, 0, index))).toEqual(deriveAddress(SEED, b, n, at(account, 0, index)))
  })

  it("does not see later changes to the caller's seed array", () => {
    const seed = Uint8Array.from(SEED)
    const d = createAddressDeriver(seed)
    seed.fill(0)
    expect(d.derive("solana", "mainnet", at(0, 0, 0)).address).toBe("HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk")
  })

  it("rejects (as defects) bad seeds, paths and networks", () => {
    expect(() => createAddressDeriver(new Uint8Array(15))).toThrow(RangeError)
    expect(() => createAddressDeriver(new Uint8Array(65))).toThrow(RangeError)
    expect(() => deriver.derive("bitcoin", "mainnet", at(-1, 0, 0))).toThrow(RangeError)
    expect(() => deriver.derive("bitcoin", "mainnet", at(0, 0, 2 ** 31))).toThrow(RangeError)
    expect(() => deriver.derive("bitcoin", "mainnet", at(0, 0, 1.5))).toThrow(RangeError)
    expect(() => deriver.derive("bitcoin", "mainnet", { account: 0, change: 2 as 0, index: 0 })).toThrow(RangeError)
    expect(() => deriver.derive("ethereum", "testnet", at(0, 0, 0))).toThrow(RangeError)
    expect(deriver.derive("bitcoin", "mainnet", at(2 ** 31 - 1, 1, 2 ** 31 - 1)).derivationPath).toBe("m/84'/0'/2147483647'/1/2147483647")
  })
})
