// The workspace's own asset ids (a fixture's `assets`): every route that takes or returns an asset id takes and
// answers the fixture's id, in every version; the log keeps the catalogue's; a bad alias stops the start.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Credentials } from "../../../src/client/index.js"
import { assetsOf, makeAssetIds } from "../../../src/domain/chains/index.js"
import { loadFixture } from "../../../src/cli/fixture.js"
import { createSimulator } from "../../../src/simulator.js"
import { makeMemoryStore } from "../../../src/store/memory.js"
import { createKey, startHarness, type Harness } from "../../support/harness.js"

const sepolia = assetsOf({ blockchain: "ethereum", network: "sepolia" })
const ETH = sepolia.find((a) => a.symbol === "ETH")!
const USDC = sepolia.find((a) => a.symbol === "USDC")!
// Ids as the real service writes them (24 hex digits), unknown to the catalogue.
const MY_ETH = "6523e058a06ebf1322d7dd6f"
const MY_USDC = "6523e058a06ebf1322d7dd70"
const TO = "0x742d35Cc6634C0532925a3b844Bc454e4438f44e"

let h: Harness
let keys: Record<string, Credentials>
let vault: string
let account: string
let address: string
const call = (version: string, method: string, url: string, item?: unknown) =>
  h.raw({ method, url, creds: keys[version]!, ...(item !== undefined ? { body: JSON.stringify({ data: { item } }) } : {}) })

/** No answer shows the catalogue's id of an aliased asset. */
const noCatalogueIds = (body: unknown) => {
  const text = JSON.stringify(body)
  expect(text).not.toContain(ETH.id)
  expect(text).not.toContain(USDC.id)
}

beforeAll(async () => {
  h = await startHarness({
    fixture: {
      vaults: [{ name: "Ops", type: "test" }],
      apiKeys: [{ name: "ops", apiVersion: "2026-03-20", rateLimit: { perSecond: 1_000_000, burst: 1_000_000 } }],
      assets: [
        { assetId: MY_ETH, blockchain: "ethereum", network: "sepolia", symbol: "eth" },
        { assetId: MY_USDC, blockchain: "ethereum", network: "sepolia", contract: USDC.type === "TOKEN" ? USDC.contract : "" },
      ],
    },
  })
  keys = {
    "2024-05-09": await createKey(h, { apiVersion: "2024-05-09" }),
    "2025-09-23": await createKey(h, { apiVersion: "2025-09-23" }),
    "2026-03-20": h.creds,
  }
  vault = h.testVaultId
  const made = await call("2026-03-20", "POST", `/vaults/${vault}/vault-account`, {
    name: "alice",
    color: "#00AA00",
    isHiddenInDashboard: false,
  })
  expect(made.status).toBe(201)
  account = made.body.data.item.vaultAccountId
  const added = await call("2026-03-20", "PUT", `/vaults/${vault}/vault-accounts/${account}/add-asset`, { assetId: MY_ETH, label: "eth" })
  expect(added.status).toBe(200)
  noCatalogueIds(added.body)
  address = added.body.data.item.address
  const usdc = await call("2026-03-20", "PUT", `/vaults/${vault}/vault-accounts/${account}/add-asset`, { assetId: MY_USDC, address })
  expect(usdc.status).toBe(200)
  await h.admin("PUT", "/_sim/chains/ethereum/sepolia/mining", { mode: "auto", confirmations: 1 })
  expect(
    (await h.admin("POST", "/_sim/deposits", { blockchain: "ethereum", network: "sepolia", address, assetId: MY_ETH, amount: "2" })).status,
  ).toBe(201)
  expect(
    (await h.admin("POST", "/_sim/deposits", { blockchain: "ethereum", network: "sepolia", address, assetId: MY_USDC, amount: "30" }))
      .status,
  ).toBe(201)
})
afterAll(async () => h?.close())

