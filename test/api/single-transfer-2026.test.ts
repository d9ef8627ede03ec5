// 2026-03-20 single-transfer over a socket: coins and tokens on every account-based family, the fee ceiling
// (MAX_FEE_EXCEEDED), `note` and the feePriority rule, every error it answers, balances after mining in base
// units; and the v-2 `GET /transaction-requests/{id}` beside the 2024 path.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { createApp } from "../../src/api/app.js"
import { CustodyClient, type Credentials } from "../../src/client/index.js"
import { assetId } from "../support/catalogue.js"
import { createKey, startHarness, type Harness } from "../support/harness.js"
import { listen } from "../support/server.js"

let h: Harness
let server: { url: string; close: () => Promise<void> }
let v26: CustodyClient
let v24: CustodyClient
let creds26: Credentials
let snapshot: string

beforeAll(async () => {
  h = await startHarness()
  server = await listen(createApp(h.sim, { log: { error: () => {}, info: () => {} } }))
  creds26 = await createKey(h, { apiVersion: "2026-03-20" })
  v26 = new CustodyClient({ baseUrl: server.url, credentials: creds26 })
  v24 = new CustodyClient({ baseUrl: server.url, credentials: h.creds })
  snapshot = (await h.admin("POST", "/_sim/snapshots")).body.id
})
beforeEach(async () => {
  await h.admin("POST", `/_sim/snapshots/${snapshot}/revert`)
})
afterAll(async () => {
  await server.close()
  await h.close()
})

const ETH_TO = "0x742d35Cc6634C0532925a3b844Bc454e4438f44e"
const TRON_TO = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"
const SOL_TO = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM"
const XRP_TO = "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh"
const CHAINS = { ethereum: "sepolia", tron: "nile", solana: "devnet", xrp: "testnet" } as const
type Chain = keyof typeof CHAINS

/** An account (through the 2024 key: the test vault is not backed up) with one address funded per asset. */
const funded = async (chain: Chain, holdings: Record<string, string>) => {
  const network = CHAINS[chain]
  const acct = (
    await v24.call<any>("POST", `/vaults/${h.testVaultId}/vault-account`, {
      item: { name: "a", color: "#000000", isHiddenInDashboard: false },
    })
  ).body.data.item.vaultAccountId as string
  await h.admin("PUT", `/_sim/chains/${chain}/${network}/mining`, { mode: "auto", confirmations: 1 })
  let address = ""
  for (const [symbol, amount] of Object.entries(holdings)) {
    const item =
      address === "" ? { assetId: assetId(chain, network, symbol), label: "w" } : { assetId: assetId(chain, network, symbol), address }
    address = (await v24.call<any>("PUT", `/vaults/${h.testVaultId}/vault-accounts/${acct}/add-asset`, { item })).body.data.item.address
    expect(
      (await h.admin("POST", "/_sim/deposits", { blockchain: chain, network, address, assetId: assetId(chain, network, symbol), amount }))
        .status,
    ).toBe(201)
  }
  return { acct, address }
}

const single = (item: Record<string, unknown>, client = v26) =>
  client.call<any>("POST", `/vaults/${h.testVaultId}/transaction-requests/single-transfer`, { item })

/** Balances of an address per symbol in base units, read from the history the control plane keeps. */
const totals = async (chain: Chain, address: string): Promise<Record<string, { total: string; blocked: string }>> => {
  const r = await v24.call<any>("GET", `/vaults/${h.testVaultId}/${chain}/addresses/${address}/assets`)
  const decimals: Record<string, number> = { ETH: 18, USDC: 6, TRX: 6, USDT: 6, SOL: 9, XRP: 6 }
  const base = (s: string, d: number) => {
    const [i, f = ""] = s.split(".")
    return (BigInt(i!) * 10n ** BigInt(d) + BigInt(f.padEnd(d, "0") || "0")).toString()
  }
  return Object.fromEntries(
    r.body.data.item.assets.map((a: any) => [
      a.symbol,
      { total: base(a.assetData.totalAmount, decimals[a.symbol]!), blocked: base(a.assetData.blockedAmount, decimals[a.symbol]!) },
    ]),
  )
}

