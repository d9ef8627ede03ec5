// POST …/utxo-transfer/validate over a socket: the preview the transfer would get, fees included; nothing
// reserved, nothing written; the fee it answers is the fee the transfer pays when mined.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { BTC, EXTERNAL_BTC, EXTERNAL_BTC_2, startUtxoWorld, type UtxoWorld } from "../../support/utxo-world.js"

let w: UtxoWorld
let a: string
let b: string
let ua: string
let ub: string
let carol: string
beforeAll(async () => {
  w = await startUtxoWorld()
  a = await w.btcAddress(await w.account("alice"))
  b = await w.btcAddress(await w.account("bob"))
  carol = await w.account("carol")
  ua = `${await w.deposit(a, "0.001")}:0`
  ub = `${await w.deposit(b, "0.0005")}:0`
})
afterAll(async () => w.close())

const body = {
  assetId: BTC,
  feePriority: "fast",
  note: "batch 7",
  recipients: [
    { address: EXTERNAL_BTC, amount: "0.0007" },
    { address: EXTERNAL_BTC_2, amount: "0.0003" },
  ],
  maxFee: "0.0001",
}

describe("utxo-transfer/validate", () => {
  it("answers 200 with the preview, reserving nothing and writing nothing; the transfer then pays exactly the fee previewed", async () => {
    const item = { ...body, senders: [{ utxoId: ua }, { utxoId: ub }], changeData: { vaultAccountId: carol } }
    const before = await w.head()
    const v = await w.call("POST", `/vaults/${w.vault}/transaction-requests/utxo-transfer/validate`, item)
    expect(v.status).toBe(200)
    // fast: 5 sat/vB × (11 + 2 × 68 + 3 × 31) vbytes
    const fee = 5 * (11 + 2 * 68 + 3 * 31)
    expect(v.body.data.item).toMatchObject({
      isValid: true,
      gross: false,
      feePriority: "fast",
      fee: { amount: (fee / 1e8).toFixed(8).replace(/0+$/, ""), amountUnit: "BTC" },
      maxFee: "0.0001",
      sizeInVbytes: 11 + 2 * 68 + 3 * 31,
      totalTransactionAmount: "0.001",
      note: "batch 7",
    })
    expect(v.body.data.item.transactionRequestId).toBeUndefined()
    expect(await w.head()).toBe(before)
    const listed = (await w.call("GET", `/vaults/${w.vault}/utxos`)).body.data.items
    expect(listed.every((u: { isReserved: boolean }) => !u.isReserved)).toBe(true)

    const c = await w.call("POST", `/vaults/${w.vault}/transaction-requests/utxo-transfer`, item)
    expect(c.status).toBe(201)
    const { transactionRequestId, transactionRequestStatus, ...preview } = c.body.data.item
    expect(transactionRequestStatus).toBe("created")
    const { isValid, ...previewed } = v.body.data.item
    expect(isValid).toBe(true)
    expect(preview).toEqual(previewed)
    const mined = (await w.eventsSince(before)).find((e) => e.type === "TxRequestMined" && e.data.requestId === transactionRequestId)
    expect(mined?.data.fee).toBe(String(fee))
  })
})