describe("a fixture's asset ids", () => {
  it("are the ids of the supported assets, in every version", async () => {
    for (const version of ["2024-05-09", "2025-09-23", "2026-03-20"]) {
      const r = await call(version, "GET", "/supported-assets?blockchain=ethereum&networkType=test")
      expect(r.status).toBe(200)
      noCatalogueIds(r.body)
      const ids = r.body.data.items.map((a: { id?: string; assetId?: string }) => a.assetId ?? a.id)
      expect(ids).toContain(MY_ETH)
      expect(ids).toContain(MY_USDC)
    }
  })

  it("name the assets of vaults, accounts and addresses at 2025-09-23 and 2026-03-20", async () => {
    for (const version of ["2025-09-23", "2026-03-20"]) {
      const reads = [
        `/vaults/${vault}/assets`,
        `/vaults/${vault}/addresses/${address}/assets`,
        `/assets/${MY_ETH}/ethereum/vaults/test`,
        "/assets/test",
        ...(version === "2026-03-20"
          ? [
              `/vaults/${vault}/addresses/${address}/balance`,
              `/vaults/${vault}/vault-accounts/${account}/details`,
              `/vaults/${vault}/vault-accounts/details`,
              `/vaults/${vault}/vault-accounts/${account}/list-assets`,
              `/vaults/${vault}/vault-accounts/${account}/list-addresses?assetId=${MY_USDC}`,
            ]
          : []),
      ]
      for (const url of reads) {
        const r = await call(version, "GET", url)
        expect(r.status, `${version} ${url}`).toBe(200)
        noCatalogueIds(r.body)
        // #12 names the asset in its path only: it lists the vault holding it.
        expect(JSON.stringify(r.body), `${version} ${url}`).toContain(url.startsWith(`/assets/${MY_ETH}`) ? vault : MY_ETH)
      }
    }
    // A vault account's addresses filtered by the fixture's id: the address holding it.
    const filtered = await call("2026-03-20", "GET", `/vaults/${vault}/vault-accounts/${account}/list-addresses?assetId=${MY_USDC}`)
    expect(filtered.body.data.items.map((a: { address: string }) => a.address)).toEqual([address])
    // The asset listing pages by the fixture's ids.
    const first = await call("2026-03-20", "GET", "/assets/test?limit=1")
    const cursor = first.body.data.items[0].id as string
    expect([MY_ETH, MY_USDC]).toContain(cursor)
    const next = await call("2026-03-20", "GET", `/assets/test?limit=1&startingAfter=${cursor}`)
    expect(next.status).toBe(200)
    expect(next.body.data.startingAfter).toBe(cursor)
    expect(next.body.data.items[0].id).not.toBe(cursor)
  })

  it("are taken by transfers and fee estimates, and answered in them", async () => {
    const fee = await call("2026-03-20", "POST", `/vaults/${vault}/approximate-fee`, {
      transactionType: "single",
      vaultAccountId: account,
      assetId: MY_USDC,
      amount: "1",
      fromAddress: address,
      toAddress: TO,
      feePriority: "standard",
    })
    expect(fee.status).toBe(200)
    noCatalogueIds(fee.body)
    expect(fee.body.data.item.assetId).toBe(MY_USDC)
    expect(fee.body.data.item.fee.assetId).toBe(MY_ETH)
    const sent = await call("2026-03-20", "POST", `/vaults/${vault}/transaction-requests/single-transfer`, {
      vaultAccountId: account,
      assetId: MY_USDC,
      amount: "1",
      fromAddress: address,
      toAddress: TO,
      feePriority: "standard",
      note: "fixture id",
    })
    expect(sent.status).toBe(201)
    noCatalogueIds(sent.body)
    const request = await call("2026-03-20", "GET", `/transaction-requests/${sent.body.data.item.transactionRequestId}`)
    expect(request.status).toBe(200)
    noCatalogueIds(request.body)
    const sent25 = await call("2025-09-23", "POST", `/vaults/${vault}/transaction-requests/single-transfer`, {
      vaultAccountId: account,
      assetId: MY_ETH,
      amount: "0.1",
      fromAddress: address,
      toAddress: TO,
      feePriority: "standard",
      note: "fixture id",
    })
    expect(sent25.status).toBe(201)
    noCatalogueIds(sent25.body)
    await h.admin("POST", "/_sim/chains/ethereum/sepolia/mine", { blocks: 1 })
    // Balances after mining, read under the fixture's ids: 30 − 1 USDC.
    const after = await call("2026-03-20", "GET", `/vaults/${vault}/vault-accounts/${account}/list-assets`)
    const usdc = after.body.data.items.find((a: { assetId: string }) => a.assetId === MY_USDC)
    expect(usdc.availableAmount).toBe("29")
  })

  it("leave the log in the catalogue's ids; the simulator's own ids are still taken", async () => {
    const events = (await h.admin("GET", "/_sim/events?limit=1000")).body.events as Array<{ type: string; data: Record<string, unknown> }>
    const text = JSON.stringify(events)
    expect(text).toContain(ETH.id)
    expect(text).not.toContain(MY_ETH)
    const r = await call("2026-03-20", "GET", `/assets/${ETH.id}/ethereum/vaults/test`)
    expect(r.status).toBe(200)
    noCatalogueIds(r.body)
  })

  it("an unknown asset id is still refused as before", async () => {
    const r = await call("2026-03-20", "PUT", `/vaults/${vault}/vault-accounts/${account}/add-asset`, {
      assetId: "000000000000000000000000",
      label: "x",
    })
    expect(r.status).toBeGreaterThanOrEqual(400)
    expect(r.status).toBeLessThan(500)
  })
})

describe("a bad asset list stops the start", () => {
  it("names the entry: an unknown asset, an ambiguous or clashing id, neither symbol nor contract", async () => {
    expect(() => makeAssetIds([{ assetId: "x", blockchain: "ethereum", network: "sepolia", symbol: "NOPE" }])).toThrow(
      /assets\[0\].*no such asset/,
    )
    expect(() => makeAssetIds([{ assetId: "x", blockchain: "ethereum", network: "sepolia" }])).toThrow(/assets\[0\].*symbol or contract/)
    expect(() =>
      makeAssetIds([
        { assetId: "x", blockchain: "ethereum", network: "sepolia", symbol: "ETH" },
        { assetId: "x", blockchain: "ethereum", network: "sepolia", symbol: "USDC" },
      ]),
    ).toThrow(/assets\[1\].*twice/)
    expect(() => makeAssetIds([{ assetId: USDC.id, blockchain: "ethereum", network: "sepolia", symbol: "ETH" }])).toThrow(
      /assets\[0\].*another asset/,
    )
    // A fixture file's list is checked as the control plane checks bodies: each entry's attributes and types.
    expect(
      loadFixture(JSON.stringify({ assets: [{ assetId: MY_ETH, blockchain: "ethereum", network: "sepolia", symbol: "ETH" }] })).assets,
    ).toHaveLength(1)
    expect(() => loadFixture(JSON.stringify({ assets: [{ assetId: MY_ETH, blockchain: "ethereum", symbol: "ETH" }] }))).toThrow(
      /assets\[0\]/,
    )
    expect(() => loadFixture(JSON.stringify({ assets: {} }))).toThrow(/assets/)
    await expect(
      createSimulator({
        store: makeMemoryStore(),
        fixture: { assets: [{ assetId: "x", blockchain: "nochain", network: "x", symbol: "X" }] },
      }),
    ).rejects.toThrow(/no such asset/)
  })
})
