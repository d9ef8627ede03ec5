// Add-asset rules (#4) as a table, plus #6 address generation and the events each case writes.
import { Effect } from "effect"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { startHarness, type Harness } from "../support/harness.js"
import { assetId } from "../support/catalogue.js"

let h: Harness
beforeEach(async () => {
  h = await startHarness()
})
afterEach(async () => h.close())

const ETH = () => assetId("ethereum", "sepolia", "ETH")
const USDC = () => assetId("ethereum", "sepolia", "USDC")
const BTC = () => assetId("bitcoin", "testnet", "BTC")
const BNB = () => assetId("binance-smart-chain", "testnet", "BNB")
const BTC_MAIN = () => assetId("bitcoin", "mainnet", "BTC")

const newAccount = async (name = "acct") => {
  const r = await h.client.call<{ item: { vaultAccountId: string } }>("POST", `/vaults/${h.testVaultId}/vault-account`, {
    item: { name, color: "#123456", isHiddenInDashboard: true },
  })
  if (!r.ok) throw new Error(JSON.stringify(r.body))
  return r.body.data.item.vaultAccountId
}
const addAsset = (account: string, item: Record<string, unknown>) =>
  h.client.call<{ item: { address: string } }>("PUT", `/vaults/${h.testVaultId}/vault-accounts/${account}/add-asset`, { item })
const eventTypesSince = async (position: bigint) =>
  (await Effect.runPromise(h.sim.store.readAll({ fromPosition: position + 1n }))).map((e) => e.type)

describe("PUT add-asset", () => {
  it("with a label derives an address on an account-based chain and records AddressDerived then AssetAdded", async () => {
    const a = await newAccount()
    const p = h.sim.models.position
    const r = await addAsset(a, { assetId: ETH(), label: "main" })
    expect(r.status).toBe(200)
    expect(r.ok && r.body.data.item).toMatchObject({
      label: "main",
      assetId: ETH(),
      blockchain: "ethereum",
      network: "sepolia",
      vaultAccountId: a,
    })
    expect(await eventTypesSince(p)).toEqual(["AddressDerived", "AssetAdded"])
  })
  it("a token with a label goes to the address the account already holds on that chain", async () => {
    const a = await newAccount()
    const eth = await addAsset(a, { assetId: ETH(), label: "main" })
    const usdc = await addAsset(a, { assetId: USDC(), label: "ignored: the account already has an address" })
    expect(usdc.ok && usdc.body.data.item.address).toBe(eth.ok && eth.body.data.item.address)
  })
  it("with an address attaches to an address the account holds (any letter case for hex)", async () => {
    const a = await newAccount()
    const eth = await addAsset(a, { assetId: ETH(), label: "main" })
    const address = eth.ok ? eth.body.data.item.address : ""
    const usdc = await addAsset(a, { assetId: USDC(), address: address.toLowerCase() })
    expect(usdc.status).toBe(200)
    expect(usdc.ok && usdc.body.data.item.address).toBe(address)
  })
  it("on a UTXO chain the native coin comes with the derived address: AddressDerived only", async () => {
    const a = await newAccount()
    const p = h.sim.models.position
    const r = await addAsset(a, { assetId: BTC(), label: "btc" })
    expect(r.ok && r.body.data.item.address).toMatch(/^tb1q/)
    expect(await eventTypesSince(p)).toEqual(["AddressDerived"])
  })
  it("adding an asset already held is idempotent: same address, no event", async () => {
    const a = await newAccount()
    const first = await addAsset(a, { assetId: ETH(), label: "main" })
    const p = h.sim.models.position
    const again = await addAsset(a, { assetId: ETH(), label: "other" })
    expect(again.ok && again.body.data.item.address).toBe(first.ok && first.body.data.item.address)
    expect(await eventTypesSince(p)).toEqual([])
  })
  const refusals: ReadonlyArray<[string, (acct: string, other: string) => Promise<Record<string, unknown>>, number, string]> = [
    ["neither label nor address", async () => ({ assetId: ETH() }), 409, "missing_required_attributes"],
    [
      "both label and address",
      async () => ({ assetId: ETH(), label: "x", address: "0x0000000000000000000000000000000000000000" }),
      409,
      "extra_body_attributes",
    ],
    ["an address of another account", async (_a, other) => ({ assetId: USDC(), address: await ethAddressOf(other) }), 400, "invalid_data"],
    ["an address of the account on another chain", async (a) => ({ assetId: BNB(), address: await ethAddressOf(a) }), 400, "invalid_data"],
    ["an unknown asset", async () => ({ assetId: "ffffffffffffffffffffffff", label: "x" }), 404, "resource_not_found"],
    ["a mainnet asset on a test vault", async () => ({ assetId: BTC_MAIN(), label: "x" }), 400, "network_not_allowed_for_vault"],
    ["a wrongly typed label", async () => ({ assetId: ETH(), label: 42 }), 400, "invalid_data"],
  ]
  const ethAddressOf = async (account: string) => {
    const r = await addAsset(account, { assetId: ETH(), label: "x" })
    return r.ok ? r.body.data.item.address : ""
  }
  for (const [name, item, status, code] of refusals) {
    it(`refuses ${name} with ${status} ${code} and writes nothing`, async () => {
      const a = await newAccount("a")
      const other = await newAccount("b")
      const body = await item(a, other)
      const p = h.sim.models.position
      const r = await addAsset(a, body)
      expect(r.status).toBe(status)
      expect(r.ok ? "" : r.body.error.code).toBe(code)
      expect(await eventTypesSince(p)).toEqual([])
    })
  }
  it("an unknown vault account is 404", async () => {
    const r = await addAsset("aaaaaaaaaaaaaaaaaaaaaaaa", { assetId: ETH(), label: "x" })
    expect(r.status).toBe(404)
    expect(r.ok ? "" : r.body.error.code).toBe("resource_not_found")
  })
})

