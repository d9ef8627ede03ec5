// Fields and types of the read endpoints (#1, #2, #5, #8–#12) against the spec's tables, pagination, as-of reads.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startHarness, type Harness } from "../support/harness.js"
import { assetId } from "../support/catalogue.js"

let h: Harness
let account: string
let ethAddress: string
let positionAfterAccount: bigint
beforeAll(async () => {
  h = await startHarness()
  const r = await h.client.call<{ item: { vaultAccountId: string } }>("POST", `/vaults/${h.testVaultId}/vault-account`, {
    item: { name: "acct", color: "#123456", isHiddenInDashboard: false },
  })
  account = r.ok ? r.body.data.item.vaultAccountId : ""
  positionAfterAccount = h.sim.models.position
  const eth = await h.client.call<{ item: { address: string } }>("PUT", `/vaults/${h.testVaultId}/vault-accounts/${account}/add-asset`, {
    item: { assetId: assetId("ethereum", "sepolia", "ETH"), label: "eth" },
  })
  ethAddress = eth.ok ? eth.body.data.item.address : ""
  await h.client.call("PUT", `/vaults/${h.testVaultId}/vault-accounts/${account}/add-asset`, {
    item: { assetId: assetId("ethereum", "sepolia", "USDC"), address: ethAddress },
  })
})
afterAll(async () => h.close())

const amounts = { totalAmount: "0", availableAmount: "0", blockedAmount: "0", allocatedAmount: "0" }

