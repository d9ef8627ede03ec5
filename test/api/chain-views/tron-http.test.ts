// The Tron chain view read over a socket (undici) as a java-tron full node's HTTP API: blocks, accounts, a
// deposit's and a withdrawal's transaction and transaction info, each equal to what the custody API reports.
import { request } from "undici"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { assetId } from "../../support/catalogue.js"
import { startHarness, type Harness } from "../../support/harness.js"
import { listen } from "../../support/server.js"

const EXTERNAL = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"
const USDT = "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf"

let h: Harness
let server: { url: string; close: () => Promise<void> }
beforeEach(async () => {
  h = await startHarness()
  server = await listen(h.app)
})
afterEach(async () => {
  await server.close()
  await h.close()
})

const tron = async (method: string, body?: unknown, network = "nile"): Promise<{ status: number; body: any }> => {
  const r = await request(`${server.url}/_chain/tron/${network}/wallet/${method}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: body === undefined ? "" : JSON.stringify(body),
  })
  return { status: r.statusCode, body: await r.body.json() }
}

const sun = (decimal: string, decimals = 6) => {
  const [whole, fraction = ""] = decimal.split(".")
  return BigInt(whole! + fraction.padEnd(decimals, "0"))
}

/** A vault address on nile with 500 TRX and 100 USDT deposited and mined. */
const funded = async () => {
  await h.admin("PUT", "/_sim/chains/tron/nile/mining", { mode: "auto", confirmations: 1 })
  const acct = (
    await h.client.call<any>("POST", `/vaults/${h.testVaultId}/vault-account`, {
      item: { name: "t", color: "#000000", isHiddenInDashboard: false },
    })
  ).body.data.item.vaultAccountId
  const add = (item: object) => h.client.call<any>("PUT", `/vaults/${h.testVaultId}/vault-accounts/${acct}/add-asset`, { item })
  const address = (await add({ assetId: assetId("tron", "nile", "TRX"), label: "w" })).body.data.item.address as string
  await add({ assetId: assetId("tron", "nile", "USDT"), address })
  const deposit = async (symbol: string, amount: string) => {
    const r = await h.admin("POST", "/_sim/deposits", {
      blockchain: "tron",
      network: "nile",
      address,
      assetId: assetId("tron", "nile", symbol),
      amount,
    })
    expect(r.status).toBe(201)
    return r.body.transactionId as string
  }
  return { acct, address, coinDeposit: await deposit("TRX", "500"), tokenDeposit: await deposit("USDT", "100") }
}

const custodyTransaction = async (transactionId: string) =>
  (await h.client.call<any>("GET", `/vaults/${h.testVaultId}/tron/transactions/${transactionId}`)).body.data.item
const custodyAssets = async (address: string) =>
  Object.fromEntries(
    (await h.client.call<any>("GET", `/vaults/${h.testVaultId}/tron/addresses/${address}/assets`)).body.data.item.assets.map((a: any) => [
      a.symbol,
      a.assetData,
    ]),
  )
const height = async () =>
  (await h.admin("GET", "/_sim/chains")).body.chains.find((c: any) => c.blockchain === "tron" && c.network === "nile").height

describe("Tron's HTTP API (java-tron wallet/…)", () => {
  it("a deposit: its block, transaction and info, and the account's balances are the custody API's", async () => {
    const { address, coinDeposit, tokenDeposit } = await funded()
    const now = await tron("getnowblock")
    expect(now.status).toBe(200)
    expect(now.body.block_header.raw_data.number).toBe(await height())
    const custody = await custodyTransaction(coinDeposit)
    const tx = await tron("gettransactionbyid", { value: coinDeposit, visible: true })
    expect(tx.body.txID).toBe(coinDeposit.replace(/^0x/, ""))
    expect(tx.body.ret).toEqual([{ contractRet: "SUCCESS" }])
    expect(tx.body.raw_data.contract[0].type).toBe("TransferContract")
    expect(tx.body.raw_data.contract[0].parameter.value).toEqual({
      amount: 500_000_000,
      owner_address: custody.senders[0].address,
      to_address: address,
    })
    const info = await tron("gettransactioninfobyid", { value: coinDeposit })
    expect(info.body).toMatchObject({ id: tx.body.txID, blockNumber: Number(custody.minedInBlockHeight) })
    const block = await tron("getblockbynum", { num: info.body.blockNumber, visible: true })
    expect(block.body.blockID).toBe(custody.minedInBlockHash.replace(/^0x/, ""))
    expect(block.body.block_header.raw_data.timestamp).toBe(info.body.blockTimeStamp)
    expect(block.body.transactions.map((t: any) => t.txID)).toContain(tx.body.txID)
    const token = await tron("gettransactionbyid", { value: tokenDeposit, visible: true })
    expect(token.body.raw_data.contract[0]).toMatchObject({
      type: "TriggerSmartContract",
      parameter: { value: { contract_address: USDT } },
    })
    const assets = await custodyAssets(address)
    const account = await tron("getaccount", { address, visible: true })
    expect(account.body).toMatchObject({ address, balance: Number(sun(assets.TRX.totalAmount)), trc20: [{ [USDT]: "100000000" }] })
    expect(sun(assets.USDT.totalAmount)).toBe(100_000_000n)
  })

  it("a withdrawal: its fee, sender and amount are the custody API's; hex addresses when not visible", async () => {
    const { acct, address } = await funded()
    const r = await h.client.call<any>("POST", `/vaults/${h.testVaultId}/transaction-requests/single-transfer`, {
      item: { vaultAccountId: acct, assetId: assetId("tron", "nile", "TRX"), fromAddress: address, toAddress: EXTERNAL, amount: "25" },
    })
    expect(r.status, JSON.stringify(r.body)).toBeLessThan(300)
    const request = (await h.client.call<any>("GET", `/transactionRequests/${r.body.data.item.transactionRequestId}`)).body.data.item
    expect(request.transactionRequestStatus).toBe("success")
    const custody = await custodyTransaction(request.transactionId)
    const info = await tron("gettransactioninfobyid", { value: request.transactionId })
    expect(BigInt(info.body.fee ?? 0)).toBe(sun(custody.transactionFee.amount))
    expect(info.body.blockNumber).toBe(Number(custody.minedInBlockHeight))
    const tx = await tron("gettransactionbyid", { value: request.transactionId })
    const value = tx.body.raw_data.contract[0].parameter.value
    expect(value.amount).toBe(25_000_000)
    expect(value.owner_address).toMatch(/^41[0-9a-f]{40}$/)
    expect((await tron("getaccount", { address: value.owner_address, visible: true })).body.address).toBe(address)
    const assets = await custodyAssets(address)
    const hexAccount = await tron("getaccount", { address, visible: false })
    expect(hexAccount.body).toMatchObject({ address: value.owner_address, balance: Number(sun(assets.TRX.totalAmount)) })
    // Stake 2.0 fields of an account that staked nothing, its default permissions, and when it last sent a transaction.
    const keys = [{ address: value.owner_address, weight: 1 }]
    expect(hexAccount.body).toMatchObject({
      latest_opration_time: info.body.blockTimeStamp,
      net_window_size: 28_800_000,
      net_window_optimized: true,
      account_resource: { energy_window_size: 28_800_000, energy_window_optimized: true },
      owner_permission: { permission_name: "owner", threshold: 1, keys },
      active_permission: [
        { type: "Active", id: 2, permission_name: "active", threshold: 1, operations: expect.stringMatching(/^[0-9a-f]{64}$/), keys },
      ],
      frozenV2: [{}, { type: "ENERGY" }, { type: "TRON_POWER" }],
    })
    const received = (await tron("getaccount", { address: EXTERNAL, visible: true })).body
    expect(received.latest_opration_time).toBeUndefined()
    expect(received.frozenV2).toEqual([{}, { type: "ENERGY" }, { type: "TRON_POWER" }])
    expect((await tron("getaccount", { address: EXTERNAL, visible: true })).body.balance).toBe(25_000_000)
  })

  it("a TRC-20 withdrawal: the energy burned is the custody API's fee, the token balances follow", async () => {
    const { acct, address } = await funded()
    const r = await h.client.call<any>("POST", `/vaults/${h.testVaultId}/transaction-requests/single-transfer`, {
      item: { vaultAccountId: acct, assetId: assetId("tron", "nile", "USDT"), fromAddress: address, toAddress: EXTERNAL, amount: "40" },
    })
    expect(r.status, JSON.stringify(r.body)).toBeLessThan(300)
    const request = (await h.client.call<any>("GET", `/transactionRequests/${r.body.data.item.transactionRequestId}`)).body.data.item
    expect(request.transactionRequestStatus).toBe("success")
    const custody = await custodyTransaction(request.transactionId)
    const info = await tron("gettransactioninfobyid", { value: request.transactionId, visible: true })
    expect(info.body.fee).toBeGreaterThan(0)
    expect(BigInt(info.body.fee)).toBe(sun(custody.transactionFee.amount))
    expect(info.body).toMatchObject({ contract_address: USDT, receipt: { energy_fee: info.body.fee, result: "SUCCESS" } })
    const tx = await tron("gettransactionbyid", { value: request.transactionId, visible: true })
    expect(tx.body.raw_data.contract[0].parameter.value).toMatchObject({ owner_address: address, contract_address: USDT })
    const assets = await custodyAssets(address)
    expect(sun(assets.USDT.totalAmount)).toBe(60_000_000n)
    expect((await tron("getaccount", { address, visible: true })).body).toMatchObject({
      balance: Number(sun(assets.TRX.totalAmount)),
      trc20: [{ [USDT]: "60000000" }],
    })
    expect((await tron("getaccount", { address: EXTERNAL, visible: true })).body.trc20).toEqual([{ [USDT]: "40000000" }])
  })

  it("a transaction in the mempool is in the pending pool only, without a result; after a revert the chain shows none of what came later", async () => {
    const { address } = await funded()
    const snapshot = (await h.admin("POST", "/_sim/snapshots", {})).body.id
    const tip = (await tron("getnowblock")).body.block_header.raw_data.number
    await h.admin("PUT", "/_sim/chains/tron/nile/mining", { mode: "manual" })
    const r = await h.admin("POST", "/_sim/deposits", {
      blockchain: "tron",
      network: "nile",
      address,
      assetId: assetId("tron", "nile", "TRX"),
      amount: "7",
    })
    const waiting = r.body.transactionId as string
    const bare = waiting.replace(/^0x/, "")
    // As java-tron: the blocks applied do not hold it yet; the pending pool does, and no result is written before execution.
    expect((await tron("gettransactionbyid", { value: waiting })).body).toEqual({})
    expect((await tron("gettransactioninfobyid", { value: waiting })).body).toEqual({})
    const pending = (await tron("gettransactionfrompending", { value: waiting })).body
    expect(pending.txID).toBe(bare)
    expect(pending.ret).toBeUndefined()
    expect(pending.raw_data.contract[0].type).toBe("TransferContract")
    expect((await tron("gettransactionlistfrompending")).body).toEqual({ txId: [bare] })
    await h.admin("POST", "/_sim/chains/tron/nile/mine", { blocks: 1 })
    expect((await tron("gettransactioninfobyid", { value: waiting })).body.blockNumber).toBe(tip + 1)
    expect((await tron("gettransactionbyid", { value: waiting })).body.ret).toEqual([{ contractRet: "SUCCESS" }])
    expect((await tron("gettransactionfrompending", { value: waiting })).body).toEqual({})
    expect((await tron("gettransactionlistfrompending")).body).toEqual({})
    expect((await h.admin("POST", `/_sim/snapshots/${snapshot}/revert`, {})).status).toBe(200)
    expect((await tron("getnowblock")).body.block_header.raw_data.number).toBe(tip)
    expect((await tron("gettransactionbyid", { value: waiting })).body).toEqual({})
    expect((await tron("getaccount", { address, visible: true })).body.balance).toBe(500_000_000)
  })

  it("unknown things answer {}, bad input 400 {Error}, an unknown network 404; nothing is written", async () => {
    const before = h.sim.models.position
    expect(await tron("gettransactionbyid", { value: "ab".repeat(32) })).toEqual({ status: 200, body: {} })
    expect(await tron("gettransactioninfobyid", { value: "ab".repeat(32) })).toEqual({ status: 200, body: {} })
    expect(await tron("gettransactionfrompending", { value: "ab".repeat(32) })).toEqual({ status: 200, body: {} })
    expect(await tron("getaccount", { address: EXTERNAL, visible: true })).toEqual({ status: 200, body: {} })
    expect(await tron("getblockbynum", { num: 10 ** 9 })).toEqual({ status: 200, body: {} })
    for (const [method, body] of [
      ["getaccount", { address: "0x742d35Cc6634C0532925a3b844Bc454e4438f44e" }],
      ["getaccount", {}],
      ["gettransactionbyid", { value: "xyz" }],
      ["getblockbynum", { num: -1 }],
      ["getblockbynum", [1]],
    ] as const) {
      const r = await tron(method, body)
      expect(r.status, `${method} ${JSON.stringify(body)}`).toBe(400)
      expect(typeof r.body.Error).toBe("string")
    }
    expect((await tron("getnowblock", undefined, "nowhere")).status).toBe(404)
    expect((await tron("getnowblock", undefined, "sepolia")).status).toBe(404)
    const get = await request(`${server.url}/_chain/tron/nile/wallet/getblockbynum?num=0`)
    expect(get.statusCode).toBe(200)
    expect(((await get.body.json()) as any).block_header.raw_data.number).toBe(0)
    expect(h.sim.models.position).toBe(before)
  })
})