const detail = (id: string, client = v26) => client.call<any>("GET", `/transaction-requests/${id}`)

describe("single-transfer at 2026-03-20: coins and tokens on every account-based family", () => {
  it("EVM coin: answers 201 with the note and maxFee, is mined, and debits amount + 21,000 gas × 2 gwei", async () => {
    const { acct, address } = await funded("ethereum", { ETH: "1" })
    const r = await single({
      vaultAccountId: acct,
      assetId: assetId("ethereum", "sepolia", "ETH"),
      fromAddress: address,
      toAddress: ETH_TO,
      amount: "0.25",
      feePriority: "standard",
      note: "payout 7",
      maxFee: "0.000042",
    })
    expect(r.status).toBe(201)
    expect(r.body.apiVersion).toBe("2026-03-20")
    expect(r.body.data.item).toEqual({
      transactionRequestId: expect.stringMatching(/^[0-9a-f]{24}$/),
      transactionRequestStatus: "created",
      vaultAccountId: acct,
      assetId: assetId("ethereum", "sepolia", "ETH"),
      fromAddress: address,
      toAddress: ETH_TO,
      amount: "0.25",
      feePriority: "standard",
      note: "payout 7",
      maxFee: "0.000042",
    })
    expect((await totals("ethereum", address)).ETH).toEqual({
      total: (10n ** 18n - 25n * 10n ** 16n - 42_000n * 10n ** 9n).toString(),
      blocked: "0",
    })
    const d = await detail(r.body.data.item.transactionRequestId)
    expect(d.status).toBe(200)
    expect(d.body.data.item).toMatchObject({
      amountUnit: "ETH",
      note: "payout 7",
      transactionRequestStatus: "success",
      recipients: [{ address: ETH_TO, amount: "0.25", amountUnit: "ETH" }],
    })
    expect(d.body.data.item).not.toHaveProperty("unit")
    expect(d.body.data.item).not.toHaveProperty("additionalDetails")
  })

  it("EVM token by assetId: the token leaves the sender, the fee (65,000 gas × 5 gwei) is paid in ETH", async () => {
    const { acct, address } = await funded("ethereum", { ETH: "1", USDC: "100" })
    const r = await single({
      vaultAccountId: acct,
      assetId: assetId("ethereum", "sepolia", "USDC"),
      fromAddress: address,
      toAddress: ETH_TO,
      amount: "40.5",
      feePriority: "fast",
      note: "t",
    })
    expect(r.status).toBe(201)
    expect(await totals("ethereum", address)).toEqual({
      ETH: { total: (10n ** 18n - 65_000n * 5n * 10n ** 9n).toString(), blocked: "0" },
      USDC: { total: "59500000", blocked: "0" },
    })
    expect((await detail(r.body.data.item.transactionRequestId)).body.data.item).toMatchObject({
      transactionType: "token",
      amountUnit: "USDC",
      totalTransactionAmount: "40.5",
    })
  })

  it("tron takes no feePriority: a TRX transfer inside the free bandwidth costs 0, a TRC-20 transfer burns 65,000 energy × 280 SUN", async () => {
    const { acct, address } = await funded("tron", { TRX: "100", USDT: "50" })
    const coin = await single({
      vaultAccountId: acct,
      assetId: assetId("tron", "nile", "TRX"),
      fromAddress: address,
      toAddress: TRON_TO,
      amount: "10",
      note: "c",
    })
    expect([coin.status, coin.body.data?.item.feePriority]).toEqual([201, "standard"])
    const token = await single({
      vaultAccountId: acct,
      assetId: assetId("tron", "nile", "USDT"),
      fromAddress: address,
      toAddress: TRON_TO,
      amount: "5",
      note: "t",
    })
    expect(token.status).toBe(201)
    expect(await totals("tron", address)).toEqual({
      TRX: { total: (90_000_000n - 65_000n * 280n).toString(), blocked: "0" },
      USDT: { total: "45000000", blocked: "0" },
    })
  })

  it("solana takes no feePriority: SOL and an SPL token each pay one 5,000-lamport signature", async () => {
    const { acct, address } = await funded("solana", { SOL: "2", USDC: "10" })
    expect(
      (
        await single({
          vaultAccountId: acct,
          assetId: assetId("solana", "devnet", "SOL"),
          fromAddress: address,
          toAddress: SOL_TO,
          amount: "0.5",
          note: "s",
        })
      ).status,
    ).toBe(201)
    expect(
      (
        await single({
          vaultAccountId: acct,
          assetId: assetId("solana", "devnet", "USDC"),
          fromAddress: address,
          toAddress: SOL_TO,
          amount: "1",
          note: "s",
        })
      ).status,
    ).toBe(201)
    expect(await totals("solana", address)).toEqual({
      SOL: { total: (1_500_000_000n - 10_000n).toString(), blocked: "0" },
      USDC: { total: "9000000", blocked: "0" },
    })
  })

  it("xrp needs a feePriority and pays its drops (12 at standard)", async () => {
    const { acct, address } = await funded("xrp", { XRP: "30" })
    const item = {
      vaultAccountId: acct,
      assetId: assetId("xrp", "testnet", "XRP"),
      fromAddress: address,
      toAddress: XRP_TO,
      amount: "5",
      note: "x",
    }
    const missing = await single(item)
    expect([missing.status, missing.body.error?.code, missing.body.error?.details]).toEqual([
      409,
      "missing_required_attributes",
      [{ attribute: "feePriority", message: "is required" }],
    ])
    expect((await single({ ...item, feePriority: "standard" })).status).toBe(201)
    expect((await totals("xrp", address)).XRP).toEqual({ total: (25_000_000n - 12n).toString(), blocked: "0" })
  })

  it("the vault's default account sends from the vault's own addresses", async () => {
    await h.admin("PUT", "/_sim/chains/ethereum/sepolia/mining", { mode: "auto", confirmations: 1 })
    const address = (await v24.call<any>("POST", `/vaults/${h.testVaultId}/ethereum/sepolia/addresses`, { item: { label: "own" } })).body
      .data.item.address as string
    await h.admin("POST", "/_sim/deposits", {
      blockchain: "ethereum",
      network: "sepolia",
      address,
      assetId: assetId("ethereum", "sepolia", "ETH"),
      amount: "1",
    })
    const r = await single({
      vaultAccountId: h.testVaultId,
      assetId: assetId("ethereum", "sepolia", "ETH"),
      fromAddress: address,
      toAddress: ETH_TO,
      amount: "0.1",
      feePriority: "slow",
      note: "own",
    })
    expect([r.status, r.body.data?.item.vaultAccountId]).toEqual([201, h.testVaultId])
  })
})