describe("#1 GET /vaults", () => {
  it("lists Vault objects with the spec's fields and types, paginated", async () => {
    const r = await h.client.call<any>("GET", "/vaults")
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({ apiVersion: "2024-05-09", requestId: expect.any(String) })
    expect(r.body.data).toMatchObject({ limit: 50, hasMore: false })
    const v = r.body.data.items.find((x: { id: string }) => x.id === h.testVaultId)
    expect(v).toEqual({
      id: h.testVaultId,
      name: "Test vault",
      type: "test",
      color: expect.stringMatching(/^#[0-9A-F]{6}$/i),
      backuped: false,
      changeAddressesCount: 0,
      depositAddressesCount: 1,
      createdTimestamp: expect.any(Number),
    })
  })
  it("pages with limit and startingAfter, and refuses bad pagination", async () => {
    for (let i = 0; i < 3; i++) await h.admin("POST", "/_sim/vaults", { name: `v${i}`, type: "test" })
    const first = await h.client.call<any>("GET", "/vaults", { query: { limit: 2 } })
    expect(first.body.data.items).toHaveLength(2)
    expect(first.body.data.hasMore).toBe(true)
    const last = first.body.data.items[1].id
    const second = await h.client.call<any>("GET", "/vaults", { query: { limit: 2, startingAfter: last } })
    expect(second.body.data.startingAfter).toBe(last)
    expect(second.body.data.items[0].id).not.toBe(last)
    expect((await h.client.call<any>("GET", "/vaults", { query: { limit: 0 } })).status).toBe(400)
    expect((await h.client.call<any>("GET", "/vaults", { query: { limit: 501 } })).body.error.code).toBe("limit_greater_than_allowed")
    expect((await h.client.call<any>("GET", "/vaults", { query: { startingAfter: "nope" } })).body.error.code).toBe("invalid_pagination")
  })
})

describe("#2 GET /vaults/{networkType}", () => {
  it("lists only vaults of that type; other values are 400", async () => {
    const r = await h.client.call<any>("GET", "/vaults/main")
    expect(r.body.data.items.every((v: { type: string }) => v.type === "main")).toBe(true)
    expect(r.body.data.items[0]).toMatchObject({ id: h.mainVaultId, name: "Main vault", type: "main" })
    expect((await h.client.call<any>("GET", "/vaults/other")).status).toBe(400)
  })
})

describe("#5 GET /supported-assets", () => {
  it("filters by assetUnit, blockchain and networkType; items carry an id", async () => {
    const r = await h.client.call<any>("GET", "/supported-assets", { query: { assetUnit: "USDT", networkType: "main" } })
    expect(r.body.data.items.length).toBeGreaterThanOrEqual(3)
    for (const a of r.body.data.items) {
      expect(a).toMatchObject({ id: expect.stringMatching(/^[0-9a-f]{24}$/), symbol: "USDT", type: "TOKEN", networkType: "main" })
      expect(a.tokenData).toEqual({ contractAddress: expect.any(String), contractType: expect.stringMatching(/^(ERC|BEP|TRC)-20|SPL$/) })
    }
  })
})

describe("#8 and #9: address assets and asset addresses", () => {
  it("#8 lists the address's assets with assetData amounts as strings", async () => {
    const r = await h.client.call<any>("GET", `/vaults/${h.testVaultId}/ethereum/addresses/${ethAddress}/assets`)
    expect(r.status).toBe(200)
    expect(r.body.data.item.assets).toEqual([
      { assetData: amounts, exchangeRate: "3200", symbol: "ETH", type: "COIN" },
      {
        assetData: { ...amounts, contract: expect.stringMatching(/^0x/), standard: "ERC-20" },
        exchangeRate: "1",
        symbol: "USDC",
        type: "TOKEN",
      },
    ])
  })
  it("#8 is 404 for an address the vault does not hold", async () => {
    const r = await h.client.call<any>(
      "GET",
      `/vaults/${h.testVaultId}/ethereum/addresses/0x0000000000000000000000000000000000000001/assets`,
    )
    expect(r.status).toBe(404)
  })
  it("#9 lists the vault's addresses holding the asset, with exchangeRate on the item", async () => {
    const r = await h.client.call<any>(
      "GET",
      `/assets/${assetId("ethereum", "sepolia", "USDC")}/vaults/${h.testVaultId}/ethereum/sepolia/addresses`,
    )
    expect(r.body.data.item).toEqual({
      addresses: [{ address: ethAddress, addressType: "deposit", label: "eth", ...amounts }],
      exchangeRate: "1",
    })
  })
})

describe("#10, #11, #12: balances by network type, by vault, by asset", () => {
  it("#10 spells allocatedAmaunt as the spec does and accepts MAIN/TEST", async () => {
    const r = await h.client.call<any>("GET", "/assets/TEST")
    expect(r.status).toBe(200)
    const usdc = r.body.data.items.find((a: { symbol: string }) => a.symbol === "USDC")
    expect(usdc).toEqual({
      id: assetId("ethereum", "sepolia", "USDC"),
      symbol: "USDC",
      type: "TOKEN",
      blockchain: "ethereum",
      totalAmount: "0",
      availableAmount: "0",
      blockedAmount: "0",
      allocatedAmaunt: "0",
      exchangeRate: "1",
      tokenData: { contractAddress: expect.stringMatching(/^0x/), contractType: "ERC-20" },
    })
    expect(usdc).not.toHaveProperty("allocatedAmount")
    expect(r.body.data).toMatchObject({ limit: 50, hasMore: false })
  })
  it("#11 lists the vault's assets with assetId, blockchain and network", async () => {
    const r = await h.client.call<any>("GET", `/vaults/${h.testVaultId}/assets`)
    expect(r.body.data.item.assets.map((a: { assetId: string; network: string }) => [a.assetId, a.network])).toEqual([
      [assetId("ethereum", "sepolia", "ETH"), "sepolia"],
      [assetId("ethereum", "sepolia", "USDC"), "sepolia"],
    ])
  })
  it("#12 lists vault entries and takes the network type in either letter case", async () => {
    for (const nt of ["test", "TEST", "Test"]) {
      const r = await h.client.call<any>("GET", `/assets/${assetId("ethereum", "sepolia", "ETH")}/ethereum/vaults/${nt}`)
      expect(r.body.data.item).toEqual({
        exchangeRate: "3200",
        vaults: [{ vaultId: h.testVaultId, vaultName: "Test vault", vaultColor: expect.any(String), vaultType: "general", ...amounts }],
      })
    }
  })
  it("exchange rates come from the table set through /_sim", async () => {
    expect((await h.admin("PUT", "/_sim/exchange-rates", { rates: { ETH: "4000.5" } })).status).toBe(200)
    const r = await h.client.call<any>("GET", `/vaults/${h.testVaultId}/assets`)
    expect(r.body.data.item.assets[0].exchangeRate).toBe("4000.5")
    expect((await h.admin("PUT", "/_sim/exchange-rates", { rates: { ETH: "1e3" } })).status).toBe(400)
  })
})

describe("x-sim-as-of", () => {
  it("answers as of an earlier position: before the asset was added the vault had no assets", async () => {
    const r = await h.client.call<any>("GET", `/vaults/${h.testVaultId}/assets`, {
      headers: { "x-sim-as-of": `position:${positionAfterAccount}` },
    })
    expect(r.body.data.item.assets).toEqual([])
    const counts = await h.client.call<any>("GET", "/vaults/test", { headers: { "x-sim-as-of": `position:${positionAfterAccount}` } })
    expect(counts.body.data.items.find((v: { id: string }) => v.id === h.testVaultId).depositAddressesCount).toBe(0)
  })
  it("refuses a malformed value or a position beyond the log with 400", async () => {
    for (const v of ["yesterday", "position:-1", `position:${h.sim.models.position + 10n}`]) {
      const r = await h.client.call<any>("GET", "/vaults", { headers: { "x-sim-as-of": v } })
      expect(r.status).toBe(400)
      expect(r.body.error.code).toBe("invalid_sim_as_of")
    }
  })
})
