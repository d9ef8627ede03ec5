// 2026-03-20's vault accounts: create in the new shape, the default account, listing with filters and pages,
// details, edit, and an account's assets, addresses and transactions; the backup and vault checks.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Credentials } from "../../../src/client/index.js"
import { assetId } from "../../support/catalogue.js"
import { createKey, startHarness, type Harness } from "../../support/harness.js"

let h: Harness
let creds: Credentials
let vault: string
const json = (item: unknown) => JSON.stringify({ data: { item } })
const call = (method: string, url: string, item?: unknown) =>
  h.raw({ method, url, creds, ...(item !== undefined ? { body: json(item) } : {}) })
const ETH = assetId("ethereum", "sepolia", "ETH")

beforeAll(async () => {
  h = await startHarness()
  creds = await createKey(h, { apiVersion: "2026-03-20" })
  const made = await h.admin("POST", "/_sim/vaults", { name: "Backed up", type: "test", backuped: true })
  expect(made.body.backuped).toBe(true)
  vault = made.body.id
})
afterAll(async () => h.close())

const create = async (name: string, isHiddenInDashboard = false) => {
  const r = await call("POST", `/vaults/${vault}/vault-account`, { name, color: "#00AA00", isHiddenInDashboard })
  expect(r.status).toBe(201)
  return r.body.data.item
}

describe("create vault account", () => {
  it("answers 201 with the vault account object", async () => {
    const item = await create("alice")
    expect(item).toEqual({
      vaultAccountId: expect.any(String),
      vaultAccountName: "alice",
      vaultId: vault,
      vaultAccountColour: "#00AA00",
      isHiddenInDashboard: false,
      index: expect.stringMatching(/^[1-9][0-9]*$/),
      createdAt: expect.any(Number),
      addressesCount: "0",
      balances: [],
    })
  })

  it("refuses a vault created with backuped: false with 403 vault_as_a_service_vault_recovery_not_initialized, writing nothing", async () => {
    const notBackedUp = (await h.admin("POST", "/_sim/vaults", { name: "Not backed up", type: "test", backuped: false })).body.id as string
    const before = h.sim.models.position
    const r = await h.raw({
      method: "POST",
      url: `/vaults/${notBackedUp}/vault-account`,
      creds,
      body: json({ name: "x", color: "#000000", isHiddenInDashboard: false }),
    })
    expect(r.status).toBe(403)
    expect(r.body.error.code).toBe("vault_as_a_service_vault_recovery_not_initialized")
    expect(h.sim.models.position).toBe(before)
    // 2024-05-09 keeps creating accounts there, as it always did.
    const old = await h.raw({
      method: "POST",
      url: `/vaults/${notBackedUp}/vault-account`,
      body: json({ name: "x", color: "#000000", isHiddenInDashboard: false }),
    })
    expect(old.status).toBe(201)
  })

  it("a vault created without saying is backed up from 2025-09-23 on (accounts are created in it) and not at 2024-05-09, as before", async () => {
    const unsaid = (await h.admin("POST", "/_sim/vaults", { name: "Unsaid", type: "test" })).body
    expect(unsaid.backuped).toBe(true)
    const backedUpAt = async (version: string, said: string) => {
      const r = await h.raw({ method: "GET", url: "/vaults/test", creds, override: { "x-api-version": version } })
      expect(r.body.apiVersion).toBe(version)
      expect(r.status).toBe(200)
      return r.body.data.items.find((v: { id: string }) => v.id === said).backuped as boolean
    }
    expect(await backedUpAt("2024-05-09", unsaid.id)).toBe(false)
    expect(await backedUpAt("2025-09-23", unsaid.id)).toBe(true)
    expect(await backedUpAt("2026-03-20", unsaid.id)).toBe(true)
    // What the creator said is reported in every version.
    const no = (await h.admin("POST", "/_sim/vaults", { name: "No", type: "test", backuped: false })).body
    expect(no.backuped).toBe(false)
    for (const version of ["2024-05-09", "2025-09-23", "2026-03-20"]) {
      expect(await backedUpAt(version, no.id)).toBe(false)
      expect(await backedUpAt(version, vault)).toBe(true)
    }
    const r = await call("POST", `/vaults/${unsaid.id}/vault-account`, {
      name: "in the unsaid vault",
      color: "#000000",
      isHiddenInDashboard: false,
    })
    expect(r.status).toBe(201)
    expect(r.body.data.item.vaultId).toBe(unsaid.id)
  })

  it("an unknown vault is 403 api_key_not_allowed_for_wallet; a missing name is 409 naming it", async () => {
    const unknown = await call("POST", "/vaults/000000000000000000000000/vault-account", {
      name: "x",
      color: "#000000",
      isHiddenInDashboard: false,
    })
    expect(unknown.status).toBe(403)
    expect(unknown.body.error.code).toBe("api_key_not_allowed_for_wallet")
    const missing = await call("POST", `/vaults/${vault}/vault-account`, { color: "#000000", isHiddenInDashboard: false })
    expect(missing.status).toBe(409)
    expect(missing.body.error.code).toBe("missing_required_attributes")
    expect(missing.body.error.details[0].attribute).toBe("name")
  })
})

