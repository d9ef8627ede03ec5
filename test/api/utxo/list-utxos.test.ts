// GET /vaults/{vaultId}/utxos over a socket: unspent by default, spent on request, reservations shown, filters,
// pages by utxoId, as-of reads, the vault and version checks.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { BTC, EXTERNAL_BTC, startUtxoWorld, type UtxoWorld } from "../../support/utxo-world.js"

let w: UtxoWorld
let alice: string
let bob: string
let aliceAddr: string
let bobAddr: string
let d1: string
let d2: string
let d3: string
beforeAll(async () => {
  w = await startUtxoWorld()
  alice = await w.account("alice")
  bob = await w.account("bob")
  aliceAddr = await w.btcAddress(alice)
  bobAddr = await w.btcAddress(bob)
  d1 = await w.deposit(aliceAddr, "0.001")
  d2 = await w.deposit(aliceAddr, "0.002")
  d3 = await w.deposit(bobAddr, "0.0005")
})
afterAll(async () => w.close())

const list = (query = "") => w.call("GET", `/vaults/${w.vault}/utxos${query}`)
const ids = (r: { body: any }) => r.body.data.items.map((u: { utxoId: string }) => u.utxoId)

describe("GET /vaults/{vaultId}/utxos", () => {
  it("lists the vault's unspent outputs in the order credited, with value, account, output index and time in ms", async () => {
    const r = await list()
    expect(r.status).toBe(200)
    expect(r.body.apiVersion).toBe("2026-03-20")
    expect(r.body.data).toMatchObject({ limit: 50, hasMore: false })
    expect(ids(r)).toEqual([`${d1}:0`, `${d2}:0`, `${d3}:0`])
    expect(r.body.data.items[0]).toEqual({
      utxoId: `${d1}:0`,
      transactionId: d1,
      outputIndex: 0,
      address: aliceAddr,
      vaultAccountId: alice,
      assetId: BTC,
      blockchain: "bitcoin",
      network: "testnet",
      value: { amount: "0.001", assetUnit: "BTC" },
      isSpent: false,
      isReserved: false,
      createdAtMs: Date.UTC(2026, 0, 1),
    })
  })

  it("filters by address, vault account and asset; pages by utxoId", async () => {
    expect(ids(await list(`?address=${bobAddr.toUpperCase()}`))).toEqual([`${d3}:0`])
    expect(ids(await list(`?vaultAccountId=${alice}`))).toEqual([`${d1}:0`, `${d2}:0`])
    expect(ids(await list(`?assetId=${BTC}&vaultAccountId=${bob}`))).toEqual([`${d3}:0`])
    const first = await list("?limit=2")
    expect(first.body.data).toMatchObject({ limit: 2, hasMore: true })
    const next = await list(`?limit=2&startingAfter=${ids(first)[1]}`)
    expect(next.body.data).toMatchObject({ limit: 2, startingAfter: ids(first)[1], hasMore: false })
    expect(ids(next)).toEqual([`${d3}:0`])
  })

  it("shows an output held by an open request as reserved, and spent ones only with isSpent=true; as-of reads see the past", async () => {
    await w.admin("PUT", `/_sim/vaults/${w.vault}/approval-policy`, { mode: "manual", levels: 1 })
    const before = await w.head()
    const created = await w.call("POST", `/vaults/${w.vault}/transaction-requests/utxo-transfer`, {
      assetId: BTC,
      feePriority: "slow",
      note: "spend d1",
      recipients: [{ address: EXTERNAL_BTC, amount: "0.0005" }],
      senders: [{ utxoId: `${d1}:0` }],
    })
    expect(created.status).toBe(201)
    const requestId = created.body.data.item.transactionRequestId
    const held = (await list(`?vaultAccountId=${alice}`)).body.data.items[0]
    expect(held).toMatchObject({ utxoId: `${d1}:0`, isSpent: false, isReserved: true, reservedByTransactionRequestId: requestId })
    expect((await w.admin("POST", `/_sim/transaction-requests/${requestId}/approve`, {})).status).toBe(200)
    const spent = await list("?isSpent=true")
    expect(spent.body.data.items).toEqual([
      expect.objectContaining({ utxoId: `${d1}:0`, isSpent: true, isReserved: false, spentInTransactionId: expect.any(String) }),
    ])
    const unspent = ids(await list())
    expect(unspent).not.toContain(`${d1}:0`)
    // The change came back to alice's address as a new output of the spending transaction.
    const txid = spent.body.data.items[0].spentInTransactionId
    expect(unspent).toContain(`${txid}:1`)
    const past = await w.h.raw({
      method: "GET",
      url: `/vaults/${w.vault}/utxos`,
      creds: w.creds,
      override: { "x-sim-as-of": `position:${before}` },
    })
    expect(past.body.data.items.map((u: { utxoId: string }) => u.utxoId)).toEqual([`${d1}:0`, `${d2}:0`, `${d3}:0`])
    expect(past.body.data.items[0].isReserved).toBe(false)
  })

  it("refuses bad filters and pages, an unknown account or asset, an unknown vault, and the older versions", async () => {
    const flag = await list("?isSpent=yes")
    expect([flag.status, flag.body.error.code, flag.body.error.details[0].attribute]).toEqual([400, "invalid_data", "isSpent"])
    const page = await list("?startingAfter=nope:0")
    expect([page.status, page.body.error.code]).toEqual([400, "invalid_pagination"])
    const big = await list("?limit=501")
    expect([big.status, big.body.error.code]).toEqual([400, "limit_greater_than_allowed"])
    const extra = await list("?colour=red")
    expect([extra.status, extra.body.error.code]).toEqual([409, "extra_query_attributes"])
    const account = await list("?vaultAccountId=000000000000000000000000")
    expect([account.status, account.body.error.code]).toEqual([404, "resource_not_found"])
    const asset = await list("?assetId=nope")
    expect([asset.status, asset.body.error.code]).toEqual([404, "resource_not_found"])
    const vault = await w.call("GET", "/vaults/000000000000000000000000/utxos")
    expect([vault.status, vault.body.error.code]).toEqual([403, "api_key_not_allowed_for_wallet"])
    const old = await w.h.raw({
      method: "GET",
      url: `/vaults/${w.vault}/utxos`,
      creds: w.creds,
      override: { "x-api-version": "2024-05-09" },
    })
    expect([old.status, old.body.error.code]).toEqual([400, "uri_not_found"])
  })
})
