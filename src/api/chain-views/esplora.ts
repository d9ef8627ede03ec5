// Esplora's REST API over a UTXO chain (the paths and answers of Blockstream/esplora API.md, amounts in satoshis):
// the tip, blocks by hash and height, transactions and their status, an address's stats, outputs and history, the
// mempool. Errors as Esplora gives them: a status and a line of text.
import type { ChainIndex } from "./chain-index.js"
import { blockJson, statusJson, txJson } from "./esplora-shapes.js"
import type { UtxoTx } from "./utxo-tx.js"

const text = (status: number, body: string) => new Response(body, { status, headers: { "content-type": "text/plain; charset=utf-8" } })
const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json; charset=utf-8" } })

const HASH = /^[0-9a-fA-F]{64}$/

interface Stats {
  funded_txo_count: number
  funded_txo_sum: number
  spent_txo_count: number
  spent_txo_sum: number
  tx_count: number
}
const emptyStats = (): Stats => ({ funded_txo_count: 0, funded_txo_sum: 0, spent_txo_count: 0, spent_txo_sum: 0, tx_count: 0 })

/** The transactions of an address with their inputs and outputs, newest first (the mempool's before the blocks'). */
const history = (ix: ChainIndex, address: string): Array<UtxoTx> => {
  const all = ix.ofAddress(address).map((t) => ix.utxo(t)!)
  return [...all.filter((u) => u.tx.height === undefined).reverse(), ...all.filter((u) => u.tx.height !== undefined).reverse()]
}

const involves = (u: UtxoTx, address: string) =>
  u.vout.some((o) => o.address === address) || u.vin.some((i) => i.prevout.address === address)

const addressJson = (all: ReadonlyArray<UtxoTx>, address: string) => {
  const chain = emptyStats()
  const mempool = emptyStats()
  for (const u of all) {
    if (!involves(u, address)) continue
    const s = u.tx.height === undefined ? mempool : chain
    s.tx_count++
    for (const o of u.vout)
      if (o.address === address) {
        s.funded_txo_count++
        s.funded_txo_sum += Number(o.value)
      }
    for (const i of u.vin)
      if (i.prevout.address === address) {
        s.spent_txo_count++
        s.spent_txo_sum += Number(i.prevout.value)
      }
  }
  return { address, chain_stats: chain, mempool_stats: mempool }
}

const utxosOf = (ix: ChainIndex, all: ReadonlyArray<UtxoTx>, address: string) => {
  const spent = new Set(all.flatMap((u) => u.vin.map((i) => `${i.txid}:${i.vout}`)))
  return all.flatMap((u) =>
    u.vout.flatMap((o, vout) =>
      o.address === address && !spent.has(`${u.tx.transfer.transactionId}:${vout}`)
        ? [{ txid: u.tx.transfer.transactionId, vout, status: statusJson(ix, u.tx), value: Number(o.value) }]
        : [],
    ),
  )
}

const block = (ix: ChainIndex, hash: string | undefined, then: (height: number) => Response): Response => {
  if (hash === undefined || !HASH.test(hash)) return text(400, "Invalid hex string")
  const height = ix.heightOfHash(hash)
  return height === undefined ? text(404, "Block not found") : then(height)
}

/** The answer to `path` (what follows /esplora). */
export const answerEsplora = (ix: ChainIndex, path: string): Response => {
  const [, head, arg, tail, ...more] = path.split("/")
  if (more.length > 0) return text(404, "Not found")
  const tx = () => {
    if (arg === undefined || !HASH.test(arg)) return text(400, "Invalid hex string")
    const t = ix.byId(arg)
    if (t === undefined) return text(404, "Transaction not found")
    if (tail === undefined) return json(txJson(ix, ix.utxo(t)!))
    return tail === "status" ? json(statusJson(ix, t)) : text(404, "Not found")
  }
  switch (head) {
    case "blocks":
      if (arg === "tip" && tail === "height") return text(200, String(ix.tip))
      if (arg === "tip" && tail === "hash") return text(200, ix.blockHash(ix.tip))
      return text(404, "Not found")
    case "block":
      if (tail === undefined) return block(ix, arg, (height) => json(blockJson(ix, height)))
      if (tail === "txids") return block(ix, arg, (height) => json(ix.inBlock(height).map((t) => t.transfer.transactionId)))
      return text(404, "Not found")
    case "block-height": {
      if (tail !== undefined) return text(404, "Not found")
      const height = arg !== undefined && /^[0-9]{1,10}$/.test(arg) ? Number(arg) : undefined
      if (height === undefined) return text(400, "Invalid height")
      return height > ix.tip ? text(404, "Block not found") : text(200, ix.blockHash(height))
    }
    case "tx":
      return tx()
    case "address": {
      if (arg === undefined || arg === "") return text(400, "Invalid Bitcoin address")
      const all = history(ix, arg)
      if (tail === undefined) return json(addressJson(all, arg))
      if (tail === "utxo") return json(utxosOf(ix, all, arg))
      if (tail === "txs") return json(all.filter((u) => involves(u, arg)).map((u) => txJson(ix, u)))
      return text(404, "Not found")
    }
    case "mempool":
      if (arg === "txids" && tail === undefined) return json(ix.pending.map((t) => t.transfer.transactionId))
      return text(404, "Not found")
    default:
      return text(404, "Not found")
  }
}
