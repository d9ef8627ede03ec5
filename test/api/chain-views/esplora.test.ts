// The Esplora chain view of bitcoin testnet over a socket: Esplora's paths, field names and units (satoshis), the
// same transactions, blocks, outputs and fees as the custody API's, a mempool transaction unconfirmed; bad input refused.
import { request } from "undici"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { listen } from "../../support/server.js"
import { BTC, EXTERNAL_BTC, startUtxoWorld, type UtxoWorld } from "../../support/utxo-world.js"

let w: UtxoWorld
let server: { url: string; close: () => Promise<void> }
beforeEach(async () => {
  w = await startUtxoWorld()
  server = await listen(w.h.app)
})
afterEach(async () => {
  await server.close()
  await w.close()
})

const get = async (path: string) => {
  const r = await request(`${server.url}/_chain/bitcoin/testnet/esplora${path}`)
  const text = await r.body.text()
  return { status: r.statusCode, type: String(r.headers["content-type"]), text, json: () => JSON.parse(text) }
}
const outputFields = ["scriptpubkey", "scriptpubkey_address", "scriptpubkey_asm", "scriptpubkey_type", "value"]
const statusOf = (height: number, hash: string) => ({
  confirmed: true,
  block_height: height,
  block_hash: hash,
  block_time: expect.any(Number),
})

describe("Esplora REST for UTXO chains", () => {
  it("shows a deposit and a withdrawal with Esplora's fields, in satoshis, as the custody API shows them", async () => {
    const alice = await w.account("alice")
    const a = await w.btcAddress(alice)
    const deposit = await w.deposit(a, "0.001")
    const r = await w.call("POST", `/vaults/${w.vault}/transaction-requests/utxo-transfer`, {
      assetId: BTC,
      feePriority: "standard",
      note: "payout",
      senders: [{ utxoId: `${deposit}:0` }],
      recipients: [{ address: EXTERNAL_BTC, amount: "0.0004" }],
    })
    expect([r.status, r.body.error]).toEqual([201, undefined])
    const listed = (await w.call("GET", `/vaults/${w.vault}/transactions`)).body.data.items
    const withdrawal = listed.find((t: any) => t.direction === "outgoing").transactionId as string
    const fee = 2 * (11 + 68 + 31 * 2)

    const tip = await get("/blocks/tip/height")
    expect([tip.status, tip.type]).toEqual([200, "text/plain; charset=utf-8"])
    const custodyTx = (await w.call("GET", `/vaults/${w.vault}/bitcoin/transactions/${withdrawal}`)).body.data.item
    expect(Number(tip.text)).toBe(Number(custodyTx.minedInBlockHeight))
    expect((await get("/blocks/tip/hash")).text).toBe(custodyTx.minedInBlockHash)
    expect((await get(`/block-height/${tip.text}`)).text).toBe(custodyTx.minedInBlockHash)

    const block = (await get(`/block/${custodyTx.minedInBlockHash}`)).json()
    expect(Object.keys(block).sort()).toEqual([
      "bits",
      "difficulty",
      "height",
      "id",
      "mediantime",
      "merkle_root",
      "nonce",
      "previousblockhash",
      "size",
      "timestamp",
      "tx_count",
      "version",
      "weight",
    ])
    expect(block).toMatchObject({ id: custodyTx.minedInBlockHash, height: Number(tip.text), tx_count: 1 })
    expect((await get(`/block/${custodyTx.minedInBlockHash}/txids`)).json()).toEqual([withdrawal])

    const tx = (await get(`/tx/${withdrawal}`)).json()
    expect(Object.keys(tx).sort()).toEqual(["fee", "locktime", "size", "status", "version", "vin", "vout", "txid", "weight"].sort())
    expect(tx.fee).toBe(fee)
    expect(tx.vin.map((i: any) => [i.txid, i.vout, i.prevout.value, i.prevout.scriptpubkey_address, i.is_coinbase])).toEqual([
      [deposit, 0, 100_000, a, false],
    ])
    expect(tx.vout.map((o: any) => [o.scriptpubkey_address, o.value])).toEqual([
      [EXTERNAL_BTC, 40_000],
      [a, 60_000 - fee],
    ])
    expect(Object.keys(tx.vout[0]).sort()).toEqual(outputFields)
    expect(tx.status).toEqual(statusOf(Number(tip.text), custodyTx.minedInBlockHash))
    expect((await get(`/tx/${withdrawal}/status`)).json()).toEqual(tx.status)

    const address = (await get(`/address/${a}`)).json()
    expect(address).toEqual({
      address: a,
      chain_stats: { funded_txo_count: 2, funded_txo_sum: 100_000 + 60_000 - fee, spent_txo_count: 1, spent_txo_sum: 100_000, tx_count: 2 },
      mempool_stats: { funded_txo_count: 0, funded_txo_sum: 0, spent_txo_count: 0, spent_txo_sum: 0, tx_count: 0 },
    })
    const utxos = (await get(`/address/${a}/utxo`)).json()
    expect(utxos).toEqual([{ txid: withdrawal, vout: 1, status: tx.status, value: 60_000 - fee }])
    expect((await get(`/address/${a}/txs`)).json().map((t: any) => t.txid)).toEqual([withdrawal, deposit])
  })

  it("shows a transaction waiting in the mempool as unconfirmed", async () => {
    const a = await w.btcAddress(await w.account("alice"))
    await w.admin("PUT", "/_sim/chains/bitcoin/testnet/mining", { mode: "manual" })
    const waiting = await w.deposit(a, "0.002")
    expect((await get("/mempool/txids")).json()).toEqual([waiting])
    expect((await get(`/tx/${waiting}/status`)).json()).toEqual({ confirmed: false })
    expect((await get(`/address/${a}`)).json().mempool_stats).toMatchObject({ funded_txo_count: 1, funded_txo_sum: 200_000, tx_count: 1 })
    expect((await get(`/address/${a}/utxo`)).json()).toEqual([{ txid: waiting, vout: 0, status: { confirmed: false }, value: 200_000 }])
  })

  it("refuses bad input as Esplora does and answers 404 for a chain that is not UTXO, writing nothing", async () => {
    const before = w.h.sim.models.position
    const none = "ab".repeat(32)
    const cases: Array<[string, number, string]> = [
      ["/tx/nothex", 400, "Invalid hex string"],
      [`/tx/${none}`, 404, "Transaction not found"],
      [`/block/${none}`, 404, "Block not found"],
      ["/block-height/99999", 404, "Block not found"],
      ["/block-height/x", 400, "Invalid height"],
      ["/blocks/nowhere", 404, "Not found"],
    ]
    for (const [path, status, text] of cases) {
      const r = await get(path)
      expect([path, r.status, r.text]).toEqual([path, status, text])
    }
    const evm = await request(`${server.url}/_chain/ethereum/sepolia/esplora/blocks/tip/height`)
    expect(evm.statusCode).toBe(404)
    await evm.body.text()
    expect(w.h.sim.models.position).toBe(before)
  })
})