describe("single-transfer at 2026-03-20: errors, each writing nothing", () => {
  it("maxFee below the fee is 400 MAX_FEE_EXCEEDED; equal to it is accepted", async () => {
    const { acct, address } = await funded("ethereum", { ETH: "1" })
    const item = {
      vaultAccountId: acct,
      assetId: assetId("ethereum", "sepolia", "ETH"),
      fromAddress: address,
      toAddress: ETH_TO,
      amount: "0.1",
      feePriority: "fast",
      note: "n",
    }
    const before = h.sim.models.position
    const r = await single({ ...item, maxFee: "0.000104999" })
    expect([r.status, r.body.error?.code]).toEqual([400, "MAX_FEE_EXCEEDED"])
    expect(r.body.error.message).toContain("0.000105 ETH")
    expect(r.body.error.details).toEqual([{ attribute: "maxFee", message: "is below the fee the transfer would pay now (0.000105 ETH)" }])
    expect(h.sim.models.position).toBe(before)
    expect((await totals("ethereum", address)).ETH).toEqual({ total: (10n ** 18n).toString(), blocked: "0" })
    expect((await single({ ...item, maxFee: "0.000105" })).status).toBe(201)
  })

  it("on tron the ceiling follows the state: maxFee 0 holds while free bandwidth lasts (5 transfers of 268), then is exceeded", async () => {
    const { acct, address } = await funded("tron", { TRX: "100" })
    const item = {
      vaultAccountId: acct,
      assetId: assetId("tron", "nile", "TRX"),
      fromAddress: address,
      toAddress: TRON_TO,
      amount: "1",
      note: "n",
      maxFee: "0",
    }
    for (let i = 0; i < 5; i++) expect((await single(item)).status).toBe(201)
    const sixth = await single(item)
    expect([sixth.status, sixth.body.error?.code]).toEqual([400, "MAX_FEE_EXCEEDED"])
    expect(sixth.body.error.message).toContain("0.268 TRX")
    expect((await single({ ...item, maxFee: "0.268" })).status).toBe(201)
    expect((await totals("tron", address)).TRX?.total).toBe((94_000_000n - 268_000n).toString())
  })

  it("answers every other refusal in the spec's shape", async () => {
    const { acct, address } = await funded("ethereum", { ETH: "1" })
    const other = await funded("ethereum", { ETH: "1" })
    const main = (await h.admin("POST", "/_sim/vaults", { name: "M", type: "main" })).body.id as string
    const ok = {
      vaultAccountId: acct,
      assetId: assetId("ethereum", "sepolia", "ETH"),
      fromAddress: address,
      toAddress: ETH_TO,
      amount: "0.1",
      feePriority: "slow",
      note: "n",
    }
    const without = (k: string) => Object.fromEntries(Object.entries(ok).filter(([key]) => key !== k))
    const before = h.sim.models.position
    const cases: Array<[string, Promise<any>, number, string]> = [
      ["note missing", single(without("note")), 409, "missing_required_attributes"],
      ["feePriority missing on EVM", single(without("feePriority")), 409, "missing_required_attributes"],
      ["an attribute the page lacks", single({ ...ok, gross: true }), 409, "extra_body_attributes"],
      ["an empty note", single({ ...ok, note: "" }), 400, "invalid_data"],
      ["a note over 250 characters", single({ ...ok, note: "x".repeat(251) }), 400, "invalid_data"],
      ["a malformed maxFee", single({ ...ok, maxFee: "-1" }), 400, "invalid_data"],
      ["too many decimals in maxFee", single({ ...ok, maxFee: "0.0000000000000000001" }), 400, "invalid_data"],
      ["a bad amount", single({ ...ok, amount: "1e3" }), 400, "invalid_data"],
      ["a bad recipient", single({ ...ok, toAddress: "0x12" }), 400, "invalid_data"],
      ["a UTXO asset", single({ ...ok, assetId: assetId("bitcoin", "testnet", "BTC") }), 400, "invalid_data"],
      [
        "a mainnet asset in a test vault",
        single({ ...ok, assetId: assetId("ethereum", "mainnet", "ETH") }),
        400,
        "network_not_allowed_for_vault",
      ],
      ["insufficient funds", single({ ...ok, amount: "1" }), 400, "insufficient_balance"],
      ["an unknown asset", single({ ...ok, assetId: "ffffffffffffffffffffffff" }), 404, "resource_not_found"],
      ["an unknown account", single({ ...ok, vaultAccountId: "ffffffffffffffffffffffff" }), 404, "resource_not_found"],
      ["fromAddress of another account", single({ ...ok, fromAddress: other.address }), 404, "resource_not_found"],
      ["an address outside the vault", single({ ...ok, fromAddress: ETH_TO }), 404, "resource_not_found"],
      [
        "a vault of another network type",
        v26.call<any>("POST", `/vaults/${main}/transaction-requests/single-transfer`, { item: ok }),
        400,
        "network_not_allowed_for_vault",
      ],
      [
        "an unknown vault",
        v26.call<any>("POST", `/vaults/ffffffffffffffffffffffff/transaction-requests/single-transfer`, { item: ok }),
        403,
        "api_key_not_allowed_for_wallet",
      ],
    ]
    for (const [what, answer, status, code] of cases) {
      const r = await answer
      expect([what, r.status, r.body.error?.code]).toEqual([what, status, code])
    }
    expect(h.sim.models.position).toBe(before)
  })

  it("2025-09-23 takes the same body; 2024-05-09 keeps its own (note optional, no maxFee)", async () => {
    const { acct, address } = await funded("ethereum", { ETH: "1" })
    const ok = {
      vaultAccountId: acct,
      assetId: assetId("ethereum", "sepolia", "ETH"),
      fromAddress: address,
      toAddress: ETH_TO,
      amount: "0.1",
      feePriority: "slow",
    }
    const v25 = (item: Record<string, unknown>) =>
      v26.call<any>("POST", `/vaults/${h.testVaultId}/transaction-requests/single-transfer`, {
        item,
        headers: { "x-api-version": "2025-09-23" },
      })
    expect([(await v25(ok)).status, (await v25(ok)).body.error?.code]).toEqual([409, "missing_required_attributes"])
    const r25 = await v25({ ...ok, note: "n", maxFee: "1" })
    expect([r25.status, r25.body.apiVersion, r25.body.data?.item.maxFee]).toEqual([201, "2025-09-23", "1"])
    const r24 = await single(ok, v24)
    expect(Object.keys(r24.body.data.item)).toEqual([
      "transactionRequestId",
      "transactionRequestStatus",
      "vaultAccountId",
      "assetId",
      "fromAddress",
      "toAddress",
      "amount",
      "feePriority",
    ])
    const withCeiling = await single({ ...ok, maxFee: "1" }, v24)
    expect([withCeiling.status, withCeiling.body.error?.code]).toEqual([409, "extra_body_attributes"])
  })
})

