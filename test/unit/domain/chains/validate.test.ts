// Address validation: real-world addresses accepted, one-character corruptions and wrong networks rejected.
import { bech32m } from "@scure/base"
import { describe, expect, it } from "vitest"
import { validateAddress, type Blockchain, type NetworkName } from "../../../../src/domain/chains/index.js"
import { base58check } from "../../../../src/domain/chains/addresses/encode.js"

const BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
const BASE58_XRP = "rpshnaf39wBUDNEGHJKLM4PQRST7VWXYZ2bcdeCg65jkm8oFqi1tuvAxyz"
const BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"

/** Replaces the middle character by the next one of the same alphabet (and letter case), so only a checksum can tell. */
const corrupt = (address: string, alphabet: string): string => {
  const at = Math.floor(address.length / 2)
  const upper = address === address.toUpperCase() && /[A-Z]/.test(address)
  const chars = upper ? alphabet.toUpperCase() : alphabet
  const i = chars.indexOf(address[at] ?? "")
  if (i < 0) throw new Error(`${address[at]} not in the alphabet`)
  return address.slice(0, at) + chars[(i + 1) % chars.length] + address.slice(at + 1)
}

/** EIP-55: flipping the case of one letter keeps the hex value but breaks the checksum. */
const flipCase = (address: string): string => {
  const at = [...address].findIndex((c, i) => i > 1 && /[a-fA-F]/.test(c))
  const c = address[at] ?? ""
  return address.slice(0, at) + (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()) + address.slice(at + 1)
}