describe("add asset", () => {
  it("refuses an asset the account already holds with 409 resource_already_exists, writing nothing; 2024-05-09 answers its address again", async () => {
    const acct = await create("twice")
    const first = await call("PUT", `/vaults/${vault}/vault-accounts/${acct.vaultAccountId}/add-asset`, { assetId: ETH, label: "eth" })
    expect(first.status).toBe(200)
    const address = first.body.data.item.address
    const before = h.sim.models.position
    for (const item of [
      { assetId: ETH, label: "again" },
      { assetId: ETH, address },
    ]) {
      const again = await call("PUT", `/vaults/${vault}/vault-accounts/${acct.vaultAccountId}/add-asset`, item)
      expect([again.status, again.body.apiVersion, again.body.error.code, again.body.error.details]).toEqual([
        409,
        "2026-03-20",
        "resource_already_exists",
        [{ attribute: "assetId", message: "is already added to this vault account" }],
      ])
      expect(again.body.error.message).toBe(`Asset ${ETH} is already added to vault account ${acct.vaultAccountId} (at ${address}).`)
    }
    expect(h.sim.models.position).toBe(before)
    const old = await h.raw({
      method: "PUT",
      url: `/vaults/${vault}/vault-accounts/${acct.vaultAccountId}/add-asset`,
      creds,
      override: { "x-api-version": "2024-05-09" },
      body: json({ assetId: ETH, label: "again" }),
    })
    expect([old.status, old.body.data.item.address]).toEqual([200, address])
    expect(h.sim.models.position).toBe(before)
  })
})

