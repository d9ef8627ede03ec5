// The page size of every paged route when the request sets no `limit`, in every version that pages it, over a
// socket: 50 everywhere (the documentation's figure) but a vault account's transactions, 10 as the service answers
// (custody-api-2026.md §2.4, open point 11). The table is the README's; a paged route missing from it fails.
import type { Client } from "undici"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { API_VERSIONS } from "../../src/domain/api-key/index.js"
import { createApp } from "../../src/api/app.js"
import { pagedAt } from "../../src/api/operation.js"
import { defaultOperations } from "../../src/api/operations.js"
import type { Credentials } from "../../src/client/index.js"
import { assetId } from "../support/catalogue.js"
import { createKey, startHarness, type Harness } from "../support/harness.js"
import { listen } from "../support/server.js"
import { signedCall, strictConnection } from "../support/strict-http.js"

/** Operation id → its default page size. */
const TABLE: Readonly<Record<string, number>> = {
  listVaults: 50,
  listVaultsByNetworkType: 50,
  listAssetsByNetworkType: 50,
  listVaultTransactions: 50,
  listVaultAccounts: 50,
  listVaultAccountAssets: 50,
  listVaultAccountAddresses: 50,
  listVaultAccountTransactions: 10,
  getAddressBalance: 50,
  listUtxos: 50,
}

let h: Harness
let creds: Credentials
let connection: Client
let server: { url: string; close: () => Promise<void> }
let vault: string
let account: string
let address: string

beforeAll(async () => {
  h = await startHarness()
  creds = await createKey(h, { apiVersion: "2026-03-20" })
  server = await listen(createApp(h.sim, { log: { error: () => {}, info: () => {} } }))
  connection = strictConnection(server.url)
  vault = (await h.admin("POST", "/_sim/vaults", { name: "pages", type: "test", backuped: true })).body.id
  await h.admin("PUT", "/_sim/chains/ethereum/sepolia/mining", { mode: "auto", confirmations: 1 })
  account = (
    await call("2026-03-20", "POST", `/vaults/${vault}/vault-account`, { name: "a", color: "#000000", isHiddenInDashboard: false })
  ).body.data.item.vaultAccountId
  const ETH = assetId("ethereum", "sepolia", "ETH")
  address = (await call("2026-03-20", "PUT", `/vaults/${vault}/vault-accounts/${account}/add-asset`, { assetId: ETH, label: "in" })).body
    .data.item.address
  for (let i = 1; i <= 12; i++)
    expect(
      (await h.admin("POST", "/_sim/deposits", { blockchain: "ethereum", network: "sepolia", address, assetId: ETH, amount: `0.${i}` }))
        .status,
    ).toBe(201)
})
afterAll(async () => {
  await connection.close()
  await server.close()
  await h.close()
})

const call = signedCall(
  () => connection,
  () => creds,
)
const pathOf = (template: string) =>
  template.replace(":vaultId", vault).replace(":vaultAccountId", account).replace(":networkType", "test").replace(":address", address)

const paged = API_VERSIONS.flatMap((version) =>
  defaultOperations
    .filter((op) => op.method === "GET" && (op.versions ?? API_VERSIONS).includes(version) && pagedAt(op, version))
    .map((op) => [version, op.id, op.path] as const),
)

describe("default page sizes", () => {
  it("the table names every paged route", () => {
    expect([...new Set(paged.map(([, id]) => id))].sort()).toEqual(Object.keys(TABLE).sort())
  })

  it.each(paged)("%s %s (%s) answers its default limit", async (version, id, path) => {
    const r = await call(version, "GET", pathOf(path))
    expect(r.status).toBe(200)
    expect(r.body.data.limit).toBe(TABLE[id])
  })

  it("a vault account's transactions: 10 of the 12 and hasMore by default, all 12 with limit=12", async () => {
    const first = await call("2026-03-20", "GET", `/vaults/${vault}/vault-accounts/${account}/transactions`)
    expect(first.body.data).toMatchObject({ limit: 10, hasMore: true })
    expect(first.body.data.items).toHaveLength(10)
    const next = await call(
      "2026-03-20",
      "GET",
      `/vaults/${vault}/vault-accounts/${account}/transactions?startingAfter=${first.body.data.items[9].id}`,
    )
    expect(next.body.data).toMatchObject({ limit: 10, hasMore: false })
    expect(next.body.data.items).toHaveLength(2)
    const all = await call("2026-03-20", "GET", `/vaults/${vault}/vault-accounts/${account}/transactions?limit=12`)
    expect(all.body.data).toMatchObject({ limit: 12, hasMore: false })
    expect(all.body.data.items).toHaveLength(12)
  })

  it("the OpenAPI document gives each route's default", async () => {
    const res = await fetch(`${server.url}/openapi/2026-03-20.json`)
    const doc = (await res.json()) as {
      paths: Record<string, Record<string, { parameters: Array<{ name: string; schema: { default?: number } }> }>>
    }
    const limitOf = (p: string) => doc.paths[p]!.get!.parameters.find((x) => x.name === "limit")!.schema.default
    expect(limitOf("/vaults/{vaultId}/vault-accounts/{vaultAccountId}/transactions")).toBe(10)
    expect(limitOf("/vaults/{vaultId}/vault-accounts/{vaultAccountId}/list-assets")).toBe(50)
  })
})
