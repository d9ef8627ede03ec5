// The vault's default account (its id is the vault's) is a full account over a socket: add-asset by label and by
// address, edit and the reads, in each version that has the route; every transfer kind sends from it; a token
// deposit to an address generated without vaultAccountId is credited once the token is added.
import { Effect } from "effect"
import type { Client } from "undici"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createApp } from "../../src/api/app.js"
import type { Credentials } from "../../src/client/index.js"
import { assetId } from "../support/catalogue.js"
import { createKey, startHarness, type Harness } from "../support/harness.js"
import { listen } from "../support/server.js"
import { signedCall, strictConnection } from "../support/strict-http.js"

type Version = "2024-05-09" | "2025-09-23" | "2026-03-20"
const EXTERNAL_ETH = "0x742d35Cc6634C0532925a3b844Bc454e4438f44e"
const EXTERNAL_BTC = "tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx"
const EXTERNAL_TRON = "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7"
const ETH = assetId("ethereum", "sepolia", "ETH")
const USDC = assetId("ethereum", "sepolia", "USDC")
const BTC = assetId("bitcoin", "testnet", "BTC")
const TRX = assetId("tron", "nile", "TRX")
const TRC20 = assetId("tron", "nile", "USDT")

let h: Harness
let creds: Credentials
let connection: Client
let server: { url: string; close: () => Promise<void> }