describe("listing, details and edit", () => {
  it("lists the default account (the vault's own id) first, then the accounts in creation order, paged", async () => {
    const a = await create("page-a")
    const b = await create("page-b")
    const first = await call("GET", `/vaults/${vault}/vault-accounts/details?limit=1`)
    expect(first.status).toBe(200)
    expect(first.body.data).toMatchObject({ limit: 1, hasMore: true })
    expect(first.body.data.items[0]).toMatchObject({
      vaultAccountId: vault,
      vaultAccountName: "Default",
      vaultId: vault,
      index: 0,
      isFavoriteInDashboard: false,
    })
    const all = await call("GET", `/vaults/${vault}/vault-accounts/details`)
    const ids = all.body.data.items.map((x: { vaultAccountId: string }) => x.vaultAccountId)
    expect(ids.indexOf(a.vaultAccountId)).toBeLessThan(ids.indexOf(b.vaultAccountId))
    const next = await call("GET", `/vaults/${vault}/vault-accounts/details?limit=1&startingAfter=${ids[ids.length - 2]}`)
    expect(next.body.data).toMatchObject({ limit: 1, startingAfter: ids[ids.length - 2], hasMore: false })
    expect(next.body.data.items.map((x: { vaultAccountId: string }) => x.vaultAccountId)).toEqual([ids[ids.length - 1]])
    const bad = await call("GET", `/vaults/${vault}/vault-accounts/details?startingAfter=nope`)
    expect(bad.status).toBe(400)
    expect(bad.body.error.code).toBe("invalid_pagination")
    const badFlag = await call("GET", `/vaults/${vault}/vault-accounts/details?isHidden=yes`)
    expect(badFlag.status).toBe(400)
    expect(badFlag.body.error.details[0].attribute).toBe("isHidden")
  })

  it("isHidden keeps hidden accounts only; isHideEmpty keeps accounts holding something", async () => {
    const hidden = await create("hidden", true)
    const hiddenOnly = await call("GET", `/vaults/${vault}/vault-accounts/details?isHidden=true`)
    expect(hiddenOnly.body.data.items.map((x: { vaultAccountId: string }) => x.vaultAccountId)).toEqual([hidden.vaultAccountId])
    const funded = await create("funded")
    const added = await call("PUT", `/vaults/${vault}/vault-accounts/${funded.vaultAccountId}/add-asset`, { assetId: ETH, label: "eth" })
    expect(added.status).toBe(200)
    await h.admin("PUT", "/_sim/chains/ethereum/sepolia/mining", { mode: "auto", confirmations: 1 })
    const dep = await h.admin("POST", "/_sim/deposits", {
      blockchain: "ethereum",
      network: "sepolia",
      address: added.body.data.item.address,
      assetId: ETH,
      amount: "1.25",
    })
    expect(dep.status).toBe(201)
    const nonEmpty = await call("GET", `/vaults/${vault}/vault-accounts/details?isHideEmpty=true`)
    expect(nonEmpty.body.data.items.map((x: { vaultAccountId: string }) => x.vaultAccountId)).toEqual([funded.vaultAccountId])
    expect(nonEmpty.body.data.items[0]).toMatchObject({
      addressesCount: "1",
      balances: [
        {
          assetId: ETH,
          assetName: expect.any(String),
          assetUnit: "ETH",
          blockchain: "ethereum",
          exchangeRateUnit: "USD",
          latestExchangeRateToUSD: expect.any(String),
          totalAmount: "1.25",
        },
      ],
    })

    const assets = await call("GET", `/vaults/${vault}/vault-accounts/${funded.vaultAccountId}/list-assets`)
    expect(assets.body.data).toMatchObject({ limit: 50, hasMore: false })
    expect(assets.body.data.items).toEqual([
      { assetId: ETH, assetUnit: "ETH", availableAmount: "1.25", blockchain: "ethereum", exchangeRateToUsd: expect.any(String) },
    ])
    expect(
      (await call("GET", `/vaults/${vault}/vault-accounts/${funded.vaultAccountId}/list-assets?assetUnit=BTC`)).body.data.items,
    ).toEqual([])

    const addresses = await call("GET", `/vaults/${vault}/vault-accounts/${funded.vaultAccountId}/list-addresses?blockchain=ethereum`)
    expect(addresses.body.data.items).toEqual([
      {
        address: added.body.data.item.address,
        addressId: expect.stringMatching(/^[0-9a-f]{24}$/),
        blockchain: "ethereum",
        network: "sepolia",
        label: "eth",
        balances: [{ amount: "1.25", assetId: ETH, assetUnit: "ETH" }],
      },
    ])

    const txs = await call("GET", `/vaults/${vault}/vault-accounts/${funded.vaultAccountId}/transactions`)
    expect(txs.body.data.items).toEqual([
      expect.objectContaining({
        transactionId: dep.body.transactionId,
        direction: "incoming",
        transactionFee: { amount: expect.any(String), amountUnit: "ETH" },
      }),
    ])
    expect(txs.body.data.items[0].recipients[0]).toMatchObject({ amountUnit: "ETH" })
    expect(txs.body.data.items[0].recipients[0].unitSymbol).toBeUndefined()
    const others = await call("GET", `/vaults/${vault}/vault-accounts/${hidden.vaultAccountId}/transactions`)
    expect(others.body.data.items).toEqual([])
  })

  it("details and edit: name, colour, hidden and favourite (either spelling), as of earlier positions too", async () => {
    const a = await create("before")
    const at = h.sim.models.position
    const edited = await call("PUT", `/vaults/${vault}/vault-accounts/${a.vaultAccountId}/edit`, {
      name: "after",
      color: "#123456",
      isFavorityInDashboard: true,
    })
    expect(edited.status).toBe(200)
    expect(edited.body.data.item).toMatchObject({
      vaultAccountName: "after",
      vaultAccountColour: "#123456",
      isFavorityInDashboard: true,
      index: a.index,
    })
    const details = await call("GET", `/vaults/${vault}/vault-accounts/${a.vaultAccountId}/details`)
    expect(details.body.data.item).toEqual({ ...edited.body.data.item })
    const then = await h.raw({
      method: "GET",
      url: `/vaults/${vault}/vault-accounts/${a.vaultAccountId}/details`,
      creds,
      override: { "x-sim-as-of": `position:${at}` },
    })
    expect(then.body.data.item).toMatchObject({ vaultAccountName: "before", isFavorityInDashboard: false })
    const again = await call("PUT", `/vaults/${vault}/vault-accounts/${a.vaultAccountId}/edit`, {
      isFavoriteInDashboard: false,
      isHiddenInDashboard: true,
    })
    expect(again.body.data.item).toMatchObject({ isFavorityInDashboard: false, isHiddenInDashboard: true })
    const unchanged = h.sim.models.position
    expect((await call("PUT", `/vaults/${vault}/vault-accounts/${a.vaultAccountId}/edit`, { name: "after" })).status).toBe(200)
    expect(h.sim.models.position).toBe(unchanged)
  })

  it("an unknown account is 404, an unknown vault 403, a bad colour 400, an unknown attribute 409", async () => {
    const missing = await call("GET", `/vaults/${vault}/vault-accounts/000000000000000000000000/details`)
    expect(missing.status).toBe(404)
    expect(missing.body.error.code).toBe("resource_not_found")
    const elsewhere = await call("GET", `/vaults/000000000000000000000000/vault-accounts/${vault}/details`)
    expect(elsewhere.status).toBe(403)
    const a = await create("checks")
    const colour = await call("PUT", `/vaults/${vault}/vault-accounts/${a.vaultAccountId}/edit`, { color: "red" })
    expect(colour.status).toBe(400)
    expect(colour.body.error.code).toBe("invalid_data")
    const extra = await call("PUT", `/vaults/${vault}/vault-accounts/${a.vaultAccountId}/edit`, { nickname: "x" })
    expect(extra.status).toBe(409)
    expect(extra.body.error.code).toBe("extra_body_attributes")
    const unknownEdit = await call("PUT", `/vaults/${vault}/vault-accounts/000000000000000000000000/edit`, { name: "x" })
    expect([unknownEdit.status, unknownEdit.body.error.code]).toEqual([404, "resource_not_found"])
  })
})

