// A UTXO chain's transactions as Esplora shows them (Blockstream/esplora API.md): inputs, outputs in satoshis,
// fee, status, and the blocks (the inputs and outputs are utxo-tx.ts's).
import { sha256 } from "@noble/hashes/sha2.js"
import type { ChainIndex } from "./chain-index.js"
import type { ChainTx } from "./chain-tx.js"
import type { Output, UtxoTx } from "./utxo-tx.js"

/** Esplora's script type names, from the address's form (the simulator keeps no scripts). */
const scriptType = (address: string): string => {
  const a = address.toLowerCase()
  if (/^(bc|tb|ltc|tltc|bcrt)1q/.test(a)) return a.length > 50 ? "v0_p2wsh" : "v0_p2wpkh"
  if (/^(bc|tb|bcrt)1p/.test(a)) return "v1_p2tr"
  if (/^[23mn]|^[ML]|^Q|^A|^9|^t3/.test(address)) return address.startsWith("3") || address.startsWith("2") ? "p2sh" : "p2pkh"
  return "p2pkh"
}

const outputJson = (o: Output) => ({
  scriptpubkey: "",
  scriptpubkey_asm: "",
  scriptpubkey_type: scriptType(o.address),
  scriptpubkey_address: o.address,
  value: Number(o.value),
})

export const statusJson = (ix: ChainIndex, tx: ChainTx) =>
  tx.height === undefined
    ? { confirmed: false }
    : { confirmed: true, block_height: tx.height, block_hash: tx.blockHash!, block_time: Math.floor(ix.blockTime(tx.height) / 1000) }

export const txJson = (ix: ChainIndex, u: UtxoTx) => {
  const size = 10 + 148 * u.vin.length + 34 * u.vout.length
  return {
    txid: u.tx.transfer.transactionId,
    version: 2,
    locktime: 0,
    vin: u.vin.map((i) => ({
      txid: i.txid,
      vout: i.vout,
      prevout: outputJson(i.prevout),
      scriptsig: "",
      scriptsig_asm: "",
      witness: [],
      is_coinbase: false,
      sequence: 4294967293,
    })),
    vout: u.vout.map(outputJson),
    size,
    weight: size * 4,
    fee: Number(u.fee),
    status: statusJson(ix, u.tx),
  }
}

export const blockJson = (ix: ChainIndex, height: number) => {
  const txs = ix.inBlock(height)
  const time = Math.floor(ix.blockTime(height) / 1000)
  return {
    id: ix.blockHash(height),
    height,
    version: 536870912,
    timestamp: time,
    tx_count: txs.length,
    size: 80 + 250 * txs.length,
    weight: 4 * (80 + 250 * txs.length),
    merkle_root: Buffer.from(sha256(new TextEncoder().encode(txs.map((t) => t.transfer.transactionId).join(",")))).toString("hex"),
    previousblockhash: height === 0 ? null : ix.blockHash(height - 1),
    mediantime: time,
    nonce: 0,
    bits: 486604799,
    difficulty: 1,
  }
}
