// The reads at 2025-09-23 and 2026-03-20: the same state as 2024-05-09 shows, under each version's names.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { classicAddressToXAddress } from "ripple-address-codec"
import type { Credentials } from "../../../src/client/index.js"
import { assetId } from "../../support/catalogue.js"
import { createKey, startHarness, type Harness } from "../../support/harness.js"

let h: Harness
let v26: Credentials
let v25: Credentials
let address: string
let txid: string
let beforeEth: bigint
const ETH = assetId("ethereum", "sepolia", "ETH")
const USDC = assetId("ethereum", "sepolia", "USDC")
const get = (url: string, creds?: Credentials, headers: Record<string, string> = {}) =>
  h.raw({ method: "GET", url, ...(creds ? { creds } : {}), override: headers })

beforeAll(async () => {
  h = await startHarness()
  v26 = await createKey(h, { apiVersion: "2026-03-20" })
  v25 = await createKey(h, { apiVersion: "2025-09-23" })
  const acct = await h.client.call<any>("POST", `/vaults/${h.testVaultId}/vault-account`, {
    item: { name: "a", color: "#000000", isHiddenInDashboard: false },
  })
  const id = acct.body.data.item.vaultAccountId
  address = (
    await h.client.call<any>("PUT", `/vaults/${h.testVaultId}/vault-accounts/${id}/add-asset`, { item: { assetId: ETH, label: "eth" } })
  ).body.data.item.address
  await h.client.call("PUT", `/vaults/${h.testVaultId}/vault-accounts/${id}/add-asset`, { item: { assetId: USDC, address } })
  await h.admin("PUT", "/_sim/chains/ethereum/sepolia/mining", { mode: "auto", confirmations: 1 })
  txid = (await h.admin("POST", "/_sim/deposits", { blockchain: "ethereum", network: "sepolia", address, assetId: USDC, amount: "7.5" }))
    .body.transactionId
  beforeEth = h.sim.models.position
  await h.admin("POST", "/_sim/deposits", { blockchain: "ethereum", network: "sepolia", address, assetId: ETH, amount: "0.5" })
})
afterAll(async () => h.close())

describe("renamed fields", () => {
  it("assets of a vault: symbol → assetUnit, exchangeRate → exchangeRateUnit, amounts and ids unchanged", async () => {
    const old = (await get(`/vaults/${h.testVaultId}/assets`)).body.data.item.assets
    const now = (await get(`/vaults/${h.testVaultId}/assets`, v26)).body.data.item.assets
    expect(now).toEqual(
      old.map(({ symbol, exchangeRate, ...rest }: any) => ({
        assetData: rest.assetData,
        exchangeRateUnit: exchangeRate,
        assetUnit: symbol,
        ...rest,
      })),
    )
    expect((await get(`/vaults/${h.testVaultId}/assets`, v25)).body.data.item.assets).toEqual(old)
  })

  it("vaults holding an asset: exchangeRateUnit", async () => {
    const url = `/assets/${USDC}/ethereum/vaults/test`
    const old = (await get(url)).body.data.item
    const now = (await get(url, v26)).body.data.item
    expect(now).toEqual({ exchangeRateUnit: old.exchangeRate, vaults: old.vaults })
  })

  it("transactions: amountUnit in parties and fee; the detail's dateTime, lists always present, no path echo", async () => {
    const list = (await get(`/vaults/${h.testVaultId}/transactions`, v26)).body.data.items
    const usdc = list.find((t: any) => t.transactionId === txid)
    expect(usdc.transactionFee).toEqual({ amount: expect.any(String), amountUnit: "ETH" })
    expect(usdc.senders[0]).toMatchObject({ amountUnit: "ETH" })
    const old = (await get(`/vaults/${h.testVaultId}/ethereum/transactions/${txid}`)).body.data.item
    const now = (await get(`/vaults/${h.testVaultId}/ethereum/transactions/${txid}`, v26)).body.data.item
    expect(now.dateTime).toBe(old.timestamp)
    expect(now.timestamp).toBeUndefined()
    expect(now.transactionId).toBeUndefined()
    expect(now.blockchain).toBeUndefined()
    expect(now.internalTransfers).toEqual([])
    expect(now.tokensTransfers).toEqual(
      [{ ...old.tokensTransfers[0], symbol: undefined, assetUnit: "USDC" }].map(({ symbol: _s, ...t }) => t),
    )
    expect(old.internalTransfers).toBeUndefined()
  })

  it("supported assets: assetId, assetUnit, aassetName (sic) and a USD price", async () => {
    const old = (await get("/supported-assets?assetUnit=ETH&blockchain=ethereum&networkType=test")).body.data.items
    const now = (await get("/supported-assets?assetUnit=ETH&blockchain=ethereum&networkType=test", v26)).body.data.items
    expect(now).toHaveLength(old.length)
    expect(now[0]).toMatchObject({
      assetId: old[0].id,
      assetUnit: old[0].symbol,
      aassetName: old[0].name,
      blockchain: "ethereum",
      network: "sepolia",
      price: { amount: expect.any(String), unit: "USD" },
    })
    expect(now[0].id).toBeUndefined()
  })
})