type Case = readonly [Blockchain, NetworkName, string, string]
// Real addresses: well-known holders, contracts, the spec examples of BIP173/BIP350/cashaddr/ZIP-320/XLS-5d.
const REAL: ReadonlyArray<Case> = [
  ["bitcoin", "mainnet", "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa", BASE58], // genesis coinbase
  ["bitcoin", "mainnet", "3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy", BASE58],
  ["bitcoin", "mainnet", "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq", BECH32],
  ["bitcoin", "mainnet", "bc1p5d7rjq7g6rdk2yhzks9smlaqtedr4dekq08ge8ztwac72sfr9rusxg3297", BECH32], // taproot
  ["bitcoin", "mainnet", "BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4", BECH32],
  ["bitcoin", "mainnet", "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0", BECH32],
  ["bitcoin", "mainnet", "bc1zw508d6qejxtdg4y5r3zarvaryvaxxpcs", BECH32], // witness v2
  ["bitcoin", "testnet", "tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7", BECH32], // P2WSH
  ["bitcoin", "testnet", "tb1pqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesf3hn0c", BECH32],
  ["litecoin", "mainnet", "LdP8Qox1VAhCzLJNqrr74YovaWYyNBUWvL", BASE58],
  ["litecoin", "mainnet", "MGxNPPB7eBoWPUaprtX9v9CXJZoD2465zN", BASE58],
  ["litecoin", "mainnet", "ltc1qzvcgmntglcuv4smv3lzj6k8szcvsrmvk0phrr9wfq8w493r096ssm2fgsw", BECH32],
  ["bitcoin-cash", "mainnet", "bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a", BECH32],
  ["bitcoin-cash", "mainnet", "qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a", BECH32],
  ["bitcoin-cash", "mainnet", "BITCOINCASH:QPM2QSZNHKS23Z7629MMS6S4CWEF74VCWVY22GDX6A", BECH32],
  ["bitcoin-cash", "mainnet", "bitcoincash:ppm2qsznhks23z7629mms6s4cwef74vcwvn0h829pq", BECH32], // P2SH
  ["bitcoin-cash", "mainnet", "1BpEi6DfDAUFd7GtittLSdBeYJvcoaVggu", BASE58], // legacy form of qpm2qs…
  ["dogecoin", "mainnet", "DH5yaieqoZN36fDVciNyRueRGvGLR3mr7L", BASE58],
  ["dash", "mainnet", "XpESxaUmonkq8RaLLp46Brx2K39ggQe226", BASE58],
  ["zcash", "mainnet", "t1Hsc1LR8yKnbbe3twRp88p6vFfC5t7DLbs", BASE58],
  ["zcash", "mainnet", "t1VmmGiyjVNeCjxDZzg7vZmd99WyzVby9yC", BASE58],
  ["zcash", "mainnet", "tex1s2rt77ggv6q989lr49rkgzmh5slsksa9khdgte", BECH32], // ZIP-320 example of t1Vmm…
  ["ethereum", "mainnet", "0xde0B295669a9FD93d5F28D9Ec85E40f4cb697BAe", ""],
  ["ethereum", "mainnet", "0xdAC17F958D2ee523a2206206994597C13D831ec7", ""],
  ["ethereum", "sepolia", "0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238", ""],
  ["binance-smart-chain", "mainnet", "0x55d398326f99059fF775485246999027B3197955", ""],
  ["tron", "mainnet", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", BASE58],
  ["tron", "mainnet", "TEkxiTehnzSmSe2XqrBj4w32RUN966rdz8", BASE58],
  ["tron", "nile", "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf", BASE58],
  ["xrp", "mainnet", "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh", BASE58_XRP], // the genesis account
  ["xrp", "mainnet", "XVPcpSm47b1CZkf5AkKM9a84dQHe3mTAxgxfLw2qYoe7Boa", BASE58_XRP], // X-address of it, tag 12345
  ["xrp", "testnet", "TVK3SYvMLZR6rEtLDZh3saYHaqFSeMpn3Dz7EsmQC63VUwh", BASE58_XRP],
]

describe("real addresses", () => {
  it.each(REAL)("%s %s accepts %s", (blockchain, network, address) => {
    expect(validateAddress(blockchain, network, address)).toBe(true)
  })

  it.each(REAL)("%s %s rejects %s with one character changed", (blockchain, network, address, alphabet) => {
    const changed = alphabet === "" ? flipCase(address) : corrupt(address, alphabet)
    expect(changed).not.toBe(address)
    expect(validateAddress(blockchain, network, changed)).toBe(false)
  })

  it("the ZIP-320 TEX example encodes the same key hash as its t1 address", () => {
    const t1 = base58check.decode("t1VmmGiyjVNeCjxDZzg7vZmd99WyzVby9yC").slice(2)
    const tex = bech32m.fromWords(bech32m.decode("tex1s2rt77ggv6q989lr49rkgzmh5slsksa9khdgte").words)
    expect(tex).toEqual(t1)
  })
})

describe("solana (no checksum)", () => {
  const REAL_SOL = [
    "EPjFWdd5AufqZSqeM2qpai3Pk3c2X2ry3HC3Ek2LbkcH",
    "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB",
    "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA",
    "11111111111111111111111111111111",
  ]

  it.each(REAL_SOL)("accepts %s on both networks", (address) => {
    expect(validateAddress("solana", "mainnet", address)).toBe(true)
    expect(validateAddress("solana", "devnet", address)).toBe(true)
  })

  // A substituted base58 character usually still decodes to 32 bytes, which every real validator accepts, so the
  // meaningful corruptions are the ones that break the alphabet or the length.
  it.each(REAL_SOL)("rejects %s with a character outside base58 or one character too many", (address) => {
    for (const bad of ["0", "O", "I", "l"]) expect(validateAddress("solana", "mainnet", bad + address.slice(1))).toBe(false)
    expect(validateAddress("solana", "mainnet", address + "z")).toBe(false)
    expect(validateAddress("solana", "mainnet", address.slice(0, 20))).toBe(false)
  })
})

describe("segwit rules (BIP173/BIP350 invalid vectors)", () => {
  it.each<[NetworkName, string]>([
    ["testnet", "tc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq5zuyut"], // unknown hrp
    ["mainnet", "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd"], // v1 with a bech32 checksum
    ["testnet", "tb1z0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqglt7rf"], // v2 with a bech32 checksum
    ["mainnet", "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kemeawh"], // v0 with a bech32m checksum
    ["mainnet", "bc1p38j9r5y49hruaue7wxjce0updqjuyyx0kh56v8s25huc6995vvpql3jow4"], // 'o' is not in the charset
    ["mainnet", "BC130XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ7ZWS8R"], // witness version 17
    ["mainnet", "bc1pw5dgrnzv"], // program of 1 byte
    ["mainnet", "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v8n0nx0muaewav253zgeav"], // program of 41 bytes
    ["mainnet", "BC1QR508D6QEJXTDG4Y5R3ZARVARY0C5XW7KN40WF2"], // v0 program of 16 bytes
    ["testnet", "tb1z0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq47Zagq"], // mixed case
    ["mainnet", "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v07qwwzcrf"], // more than 4 padding bits
    ["testnet", "tb1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vpggkg4j"], // non-zero padding
    ["mainnet", "bc1gmk9yu"], // empty data
  ])("bitcoin %s rejects %s", (network, address) => {
    expect(validateAddress("bitcoin", network, address)).toBe(false)
  })
})

describe("networks and chains", () => {
  it("bitcoin-family formats tell mainnet from testnet", () => {
    expect(validateAddress("bitcoin", "testnet", "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa")).toBe(false)
    expect(validateAddress("bitcoin", "testnet", "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq")).toBe(false)
    expect(validateAddress("bitcoin", "mainnet", "tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7")).toBe(false)
    expect(validateAddress("bitcoin-cash", "testnet", "bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a")).toBe(false)
    expect(validateAddress("bitcoin-cash", "testnet", "qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a")).toBe(false)
    expect(validateAddress("bitcoin-cash", "mainnet", "ecash:qpm2qsznhks23z7629mms6s4cwef74vcwva87rkuu2")).toBe(false)
    expect(validateAddress("zcash", "testnet", "t1Hsc1LR8yKnbbe3twRp88p6vFfC5t7DLbs")).toBe(false)
    expect(validateAddress("xrp", "testnet", "XVPcpSm47b1CZkf5AkKM9a84dQHe3mTAxgxfLw2qYoe7Boa")).toBe(false)
    expect(validateAddress("xrp", "mainnet", "TVK3SYvMLZR6rEtLDZh3saYHaqFSeMpn3Dz7EsmQC63VUwh")).toBe(false)
  })

  it("formats shared by both networks are valid on both", () => {
    expect(validateAddress("ethereum", "sepolia", "0xde0B295669a9FD93d5F28D9Ec85E40f4cb697BAe")).toBe(true)
    expect(validateAddress("tron", "nile", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t")).toBe(true)
    expect(validateAddress("xrp", "testnet", "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh")).toBe(true)
  })

  it("an address of one chain is not one of another", () => {
    expect(validateAddress("dogecoin", "mainnet", "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa")).toBe(false)
    expect(validateAddress("litecoin", "mainnet", "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq")).toBe(false)
    expect(validateAddress("tron", "mainnet", "0xde0B295669a9FD93d5F28D9Ec85E40f4cb697BAe")).toBe(false)
    expect(validateAddress("bitcoin", "mainnet", "0xde0B295669a9FD93d5F28D9Ec85E40f4cb697BAe")).toBe(false)
    expect(validateAddress("ethereum", "mainnet", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t")).toBe(false)
    expect(validateAddress("xrp", "mainnet", "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa")).toBe(false)
    expect(validateAddress("solana", "mainnet", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t")).toBe(false)
  })

  it("EVM: all-lowercase and all-uppercase hex carry no checksum; the 0x prefix is required", () => {
    expect(validateAddress("polygon", "mainnet", "0xde0b295669a9fd93d5f28d9ec85e40f4cb697bae")).toBe(true)
    expect(validateAddress("polygon", "mainnet", "0xDE0B295669A9FD93D5F28D9EC85E40F4CB697BAE")).toBe(true)
    expect(validateAddress("polygon", "mainnet", "de0B295669a9FD93d5F28D9Ec85E40f4cb697BAe")).toBe(false)
    expect(validateAddress("polygon", "mainnet", "0Xde0b295669a9fd93d5f28d9ec85e40f4cb697bae")).toBe(false)
    expect(validateAddress("polygon", "mainnet", "0xde0b295669a9fd93d5f28d9ec85e40f4cb697ba")).toBe(false)
  })

  it("never throws and rejects junk", () => {
    for (const junk of ["", " ", "bitcoincash:", ":", "x".repeat(10_000), "bc1", "0x", "r", "T", "💥", "tex1"])
      for (const [b, n] of [
        ["bitcoin", "mainnet"],
        ["bitcoin-cash", "mainnet"],
        ["ethereum", "mainnet"],
        ["tron", "mainnet"],
        ["solana", "mainnet"],
        ["xrp", "mainnet"],
        ["zcash", "mainnet"],
      ] as const)
        expect(validateAddress(b, n, junk)).toBe(false)
    expect(validateAddress("ethereum", "testnet", "0xde0B295669a9FD93d5F28D9Ec85E40f4cb697BAe")).toBe(false)
  })
})
