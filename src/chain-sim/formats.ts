// Transaction ids and block hashes in each chain family's own format, from seeded bytes.
import { base58 } from "@scure/base"
import type { ChainFamily } from "../domain/chains/index.js"

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex")

/** `bytes(n)` must give n deterministic bytes; a transaction id is 32 bytes (64 for a solana signature). */
export const formatTxId = (family: ChainFamily, bytes: (n: number) => Uint8Array): string => {
  switch (family) {
    case "evm":
      return "0x" + hex(bytes(32))
    case "solana":
      return base58.encode(bytes(64))
    case "xrp":
      return hex(bytes(32)).toUpperCase()
    case "utxo":
    case "tron":
      return hex(bytes(32))
  }
}

export const formatBlockHash = (family: ChainFamily, bytes: (n: number) => Uint8Array): string => {
  switch (family) {
    case "utxo": {
      // Bitcoin-family block hashes start with zeros (proof of work); keep the look.
      const b = bytes(32)
      b[0] = 0
      b[1] = 0
      b[2] = 0
      b[3] = b[3]! & 0x0f
      return hex(b)
    }
    case "evm":
      return "0x" + hex(bytes(32))
    case "solana":
      return base58.encode(bytes(32))
    case "xrp":
      return hex(bytes(32)).toUpperCase()
    case "tron": {
      const b = bytes(32)
      return "0000000000" + hex(b).slice(10)
    }
  }
}