describe("GET /transaction-requests/{id} (v-2) beside GET /transactionRequests/{id}", () => {
  it("each path exists in its versions only; the v-2 path answers as of a position and 403 for a vault the key may not see", async () => {
    const { acct, address } = await funded("ethereum", { ETH: "1" })
    await h.admin("PUT", `/_sim/vaults/${h.testVaultId}/approval-policy`, { mode: "manual", levels: 1 })
    const r = await single({
      vaultAccountId: acct,
      assetId: assetId("ethereum", "sepolia", "ETH"),
      fromAddress: address,
      toAddress: ETH_TO,
      amount: "0.1",
      feePriority: "slow",
      note: "n",
    })
    const id = r.body.data.item.transactionRequestId as string
    const created = h.sim.models.position
    await h.admin("POST", `/_sim/transaction-requests/${id}/approve`, {})
    expect((await detail(id)).body.data.item.transactionRequestStatus).toBe("success")
    const then = await v26.call<any>("GET", `/transaction-requests/${id}`, { headers: { "x-sim-as-of": `position:${created}` } })
    expect(then.body.data.item.transactionRequestStatus).toBe("await-approval")
    const before = await v26.call<any>("GET", `/transaction-requests/${id}`, { headers: { "x-sim-as-of": `position:${created - 10n}` } })
    expect([before.status, before.body.error?.code]).toEqual([404, "resource_not_found"])
    const old = await v24.call<any>("GET", `/transactionRequests/${id}`)
    expect(old.body.data.item).toMatchObject({ unit: "ETH", additionalDetails: "n" })
    expect((await v26.call<any>("GET", `/transactionRequests/${id}`)).body.error?.code).toBe("uri_not_found")
    expect((await v24.call<any>("GET", `/transaction-requests/${id}`)).body.error?.code).toBe("uri_not_found")
    const elsewhere = new CustodyClient({
      baseUrl: server.url,
      credentials: await createKey(h, { apiVersion: "2026-03-20", vaultIds: [h.mainVaultId] }),
    })
    const foreign = await elsewhere.call<any>("GET", `/transaction-requests/${id}`)
    expect([foreign.status, foreign.body.error?.code]).toEqual([403, "api_key_not_allowed_for_wallet"])
    expect((await detail("ffffffffffffffffffffffff")).status).toBe(404)
  })
})