describe("assets of an address across chains", () => {
  it("2025-09-23: /vaults/{vaultId}/addresses/{address}/assets, blockchain optional", async () => {
    const r = await get(`/vaults/${h.testVaultId}/addresses/${address}/assets?blockchain=ethereum`, v25)
    expect(r.status).toBe(200)
    expect(r.body.data.item.assets.map((a: any) => [a.symbol, a.assetData.totalAmount]).sort()).toEqual([
      ["ETH", "0.5"],
      ["USDC", "7.5"],
    ])
    expect((await get(`/vaults/${h.testVaultId}/addresses/${address}/assets`, v25)).body.data.item.assets).toHaveLength(2)
    expect((await get(`/vaults/${h.testVaultId}/addresses/${address}/assets?blockchain=tron`, v25)).status).toBe(404)
    expect((await get(`/vaults/${h.testVaultId}/addresses/${address}/assets?blockchain=nochain`, v25)).body.error.code).toBe("invalid_data")
  })

  it("2026-03-20: /balance is paged by asset id and filters by assetUnit", async () => {
    const page = await get(`/vaults/${h.testVaultId}/addresses/${address}/balance?limit=1`, v26)
    expect(page.body.data).toMatchObject({ limit: 1, hasMore: true })
    const rest = await get(`/vaults/${h.testVaultId}/addresses/${address}/balance?startingAfter=${page.body.data.items[0].assetId}`, v26)
    expect(rest.body.data.hasMore).toBe(false)
    expect([...page.body.data.items, ...rest.body.data.items].map((a: any) => a.assetUnit).sort()).toEqual(["ETH", "USDC"])
    const usdc = await get(`/vaults/${h.testVaultId}/addresses/${address}/balance?assetUnit=usdc`, v26)
    expect(usdc.body.data.items).toEqual([
      expect.objectContaining({ assetId: USDC, assetUnit: "USDC", assetData: expect.objectContaining({ totalAmount: "7.5" }) }),
    ])
  })
})

describe("XRP X-addresses", () => {
  const classic = "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh"
  it("encode and decode with the real codec, both networks", async () => {
    for (const [network, test] of [
      ["testnet", true],
      ["mainnet", false],
    ] as const) {
      const enc = await get(`/utils/xrp/${network}/addresses/encode/${classic}/12345`, v26)
      expect(enc.status).toBe(200)
      expect(enc.body.data.item.xAddress).toBe(classicAddressToXAddress(classic, 12345, test))
      expect(enc.body.data.item.xAddress[0]).toBe(test ? "T" : "X")
      const dec = await get(`/utils/xrp/${network}/addresses/decode/${enc.body.data.item.xAddress}`, v26)
      expect(dec.body.data.item).toEqual({ classicAddress: classic, tag: "12345" })
    }
  })
  it("refuses a malformed address, tag or network, and an X-address of the other network, with 400 invalid_data", async () => {
    const bad = [
      `/utils/xrp/testnet/addresses/encode/notanaddress/1`,
      `/utils/xrp/testnet/addresses/encode/${classic}/-1`,
      `/utils/xrp/testnet/addresses/encode/${classic}/4294967296`,
      `/utils/xrp/devnet/addresses/encode/${classic}/1`,
      `/utils/xrp/testnet/addresses/decode/Xnotanxaddress`,
      `/utils/xrp/mainnet/addresses/decode/${classicAddressToXAddress(classic, 1, true)}`,
    ]
    for (const url of bad) {
      const r = await get(url, v26)
      expect([url, r.status, r.body.error.code]).toEqual([url, 400, "invalid_data"])
    }
  })
})

describe("as of an earlier position", () => {
  it("every 2026 read takes x-sim-as-of", async () => {
    const before = String(beforeEth)
    const now = await get(`/vaults/${h.testVaultId}/addresses/${address}/balance?assetUnit=ETH`, v26)
    const then = await get(`/vaults/${h.testVaultId}/addresses/${address}/balance?assetUnit=ETH`, v26, {
      "x-sim-as-of": `position:${before}`,
    })
    expect(now.body.data.items[0].assetData.totalAmount).toBe("0.5")
    expect(then.body.data.items[0].assetData.totalAmount).toBe("0")
    const bad = await get(`/vaults/${h.testVaultId}/vault-accounts/details`, v26, { "x-sim-as-of": "position:999999" })
    expect(bad.body.error.code).toBe("invalid_sim_as_of")
  })
})
