// A fixture's asset ids on the routes only 2026-03-20 has: the vault's outputs (GET /vaults/{id}/utxos), the
// utxo-transfer body and the EIP-7702 batch body. The fixture's id is taken in (query, body, nested fee payer and
// recipients) and given back out; the log keeps the catalogue's ids.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { assetsOf } from "../../../src/domain/chains/index.js"
import { createKey, startHarness, type Harness } from "../../support/harness.js"
import type { Credentials } from "../../../src/client/index.js"

const BTC = assetsOf({ blockchain: "bitcoin", network: "testnet" }).find((a) => a.symbol === "BTC")!
const sepolia = assetsOf({ blockchain: "ethereum", network: "sepolia" })
const ETH = sepolia.find((a) => a.symbol === "ETH")!
const USDC = sepolia.find((a) => a.symbol === "USDC")!
// Ids as the real service writes them (24 hex digits), unknown to the catalogue.
const MY_BTC = "6523e058a06ebf1322d7dd71"
const MY_ETH = "6523e058a06ebf1322d7dd6f"
const MY_USDC = "6523e058a06ebf1322d7dd70"
const EXTERNAL_BTC = "tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx"
const EXTERNAL_ETH = "0x742d35Cc6634C0532925a3b844Bc454e4438f44e"

let h: Harness
let older: Credentials
let vault: string
const call = (method: string, url: string, item?: unknown, creds = h.creds) =>
  h.raw({ method, url, creds, ...(item !== undefined ? { body: JSON.stringify({ data: { item } }) } : {}) })

/** No answer shows the catalogue's id of an aliased asset. */
const noCatalogueIds = (body: unknown) => {
  const text = JSON.stringify(body)
  for (const a of [BTC, ETH, USDC]) expect(text).not.toContain(a.id)
}

/** A new vault account with one address holding the given assets (the fixture's ids), each deposited and confirmed. */
const funded = async (blockchain: string, network: string, funds: ReadonlyArray<readonly [string, string]>) => {
  const made = await call("POST", `/vaults/${vault}/vault-account`, { name: "a", color: "#00AA00", isHiddenInDashboard: false })
  expect(made.status).toBe(201)
  const account = made.body.data.item.vaultAccountId as string
  let address: string | undefined
  const deposits: Array<string> = []
  for (const [assetId, amount] of funds) {
    const added = await call(
      "PUT",
      `/vaults/${vault}/vault-accounts/${account}/add-asset`,
      address === undefined ? { assetId, label: "w" } : { assetId, address },
    )
    expect(added.status).toBe(200)
    noCatalogueIds(added.body)
    address = added.body.data.item.address as string
    const dep = await h.admin("POST", "/_sim/deposits", { blockchain, network, address, assetId, amount })
    expect(dep.status).toBe(201)
    deposits.push(dep.body.transactionId as string)
  }
  return { account, address: address!, deposits }
}

beforeAll(async () => {
  h = await startHarness({
    fixture: {
      vaults: [{ name: "Ops", type: "test" }],
      apiKeys: [{ name: "ops", apiVersion: "2026-03-20", rateLimit: { perSecond: 1_000_000, burst: 1_000_000 } }],
      assets: [
        { assetId: MY_BTC, blockchain: "bitcoin", network: "testnet", symbol: "BTC" },
        { assetId: MY_ETH, blockchain: "ethereum", network: "sepolia", symbol: "ETH" },
        { assetId: MY_USDC, blockchain: "ethereum", network: "sepolia", contract: USDC.type === "TOKEN" ? USDC.contract : "" },
      ],
    },
  })
  older = await createKey(h, { apiVersion: "2025-09-23" })
  vault = h.testVaultId
  await h.admin("PUT", "/_sim/chains/bitcoin/testnet/mining", { mode: "auto", confirmations: 1 })
  await h.admin("PUT", "/_sim/chains/ethereum/sepolia/mining", { mode: "auto", confirmations: 1 })
})
afterAll(async () => h?.close())