beforeAll(async () => {
  h = await startHarness()
  creds = await createKey(h, { apiVersion: "2026-03-20" })
  server = await listen(createApp(h.sim, { log: { error: () => {}, info: () => {} } }))
  connection = strictConnection(server.url)
  for (const [blockchain, network] of [
    ["ethereum", "sepolia"],
    ["bitcoin", "testnet"],
    ["tron", "nile"],
  ])
    await h.admin("PUT", `/_sim/chains/${blockchain}/${network}/mining`, { mode: "auto", confirmations: 1 })
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
const newVault = async (name: string) => (await h.admin("POST", "/_sim/vaults", { name, type: "test", backuped: true })).body.id as string
/** An address of the vault itself: #6 without vaultAccountId (2026-03-20 requires one: the vault's own id). */
const ownAddress = async (version: Version, vault: string, blockchain: string, network: string, label = "own") => {
  const r = await call(
    version,
    "POST",
    `/vaults/${vault}/${blockchain}/${network}/addresses`,
    version === "2026-03-20" ? { label, vaultAccountId: vault } : { label },
  )
  expect(r.status).toBe(201)
  return r.body.data.item.address as string
}
const deposit = async (blockchain: string, network: string, address: string, asset: string, amount: string) =>
  expect((await h.admin("POST", "/_sim/deposits", { blockchain, network, address, assetId: asset, amount })).status).toBe(201)
const total = (blockchain: string, network: string, address: string, asset: string) =>
  h.sim.models.holdings.balance(blockchain, network, address, asset, undefined).total
const head = () => Effect.runPromise(h.sim.store.headPosition)
const eventsSince = async (from: bigint) =>
  (await h.admin("GET", `/_sim/events?fromPosition=${from + 1n}&limit=1000`)).body.events as Array<{ type: string; data: any }>

describe.each(["2024-05-09", "2025-09-23", "2026-03-20"] as const)("the default account at %s", (version) => {
  it("takes a token by label: it goes to the vault's own address, whose held deposit is credited then", async () => {
    const vault = await newVault(`label ${version}`)
    const own = await ownAddress(version, vault, "ethereum", "sepolia")
    await deposit("ethereum", "sepolia", own, USDC, "5")
    expect(total("ethereum", "sepolia", own, USDC)).toBe(0n)
    const before = await head()
    const r = await call(version, "PUT", `/vaults/${vault}/vault-accounts/${vault}/add-asset`, { assetId: USDC, label: "tokens" })
    expect(r.status).toBe(200)
    expect(r.body.data.item).toEqual({
      address: own,
      label: "own",
      assetId: USDC,
      blockchain: "ethereum",
      network: "sepolia",
      vaultAccountId: vault,
    })
    const events = await eventsSince(before)
    expect(events.filter((e) => e.type === "AssetAdded").map((e) => e.data)).toEqual([
      expect.objectContaining({ vaultId: vault, vaultAccountId: vault, assetId: USDC, address: own }),
    ])
    expect(events.filter((e) => e.type === "DepositCredited")).toHaveLength(1)
    expect(total("ethereum", "sepolia", own, USDC)).toBe(5_000_000n)
  })

  it("takes a token by address, and derives the vault's own address by label on a chain where it has none", async () => {
    const vault = await newVault(`address ${version}`)
    const own = await ownAddress(version, vault, "ethereum", "sepolia")
    const byAddress = await call(version, "PUT", `/vaults/${vault}/vault-accounts/${vault}/add-asset`, { assetId: USDC, address: own })
    expect([byAddress.status, byAddress.body.data?.item.address]).toEqual([200, own])
    const byLabel = await call(version, "PUT", `/vaults/${vault}/vault-accounts/${vault}/add-asset`, { assetId: TRC20, label: "tron" })
    expect(byLabel.status).toBe(200)
    const tronAddress = byLabel.body.data.item.address as string
    // The vault's own address: it holds the chain's coin from derivation, as every own address does, and the token.
    const view = h.sim.models.holdings.address("tron", "nile", tronAddress, undefined)!
    expect(view.facts.vaultAccountId).toBeNull()
    expect([...view.assets.keys()].sort()).toEqual([TRX, TRC20].sort())
    // A foreign address is refused; a repeated add is idempotent before 2026-03-20 and 409 at it.
    const foreign = await call(version, "PUT", `/vaults/${vault}/vault-accounts/${vault}/add-asset`, {
      assetId: USDC,
      address: EXTERNAL_ETH,
    })
    expect(foreign.status).toBe(400)
    const again = await call(version, "PUT", `/vaults/${vault}/vault-accounts/${vault}/add-asset`, { assetId: USDC, address: own })
    expect(again.status).toBe(version === "2026-03-20" ? 409 : 200)
  })

  it("single-transfer sends from it", async () => {
    const vault = await newVault(`single ${version}`)
    const own = await ownAddress(version, vault, "ethereum", "sepolia")
    await deposit("ethereum", "sepolia", own, ETH, "1")
    const r = await call(version, "POST", `/vaults/${vault}/transaction-requests/single-transfer`, {
      vaultAccountId: vault,
      assetId: ETH,
      fromAddress: own,
      toAddress: EXTERNAL_ETH,
      amount: "0.1",
      feePriority: "slow",
      note: "from the default account",
    })
    expect([r.status, r.body.data?.item.vaultAccountId, r.body.data?.item.fromAddress]).toEqual([201, vault, own])
  })
})

describe("the default account's reads and edit at 2026-03-20", () => {
  it("is edited as any account: the answer, details and the list show the edit; an edit that changes nothing writes nothing", async () => {
    const vault = await newVault("edit")
    const before = await head()
    const r = await call("2026-03-20", "PUT", `/vaults/${vault}/vault-accounts/${vault}/edit`, {
      name: "Treasury",
      color: "#112233",
      isFavorityInDashboard: true,
    })
    expect(r.status).toBe(200)
    expect(r.body.data.item).toMatchObject({
      vaultAccountId: vault,
      vaultAccountName: "Treasury",
      vaultAccountColour: "#112233",
      isFavorityInDashboard: true,
      index: "0",
    })
    expect((await eventsSince(before)).map((e) => [e.type, e.data.vaultAccountId, e.data.name])).toEqual([
      ["VaultAccountEdited", vault, "Treasury"],
    ])
    const details = await call("2026-03-20", "GET", `/vaults/${vault}/vault-accounts/${vault}/details`)
    expect(details.body.data.item).toMatchObject({
      vaultAccountName: "Treasury",
      vaultAccountColour: "#112233",
      isFavorityInDashboard: true,
    })
    const list = await call("2026-03-20", "GET", `/vaults/${vault}/vault-accounts/details`)
    expect(list.body.data.items[0]).toMatchObject({
      vaultAccountId: vault,
      vaultAccountName: "Treasury",
      isFavoriteInDashboard: true,
      index: 0,
    })
    // As of before the edit, the account is as it was.
    const earlier = await h.raw({
      method: "GET",
      url: `/vaults/${vault}/vault-accounts/${vault}/details`,
      creds,
      override: { "x-sim-as-of": `position:${before}` },
    })
    expect(earlier.body.data.item).toMatchObject({ vaultAccountName: "Default", isFavorityInDashboard: false })
    const unchanged = await head()
    expect((await call("2026-03-20", "PUT", `/vaults/${vault}/vault-accounts/${vault}/edit`, { name: "Treasury" })).status).toBe(200)
    expect(await head()).toBe(unchanged)
  })

  it("lists its assets, addresses and transactions", async () => {
    const vault = await newVault("reads")
    const own = await ownAddress("2026-03-20", vault, "ethereum", "sepolia")
    expect(
      (await call("2026-03-20", "PUT", `/vaults/${vault}/vault-accounts/${vault}/add-asset`, { assetId: USDC, address: own })).status,
    ).toBe(200)
    await deposit("ethereum", "sepolia", own, USDC, "2")
    const assets = await call("2026-03-20", "GET", `/vaults/${vault}/vault-accounts/${vault}/list-assets`)
    expect(assets.body.data.items.map((a: any) => [a.assetId, a.availableAmount])).toEqual([
      [ETH, "0"],
      [USDC, "2"],
    ])
    const addresses = await call("2026-03-20", "GET", `/vaults/${vault}/vault-accounts/${vault}/list-addresses?assetId=${USDC}`)
    expect(addresses.body.data.items.map((a: any) => a.address)).toEqual([own])
    const txs = await call("2026-03-20", "GET", `/vaults/${vault}/vault-accounts/${vault}/transactions`)
    expect(txs.body.data.items).toHaveLength(1)
    expect(txs.body.data.items[0]).toMatchObject({ direction: "incoming", blockchain: "ethereum", network: "sepolia" })
  })
})

describe("every transfer kind from the default account at 2026-03-20", () => {
  let vault: string
  let sender: string
  let payer: string
  beforeAll(async () => {
    vault = await newVault("transfers")
    sender = await ownAddress("2026-03-20", vault, "ethereum", "sepolia", "sender")
    payer = await ownAddress("2026-03-20", vault, "ethereum", "sepolia", "payer")
    expect(
      (await call("2026-03-20", "PUT", `/vaults/${vault}/vault-accounts/${vault}/add-asset`, { assetId: USDC, address: sender })).status,
    ).toBe(200)
    await deposit("ethereum", "sepolia", sender, USDC, "100")
    await deposit("ethereum", "sepolia", payer, ETH, "1")
  })
  const post = (path: string, item: unknown) => call("2026-03-20", "POST", `/vaults/${vault}${path}`, item)

  it("gas-sponsorship-transfer", async () => {
    const r = await post("/transaction-requests/gas-sponsorship-transfer", {
      vaultAccountId: vault,
      assetId: USDC,
      fromAddress: sender,
      toAddress: EXTERNAL_ETH,
      amount: "1",
      feePayer: payer,
      note: "sponsored",
    })
    expect([r.status, r.body.data?.item.vaultAccountId, r.body.data?.item.fromAddress]).toEqual([201, vault, sender])
  })

  it("a sponsored approximate-fee", async () => {
    const r = await post("/approximate-fee", {
      transactionType: "single",
      vaultAccountId: vault,
      assetId: USDC,
      fromAddress: sender,
      toAddress: EXTERNAL_ETH,
      amount: "1",
      feePayer: payer,
      feePriority: "standard",
    })
    expect([r.status, r.body.data?.item.vaultAccountId, r.body.data?.item.feePayer]).toEqual([200, vault, payer])
  })

  it("an EIP-7702 batch, with vaultAccountId and without it", async () => {
    const item = {
      feePayer: { address: payer, assetId: ETH },
      feePriority: "standard",
      note: "batch",
      senderAddress: sender,
      recipients: [{ address: EXTERNAL_ETH, amount: "1", assetId: USDC }],
    }
    const named = await post("/transaction-requests/batch", { ...item, vaultAccountId: vault })
    expect([named.status, named.body.data?.item.vaultAccountId]).toEqual([201, vault])
    const unnamed = await post("/transaction-requests/batch", item)
    expect([unnamed.status, unnamed.body.data?.item.vaultAccountId]).toEqual([201, vault])
  })

  it("multiple-transfer and utxo-transfer (its change to the default account)", async () => {
    const btc = await ownAddress("2026-03-20", vault, "bitcoin", "testnet", "btc")
    await deposit("bitcoin", "testnet", btc, BTC, "0.01")
    await deposit("bitcoin", "testnet", btc, BTC, "0.01")
    const multiple = await post("/transaction-requests/multiple-transfer", {
      vaultAccountId: vault,
      assetId: BTC,
      feePriority: "standard",
      prepareStrategy: "minimize_dust",
      note: "m",
      recipients: [{ address: EXTERNAL_BTC, amount: "0.001" }],
    })
    expect([multiple.status, multiple.body.data?.item.vaultAccountId]).toEqual([201, vault])
    const utxos = await call("2026-03-20", "GET", `/vaults/${vault}/utxos?vaultAccountId=${vault}`)
    const free = utxos.body.data.items.find((u: any) => !u.isReserved)
    expect(free).toMatchObject({ vaultAccountId: vault, address: btc })
    const explicit = await post("/transaction-requests/utxo-transfer", {
      assetId: BTC,
      feePriority: "standard",
      note: "u",
      senders: [{ utxoId: free.utxoId }],
      recipients: [{ address: EXTERNAL_BTC, amount: "0.001" }],
      changeData: { vaultAccountId: vault },
    })
    expect(explicit.status).toBe(201)
    expect(explicit.body.data.item.senders).toEqual([expect.objectContaining({ utxoId: free.utxoId, vaultAccountId: vault })])
  })

  it("contract-interaction approve and transfer-from", async () => {
    const holder = await ownAddress("2026-03-20", vault, "tron", "nile", "holder")
    const fees = await ownAddress("2026-03-20", vault, "tron", "nile", "fees")
    expect(
      (await call("2026-03-20", "PUT", `/vaults/${vault}/vault-accounts/${vault}/add-asset`, { assetId: TRC20, address: holder })).status,
    ).toBe(200)
    await deposit("tron", "nile", holder, TRC20, "10")
    await deposit("tron", "nile", fees, TRX, "100")
    const approve = await post("/transaction-requests/contract-interaction", {
      method: "approve",
      vaultAccountId: vault,
      assetId: TRC20,
      fromAddress: holder,
      feePayer: fees,
      note: "allow",
    })
    expect([approve.status, approve.body.data?.item.vaultAccountId]).toEqual([201, vault])
    const pull = await post("/transaction-requests/contract-interaction", {
      method: "transfer-from",
      vaultAccountId: vault,
      assetId: TRC20,
      fromAddress: holder,
      feePayer: fees,
      toAddress: EXTERNAL_TRON,
      amount: "1",
      note: "pull",
    })
    expect([pull.status, pull.body.data?.item.vaultAccountId]).toEqual([201, vault])
    expect(total("tron", "nile", holder, TRC20)).toBe(9_000_000n)
  })
})