describe("POST generate deposit address (#6)", () => {
  it("answers 201 with address, createdTimestamp as a string and label; each call derives the next index", async () => {
    const a = await newAccount()
    const url = `/vaults/${h.testVaultId}/bitcoin/testnet/addresses`
    const one = await h.client.call<{ item: Record<string, unknown> }>("POST", url, { item: { label: "one", vaultAccountId: a } })
    const two = await h.client.call<{ item: Record<string, unknown> }>("POST", url, { item: { label: "two", vaultAccountId: a } })
    expect(one.status).toBe(201)
    const item = one.ok ? one.body.data.item : {}
    expect(Object.keys(item).sort()).toEqual(["address", "createdTimestamp", "label"])
    expect(typeof item.createdTimestamp).toBe("string")
    expect(item.createdTimestamp).toMatch(/^[0-9]+$/)
    expect(item.label).toBe("one")
    expect(two.ok && two.body.data.item.address).not.toBe(item.address)
    const vault = await h.client.call<{ items: Array<{ id: string; depositAddressesCount: number }> }>("GET", "/vaults/test")
    expect(vault.ok && vault.body.data.items.find((v) => v.id === h.testVaultId)?.depositAddressesCount).toBe(2)
  })
  it("is 404 for an unknown vault account and 400 for an unknown network", async () => {
    const r = await h.client.call("POST", `/vaults/${h.testVaultId}/ethereum/sepolia/addresses`, {
      item: { label: "x", vaultAccountId: "bbbbbbbbbbbbbbbbbbbbbbbb" },
    })
    expect(r.status).toBe(404)
    const n = await h.client.call("POST", `/vaults/${h.testVaultId}/ethereum/nowhere/addresses`, { item: { label: "x" } })
    expect(n.status).toBe(400)
  })
  it("is 404 for an unknown vault the key may address", async () => {
    const r = await h.client.call("POST", `/vaults/cccccccccccccccccccccccc/ethereum/sepolia/addresses`, { item: { label: "x" } })
    expect(r.status).toBe(404)
    expect(r.ok ? "" : r.body.error.code).toBe("resource_not_found")
  })
})