describe("a fixture's asset ids on the UTXO routes (2026-03-20, the only version that has them)", () => {
  it("the outputs' listing filters by the fixture's id and names it; utxo-transfer takes it and answers it", async () => {
    const { address, deposits } = await funded("bitcoin", "testnet", [[MY_BTC, "0.001"]])
    const utxoId = `${deposits[0]}:0`
    const listed = await call("GET", `/vaults/${vault}/utxos?assetId=${MY_BTC}`)
    expect(listed.status).toBe(200)
    noCatalogueIds(listed.body)
    expect(listed.body.data.items).toEqual([expect.objectContaining({ utxoId, address, assetId: MY_BTC, isSpent: false })])
    // The simulator's own id is still taken, and answered as the fixture's.
    const byCatalogue = await call("GET", `/vaults/${vault}/utxos?assetId=${BTC.id}`)
    expect(byCatalogue.body.data.items.map((u: { assetId: string }) => u.assetId)).toEqual([MY_BTC])

    const sent = await call("POST", `/vaults/${vault}/transaction-requests/utxo-transfer`, {
      assetId: MY_BTC,
      feePriority: "standard",
      note: "aliased",
      senders: [{ utxoId }],
      recipients: [{ address: EXTERNAL_BTC, amount: "0.0004" }],
    })
    expect(sent.status).toBe(201)
    noCatalogueIds(sent.body)
    expect(sent.body.data.item).toMatchObject({ assetId: MY_BTC, amountUnit: "BTC", senders: [{ utxoId, address }] })
    // Mined at once (auto, one confirmation): the spent output is listed under the fixture's id.
    const spent = await call("GET", `/vaults/${vault}/utxos?isSpent=true&assetId=${MY_BTC}`)
    expect(spent.status).toBe(200)
    noCatalogueIds(spent.body)
    expect(spent.body.data.items).toEqual([expect.objectContaining({ utxoId, assetId: MY_BTC, isSpent: true })])

    const events = (await h.admin("GET", "/_sim/events?limit=1000")).body.events as Array<{ type: string; data: Record<string, unknown> }>
    const created = events.filter((e) => e.type === "TxRequestCreated").at(-1)!
    expect(created.data.assetId).toBe(BTC.id)
    expect(JSON.stringify(events)).not.toContain(MY_BTC)
  })

  it("a batch takes the fixture's ids in its fee payer and recipients, and answers them", async () => {
    const sender = await funded("ethereum", "sepolia", [
      [MY_ETH, "1"],
      [MY_USDC, "100"],
    ])
    const payer = await funded("ethereum", "sepolia", [[MY_ETH, "1"]])
    const r = await call("POST", `/vaults/${vault}/transaction-requests/batch`, {
      senderAddress: sender.address,
      feePayer: { address: payer.address, assetId: MY_ETH },
      feePriority: "fast",
      note: "payroll",
      recipients: [
        { address: EXTERNAL_ETH, amount: "0.1", assetId: MY_ETH },
        { address: EXTERNAL_ETH, amount: "10", assetId: MY_USDC },
      ],
    })
    expect(r.status).toBe(201)
    noCatalogueIds(r.body)
    expect(r.body.data.item).toMatchObject({
      feePayer: { address: payer.address, assetId: MY_ETH },
      recipients: [
        { address: EXTERNAL_ETH, amount: "0.1", assetId: MY_ETH, amountUnit: "ETH" },
        { address: EXTERNAL_ETH, amount: "10", assetId: MY_USDC, amountUnit: "USDC" },
      ],
    })
    const events = (await h.admin("GET", "/_sim/events?limit=1000")).body.events as Array<{ type: string; data: Record<string, unknown> }>
    const created = events.filter((e) => e.type === "TxRequestCreated").at(-1)!
    expect(created.data).toMatchObject({ endpoint: "batch", assetId: ETH.id })
    const reserved = (created.data.reservations as Array<{ assetId: string }>).map((x) => x.assetId)
    expect(new Set(reserved)).toEqual(new Set([ETH.id, USDC.id]))
  })

  it("at 2025-09-23 the three routes are unknown (the service answers 400 uri_not_found), whatever asset id they name", async () => {
    const utxos = await call("GET", `/vaults/${vault}/utxos?assetId=${MY_BTC}`, undefined, older)
    expect(utxos.status).toBe(400)
    expect(utxos.body.error.code).toBe("uri_not_found")
    for (const path of ["utxo-transfer", "batch"]) {
      const r = await call("POST", `/vaults/${vault}/transaction-requests/${path}`, { assetId: MY_BTC }, older)
      expect(r.status, path).toBe(400)
      expect(r.body.error.code, path).toBe("uri_not_found")
    }
  })
})
