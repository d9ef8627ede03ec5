// POST /vaults/{vaultId}/approximate-fee over a socket: the fee of a single transfer if mined now and the most it
// may cost, per chain family; gas sponsorship, multiple and batch from the same functions their execution uses;
// every refusal; nothing written.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { createApp } from "../../src/api/app.js"
import { CustodyClient } from "../../src/client/index.js"
import { assetId } from "../support/catalogue.js"
import { createKey, startHarness, type Harness } from "../support/harness.js"
import { listen } from "../support/server.js"

let h: Harness
let server: { url: string; close: () => Promise<void> }
let v26: CustodyClient
let v24: CustodyClient
let snapshot: string

beforeAll(async () => {
  h = await startHarness()
  server = await listen(createApp(h.sim, { log: { error: () => {}, info: () => {} } }))
  v26 = new CustodyClient({ baseUrl: server.url, credentials: await createKey(h, { apiVersion: "2026-03-20" }) })
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

const funded = async (blockchain: string, network: string, holdings: Record<string, string>) => {
  const acct = (
    await v24.call<any>("POST", `/vaults/${h.testVaultId}/vault-account`, {
      item: { name: "a", color: "#000000", isHiddenInDashboard: false },
    })
  ).body.data.item.vaultAccountId as string
  await h.admin("PUT", `/_sim/chains/${blockchain}/${network}/mining`, { mode: "auto", confirmations: 1 })
  let address = ""
  for (const [symbol, amount] of Object.entries(holdings)) {
    const item =
      address === ""
        ? { assetId: assetId(blockchain, network, symbol), label: "w" }
        : { assetId: assetId(blockchain, network, symbol), address }
    address = (await v24.call<any>("PUT", `/vaults/${h.testVaultId}/vault-accounts/${acct}/add-asset`, { item })).body.data.item.address
    await h.admin("POST", "/_sim/deposits", { blockchain, network, address, assetId: assetId(blockchain, network, symbol), amount })
  }
  return { acct, address }
}

const estimate = (item: Record<string, unknown>, vaultId = h.testVaultId, client = v26) =>
  client.call<any>("POST", `/vaults/${vaultId}/approximate-fee`, { item })

describe("approximate-fee for single transfers", () => {
  it("EVM: the fee is gas × the priority's price, the same as the most it may cost; 200 and nothing written", async () => {
    const { acct, address } = await funded("ethereum", "sepolia", { ETH: "1", USDC: "10" })
    const before = h.sim.models.position
    const coin = await estimate({
      transactionType: "single",
      vaultAccountId: acct,
      assetId: assetId("ethereum", "sepolia", "ETH"),
      fromAddress: address,
      toAddress: ETH_TO,
      amount: "0.5",
      feePriority: "fast",
    })
    expect(coin.status).toBe(200)
    expect(coin.body.data.item).toEqual({
      transactionType: "single",
      blockchain: "ethereum",
      network: "sepolia",
      assetId: assetId("ethereum", "sepolia", "ETH"),
      vaultAccountId: acct,
      fromAddress: address,
      feePriority: "fast",
      fee: { amount: "0.000105", amountUnit: "ETH", assetId: assetId("ethereum", "sepolia", "ETH") },
      maxFee: { amount: "0.000105", amountUnit: "ETH", assetId: assetId("ethereum", "sepolia", "ETH") },
    })
    const token = await estimate({
      transactionType: "single",
      assetId: assetId("ethereum", "sepolia", "USDC"),
      fromAddress: address,
      toAddress: ETH_TO,
      amount: "1",
      feePriority: "slow",
    })
    expect(token.body.data.item.fee).toEqual({ amount: "0.000065", amountUnit: "ETH", assetId: assetId("ethereum", "sepolia", "ETH") })
    expect(h.sim.models.position).toBe(before)
  })

  it("tron: 0 while the free bandwidth lasts (the maximum is the full burn), the burn once it is used up", async () => {
    const { acct, address } = await funded("tron", "nile", { TRX: "100" })
    const transfer = { assetId: assetId("tron", "nile", "TRX"), fromAddress: address, toAddress: TRON_TO, amount: "1" }
    const item = { transactionType: "single", ...transfer }
    const fresh = await estimate(item)
    expect([fresh.body.data.item.fee.amount, fresh.body.data.item.maxFee.amount, fresh.body.data.item.feePriority]).toEqual([
      "0",
      "0.268",
      "standard",
    ])
    for (let i = 0; i < 5; i++)
      expect(
        (
          await v26.call("POST", `/vaults/${h.testVaultId}/transaction-requests/single-transfer`, {
            item: { ...transfer, vaultAccountId: acct, note: "n" },
          })
        ).status,
      ).toBe(201)
    expect((await estimate(item)).body.data.item.fee.amount).toBe("0.268")
  })

  it("gas sponsorship (single with feePayer): a one-call EIP-7702 batch, 55,000 gas for ETH, 90,000 for a token, paid by the fee payer", async () => {
    const { acct, address } = await funded("ethereum", "sepolia", { ETH: "1", USDC: "10" })
    const payer = await funded("ethereum", "sepolia", { ETH: "1" })
    const item = {
      transactionType: "single",
      vaultAccountId: acct,
      assetId: assetId("ethereum", "sepolia", "USDC"),
      fromAddress: address,
      feePayer: payer.address,
      toAddress: ETH_TO,
      amount: "1",
      feePriority: "standard",
    }
    const r = await estimate(item)
    expect(r.status).toBe(200)
    expect(r.body.data.item).toMatchObject({
      transactionType: "single",
      fromAddress: address,
      feePayer: payer.address,
      fee: { amount: "0.00018", amountUnit: "ETH" },
      maxFee: { amount: "0.00018" },
    })
    const created = await v26.call<any>("POST", `/vaults/${h.testVaultId}/transaction-requests/gas-sponsorship-transfer`, {
      item: { ...item, transactionType: undefined, note: "g" },
    })
    expect(created.status).toBe(201)
    const draft = h.sim.models.txRequests.byId.get(created.body.data.item.transactionRequestId)!
    expect(draft.mined?.fee).toBe((90_000n * 2n * 10n ** 9n).toString())
    const self = await estimate({ ...item, feePayer: address })
    expect([self.status, self.body.error?.code]).toEqual([400, "invalid_data"])
    const tron = await funded("tron", "nile", { TRX: "10" })
    const offChain = await estimate({
      transactionType: "single",
      assetId: assetId("tron", "nile", "TRX"),
      fromAddress: tron.address,
      feePayer: tron.address,
      amount: "1",
    })
    expect([offChain.status, offChain.body.error?.code]).toEqual([400, "invalid_data"])
  })

  it("multiple: the coin selection and fee a multiple-transfer of the account would get now", async () => {
    const { acct, address } = await funded("bitcoin", "testnet", { BTC: "0.01" })
    await h.admin("POST", "/_sim/deposits", {
      blockchain: "bitcoin",
      network: "testnet",
      address,
      assetId: assetId("bitcoin", "testnet", "BTC"),
      amount: "0.02",
    })
    const item = {
      transactionType: "multiple",
      vaultAccountId: acct,
      assetId: assetId("bitcoin", "testnet", "BTC"),
      recipients: [{ address: "tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx", amount: "0.015" }],
      feePriority: "standard",
      prepareStrategy: "minimize_dust",
    }
    const r = await estimate(item)
    expect(r.status).toBe(200)
    // minimize-dust takes the 0.01 output, then the 0.02 one: (11 + 2 × 68 + 2 × 31) vbytes × 2 sat/vB.
    expect(r.body.data.item).toMatchObject({
      transactionType: "multiple",
      blockchain: "bitcoin",
      network: "testnet",
      vaultAccountId: acct,
      prepareStrategy: "minimize-dust",
      fee: { amount: "0.00000418", amountUnit: "BTC" },
    })
    const largest = await estimate({ ...item, prepareStrategy: "optimize_size" })
    expect(largest.body.data.item.fee.amount).toBe("0.00000282")
    const created = await v26.call<any>("POST", `/vaults/${h.testVaultId}/transaction-requests/multiple-transfer`, {
      item: { ...item, transactionType: undefined, note: "m" },
    })
    expect(created.status).toBe(201)
    expect(created.body.data.item.fee.amount).toBe("0.00000418")
    const short = await estimate({ ...item, recipients: [{ address: "tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx", amount: "1" }] })
    expect([short.status, short.body.error?.code]).toEqual([400, "insufficient_balance"])
  })

  it("batch: one EIP-7702 fee for every call at the fee payer (21,000 + 25,000 + 9,000 per coin call + 44,000 per token call gas), the fee the batch then pays", async () => {
    const { acct, address } = await funded("ethereum", "sepolia", { ETH: "1", USDC: "10" })
    const payer = await funded("ethereum", "sepolia", { ETH: "1" })
    const ETH = assetId("ethereum", "sepolia", "ETH")
    const USDC = assetId("ethereum", "sepolia", "USDC")
    const recipients = [
      { address: ETH_TO, amount: "0.1", assetId: ETH },
      { address: ETH_TO, amount: "2", assetId: USDC },
    ]
    const r = await estimate({
      transactionType: "batch",
      vaultAccountId: acct,
      fromAddress: address,
      feePayer: payer.address,
      feePayerAssetId: ETH,
      recipients,
      feePriority: "slow",
    })
    expect(r.status).toBe(200)
    const gas = 21_000n + 25_000n + 9_000n + 44_000n
    const fee = "0.000099" // 99,000 gas × 1 gwei
    expect(r.body.data.item).toMatchObject({
      transactionType: "batch",
      fromAddress: address,
      feePayer: payer.address,
      feePriority: "slow",
      fee: { amount: fee, amountUnit: "ETH", assetId: ETH },
      maxFee: { amount: fee },
    })
    const created = await v26.call<any>("POST", `/vaults/${h.testVaultId}/transaction-requests/batch`, {
      item: {
        vaultAccountId: acct,
        senderAddress: address,
        feePayer: { address: payer.address, assetId: ETH },
        recipients,
        feePriority: "slow",
        note: "b",
      },
    })
    expect(created.status).toBe(201)
    expect(h.sim.models.txRequests.byId.get(created.body.data.item.transactionRequestId)?.mined?.fee).toBe((gas * 10n ** 9n).toString())
    const tron = await estimate({
      transactionType: "batch",
      fromAddress: address,
      feePayer: payer.address,
      feePayerAssetId: assetId("tron", "nile", "TRX"),
      recipients,
      feePriority: "slow",
    })
    expect([tron.status, tron.body.error?.code]).toEqual([400, "invalid_data"])
    const missing = await estimate({ transactionType: "batch", fromAddress: address, recipients, feePriority: "slow" })
    expect([missing.status, missing.body.error?.code, missing.body.error?.details.map((d: any) => d.attribute)]).toEqual([
      409,
      "missing_required_attributes",
      ["feePayer", "feePayerAssetId"],
    ])
  })

  it("refuses what a single transfer would refuse, in the check order", async () => {
    const { acct, address } = await funded("ethereum", "sepolia", { ETH: "1" })
    const other = await funded("ethereum", "sepolia", { ETH: "1" })
    const ok = {
      transactionType: "single",
      vaultAccountId: acct,
      assetId: assetId("ethereum", "sepolia", "ETH"),
      fromAddress: address,
      toAddress: ETH_TO,
      amount: "0.1",
      feePriority: "slow",
    }
    const without = (k: string) => Object.fromEntries(Object.entries(ok).filter(([key]) => key !== k))
    const cases: Array<[string, Promise<any>, number, string]> = [
      ["no transactionType", estimate(without("transactionType")), 409, "missing_required_attributes"],
      ["an unknown transactionType", estimate({ ...ok, transactionType: "double" }), 400, "invalid_data"],
      ["an unknown attribute", estimate({ ...ok, speed: "fast" }), 409, "extra_body_attributes"],
      ["no amount", estimate(without("amount")), 409, "missing_required_attributes"],
      ["no feePriority on EVM", estimate(without("feePriority")), 409, "missing_required_attributes"],
      ["no toAddress on EVM", estimate(without("toAddress")), 409, "missing_required_attributes"],
      ["a bad amount", estimate({ ...ok, amount: "0" }), 400, "invalid_data"],
      ["a bad recipient", estimate({ ...ok, toAddress: "nope" }), 400, "invalid_data"],
      ["a UTXO asset", estimate({ ...ok, assetId: assetId("bitcoin", "testnet", "BTC") }), 400, "invalid_data"],
      ["a mainnet asset", estimate({ ...ok, assetId: assetId("ethereum", "mainnet", "ETH") }), 400, "network_not_allowed_for_vault"],
      ["an unknown asset", estimate({ ...ok, assetId: "ffffffffffffffffffffffff" }), 404, "resource_not_found"],
      ["a sender outside the vault", estimate({ ...ok, fromAddress: ETH_TO }), 404, "resource_not_found"],
      ["a sender of another account", estimate({ ...ok, fromAddress: other.address }), 404, "resource_not_found"],
      ["an unknown account", estimate({ ...ok, vaultAccountId: "ffffffffffffffffffffffff" }), 404, "resource_not_found"],
      ["an unknown vault", estimate(ok, "ffffffffffffffffffffffff"), 403, "api_key_not_allowed_for_wallet"],
      ["an older version", estimate(ok, h.testVaultId, v24), 400, "uri_not_found"],
    ]
    for (const [what, answer, status, code] of cases) {
      const r = await answer
      expect([what, r.status, r.body.error?.code]).toEqual([what, status, code])
    }
  })
})