describe("generate deposit address at 2026-03-20", () => {
  const url = () => `/vaults/${vault}/ethereum/sepolia/addresses`

  it("derives the address in the named vault account and names the account in the answer", async () => {
    const acct = await create("deposits")
    const r = await call("POST", url(), { label: "in", vaultAccountId: acct.vaultAccountId })
    expect(r.status).toBe(201)
    expect(r.body.apiVersion).toBe("2026-03-20")
    expect(r.body.data.item).toEqual({
      address: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
      createdTimestamp: expect.stringMatching(/^[0-9]+$/),
      label: "in",
      vaultAccountId: acct.vaultAccountId,
    })
    const listed = await call("GET", `/vaults/${vault}/vault-accounts/${acct.vaultAccountId}/list-addresses?blockchain=ethereum`)
    expect(listed.body.data.items.map((x: { address: string }) => x.address)).toContain(r.body.data.item.address)
  })

  it("requires vaultAccountId (409 missing_required_attributes, nothing written); 2024-05-09 keeps it optional and its answer unchanged", async () => {
    const before = h.sim.models.position
    const missing = await call("POST", url(), { label: "no account" })
    expect(missing.status).toBe(409)
    expect(missing.body.error.code).toBe("missing_required_attributes")
    expect(missing.body.error.details).toEqual([{ attribute: "vaultAccountId", message: expect.any(String) }])
    expect(h.sim.models.position).toBe(before)
    const old = await h.raw({
      method: "POST",
      url: url(),
      creds,
      override: { "x-api-version": "2024-05-09" },
      body: json({ label: "vault level" }),
    })
    expect(old.status).toBe(201)
    expect(Object.keys(old.body.data.item)).toEqual(["address", "createdTimestamp", "label"])
  })

  it("the vault's own id names its default account: the address is the vault's own, listed under that account", async () => {
    const r = await call("POST", url(), { label: "own", vaultAccountId: vault })
    expect(r.status).toBe(201)
    expect(r.body.data.item).toMatchObject({ label: "own", vaultAccountId: vault })
    const listed = await call("GET", `/vaults/${vault}/vault-accounts/${vault}/list-addresses?blockchain=ethereum`)
    expect(listed.body.data.items.map((x: { address: string }) => x.address)).toContain(r.body.data.item.address)
  })

  it("an account of another vault, or none, is 404 resource_not_found", async () => {
    const before = h.sim.models.position
    const unknown = await call("POST", url(), { label: "x", vaultAccountId: "000000000000000000000000" })
    expect(unknown.status).toBe(404)
    expect(unknown.body.error.code).toBe("resource_not_found")
    expect(h.sim.models.position).toBe(before)
  })
})
