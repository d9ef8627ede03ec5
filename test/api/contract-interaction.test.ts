// TRC-20 contract interaction over a real socket (undici): approve gives the fee payer an unlimited allowance on the
// simulated chain, transfer-from moves the holder's tokens within it and fails on chain beyond it (the fee spent,
// nothing moved); the fee payer pays, less when it staked; balances after mining in base units; every error code.
import { fetch as undiciFetch } from "undici"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { createApp } from "../../src/api/app.js"
import { runAudit } from "../support/audit.js"
import { CustodyClient, type Credentials } from "../../src/client/index.js"
import { parseAmount } from "../../src/domain/shared/money.js"
import { assetId } from "../support/catalogue.js"
import { createKey, startHarness, type Harness } from "../support/harness.js"
import { listen } from "../support/server.js"

let h: Harness
let server: { url: string; close: () => Promise<void> }
let snapshot: string
let v24: CustodyClient
let v26: CustodyClient
const clientOf = (credentials: Credentials) =>
  new CustodyClient({
    baseUrl: server.url,
    credentials,
    fetch: async (r) => {
      const res = await undiciFetch(r.url, {
        method: r.method,
        headers: Object.fromEntries(r.headers),
        ...(r.method === "GET" ? {} : { body: await r.text() }),
      })
      return new Response(await res.text(), { status: res.status, headers: Object.fromEntries(res.headers) })
    },
  })

const TRX = assetId("tron", "nile", "TRX")
const USDT = assetId("tron", "nile", "USDT")
const EXTERNAL = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"
const APPROVE_FEE = 22_000n * 280n
const TRANSFER_FROM_FEE = 65_000n * 280n
const sun = (s: string): bigint => {
  const r = parseAmount(s, 6)
  if (!r.ok) throw new Error(`not an amount: ${s}`)
  return r.value
}

beforeAll(async () => {
  h = await startHarness()
  server = await listen(createApp(h.sim, { log: { error: () => {}, info: () => {} } }))
  v24 = clientOf(h.creds)
  v26 = clientOf(await createKey(h, { apiVersion: "2026-03-20" }))
  await h.admin("PUT", "/_sim/chains/tron/nile/mining", { mode: "auto", confirmations: 1 })
  snapshot = (await h.admin("POST", "/_sim/snapshots")).body.id
})
beforeEach(async () => {
  await h.admin("POST", `/_sim/snapshots/${snapshot}/revert`)
})
afterAll(async () => {
  await server.close()
  await h.close()
})

/** A new account's tron address holding the given assets, each funded by a confirmed deposit. */
const funded = async (amounts: { TRX?: string; USDT?: string }) => {
  const acct = (
    await v24.call<any>("POST", `/vaults/${h.testVaultId}/vault-account`, {
      item: { name: "c", color: "#000000", isHiddenInDashboard: false },
    })
  ).body.data.item.vaultAccountId as string
  let address: string | undefined
  for (const [symbol, id] of [
    ["TRX", TRX],
    ["USDT", USDT],
  ] as const) {
    if (amounts[symbol] === undefined) continue
    const item = address === undefined ? { assetId: id, label: "c" } : { assetId: id, address }
    address = (await v24.call<any>("PUT", `/vaults/${h.testVaultId}/vault-accounts/${acct}/add-asset`, { item })).body.data.item
      .address as string
    if (amounts[symbol] !== "0")
      expect(
        (await h.admin("POST", "/_sim/deposits", { blockchain: "tron", network: "nile", address, assetId: id, amount: amounts[symbol] }))
          .status,
      ).toBe(201)
  }
  return { acct, address: address! }
}
const interact = (item: Record<string, unknown>, client = v26, vaultId = h.testVaultId) =>
  client.call<any>("POST", `/vaults/${vaultId}/transaction-requests/contract-interaction`, { item })
const status = async (id: string) =>
  (await v24.call<any>("GET", `/transactionRequests/${id}`)).body.data.item.transactionRequestStatus as string
/** An asset's total at an address, base units. */
const total = async (address: string, symbol: "TRX" | "USDT") => {
  const assets = (await v24.call<any>("GET", `/vaults/${h.testVaultId}/tron/addresses/${address}/assets`)).body.data.item
    .assets as Array<any>
  const a = assets.find((x) => x.symbol === symbol)?.assetData
  return a === undefined ? 0n : sun(a.totalAmount)
}

describe("approve, then transfer-from", () => {
  it("approve grants the fee payer uint256 max; transfer-from moves the holder's tokens to the recipient; the fee payer pays both fees", async () => {
    const holder = await funded({ USDT: "50" })
    const payer = await funded({ TRX: "100" })
    const recipient = await funded({ USDT: "0" })
    const a = await interact({ method: "approve", assetId: USDT, fromAddress: holder.address, feePayer: payer.address, note: "allow" })
    expect(a.status).toBe(201)
    expect(a.body.data.item).toEqual({
      assetUnit: "USDT",
      assetId: USDT,
      contractInteractionDetails: {
        contractAddress: "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf",
        method: "approve",
        functionSignature: "approve(address,uint256)",
        owner: holder.address,
        spender: payer.address,
        allowance: ((1n << 256n) - 1n).toString(),
      },
      transactionRequestId: expect.stringMatching(/^[0-9a-f]{24}$/),
      transactionRequestStatus: "created",
      blockchain: "tron",
      network: "nile",
      vaultAccountId: holder.acct,
      fromAddress: holder.address,
      feePayer: payer.address,
      note: "allow",
    })
    expect(await status(a.body.data.item.transactionRequestId)).toBe("success")
    expect(await total(payer.address, "TRX")).toBe(sun("100") - APPROVE_FEE)
    const t = await interact({
      method: "transfer-from",
      assetId: USDT,
      fromAddress: holder.address,
      feePayer: payer.address,
      toAddress: recipient.address,
      amount: "5",
      note: "pull",
    })
    expect(t.status).toBe(201)
    expect(t.body.data.item.contractInteractionDetails).toMatchObject({
      method: "transfer-from",
      functionSignature: "transferFrom(address,address,uint256)",
      recipient: recipient.address,
      amount: "5",
    })
    expect(await status(t.body.data.item.transactionRequestId)).toBe("success")
    expect([await total(holder.address, "USDT"), await total(recipient.address, "USDT"), await total(payer.address, "TRX")]).toEqual([
      45_000_000n,
      5_000_000n,
      sun("100") - APPROVE_FEE - TRANSFER_FROM_FEE,
    ])
    expect(await total(holder.address, "TRX")).toBe(0n)
    expect((await runAudit(h.sim, undefined)).discrepancies).toEqual([])
  })
  it("transfer-from without an allowance is mined with errors: the fee payer's fee is spent, no token moves", async () => {
    const holder = await funded({ USDT: "50" })
    const payer = await funded({ TRX: "100" })
    const t = await interact({
      method: "transfer-from",
      assetId: USDT,
      fromAddress: holder.address,
      feePayer: payer.address,
      toAddress: EXTERNAL,
      amount: "5",
      note: "pull",
    })
    expect(await status(t.body.data.item.transactionRequestId)).toBe("mined-with-errors")
    expect([await total(holder.address, "USDT"), await total(payer.address, "TRX")]).toEqual([50_000_000n, sun("100") - TRANSFER_FROM_FEE])
    const listed = (await v24.call<any>("GET", `/vaults/${h.testVaultId}/transactions`)).body.data.items[0]
    expect(listed).toMatchObject({ direction: "outgoing", status: "failed" })
    expect((await runAudit(h.sim, undefined)).discrepancies).toEqual([])
  })
  it("a fee payer with TRX frozen for energy pays no TRX for the same transfer-from", async () => {
    const holder = await funded({ USDT: "50" })
    const payer = await funded({ TRX: "20000" })
    await v24.call("POST", `/vaults/${h.testVaultId}/tron/nile/addresses/${payer.address}/manage-resource`, {
      item: { type: "freeze", resource: "energy", amount: "10000" },
    })
    await interact({ method: "approve", assetId: USDT, fromAddress: holder.address, feePayer: payer.address, note: "" })
    const t = await interact({
      method: "transferFrom",
      assetId: USDT,
      fromAddress: holder.address,
      feePayer: payer.address,
      toAddress: EXTERNAL,
      amount: "5",
      note: "",
    })
    expect(await status(t.body.data.item.transactionRequestId)).toBe("success")
    // 22,000 + 65,000 energy from a 100,000 a day stake; bandwidth from the free allowance.
    expect(await total(payer.address, "TRX")).toBe(sun("20000"))
  })
  it("a maxFee below the energy burn runs the call out of energy: the limit is burned", async () => {
    const holder = await funded({ USDT: "50" })
    const payer = await funded({ TRX: "100" })
    const a = await interact({
      method: "approve",
      assetId: USDT,
      fromAddress: holder.address,
      feePayer: payer.address,
      maxFee: "1",
      note: "",
    })
    expect(a.body.data.item.maxFee).toBe("1")
    expect(await status(a.body.data.item.transactionRequestId)).toBe("mined-with-errors")
    expect(await total(payer.address, "TRX")).toBe(sun("99"))
  })
})

describe("approve with the optional toAddress and amount", () => {
  it("accepts them: checked as for transfer-from, without effect (the allowance is still unlimited) and not echoed", async () => {
    const holder = await funded({ USDT: "50" })
    const payer = await funded({ TRX: "100" })
    const item = { method: "approve", assetId: USDT, fromAddress: holder.address, feePayer: payer.address, note: "allow" }
    const r = await interact({ ...item, toAddress: EXTERNAL, amount: "5" })
    expect(r.status).toBe(201)
    expect(r.body.data.item.contractInteractionDetails).toEqual({
      contractAddress: "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf",
      method: "approve",
      functionSignature: "approve(address,uint256)",
      owner: holder.address,
      spender: payer.address,
      allowance: ((1n << 256n) - 1n).toString(),
    })
    expect(Object.keys(r.body.data.item)).not.toContain("toAddress")
    expect(Object.keys(r.body.data.item)).not.toContain("amount")
    expect(await status(r.body.data.item.transactionRequestId)).toBe("success")
    // Nothing moved to toAddress; the fee payer may now pull more than `amount`.
    expect(await total(holder.address, "USDT")).toBe(50_000_000n)
    const pull = await interact({
      method: "transfer-from",
      assetId: USDT,
      fromAddress: holder.address,
      feePayer: payer.address,
      toAddress: EXTERNAL,
      amount: "20",
      note: "pull",
    })
    expect(pull.status).toBe(201)
    expect(await status(pull.body.data.item.transactionRequestId)).toBe("success")
    expect(await total(holder.address, "USDT")).toBe(30_000_000n)
  })
})

describe("contract-interaction errors, each writing nothing", () => {
  it("answers each bad request with its code", async () => {
    const holder = await funded({ USDT: "50" })
    const payer = await funded({ TRX: "100" })
    const poor = await funded({ TRX: "1" })
    const base = {
      method: "transfer-from",
      assetId: USDT,
      fromAddress: holder.address,
      feePayer: payer.address,
      toAddress: EXTERNAL,
      amount: "5",
      note: "n",
    }
    const before = h.sim.models.position
    const cases: Array<[Record<string, unknown>, number, string, string?]> = [
      [{ ...base, method: "mint" }, 400, "invalid_data", "method"],
      [{ ...base, assetId: TRX }, 400, "invalid_data", "assetId"],
      [{ ...base, assetId: assetId("ethereum", "sepolia", "USDC") }, 400, "invalid_data", "assetId"],
      [{ ...base, assetId: "ffffffffffffffffffffffff" }, 404, "resource_not_found"],
      [{ ...base, toAddress: undefined }, 409, "missing_required_attributes", "toAddress"],
      [{ ...base, amount: undefined }, 409, "missing_required_attributes", "amount"],
      [{ ...base, note: undefined }, 409, "missing_required_attributes", "note"],
      [{ ...base, note: "x".repeat(251) }, 400, "invalid_data", "note"],
      [{ ...base, amount: "0" }, 400, "invalid_data", "amount"],
      [{ ...base, amount: "1.0000001" }, 400, "invalid_data", "amount"],
      [{ ...base, toAddress: "0x742d35Cc6634C0532925a3b844Bc454e4438f44e" }, 400, "invalid_data", "toAddress"],
      [{ ...base, maxFee: "-1" }, 400, "invalid_data", "maxFee"],
      [{ ...base, method: "approve", amount: "0" }, 400, "invalid_data", "amount"],
      [{ ...base, method: "approve", toAddress: "0x742d35Cc6634C0532925a3b844Bc454e4438f44e" }, 400, "invalid_data", "toAddress"],
      [{ ...base, feePayer: holder.address }, 400, "invalid_data", "feePayer"],
      [{ ...base, feePayer: EXTERNAL }, 404, "resource_not_found"],
      [{ ...base, fromAddress: EXTERNAL }, 404, "resource_not_found"],
      [{ ...base, vaultAccountId: payer.acct }, 404, "resource_not_found"],
      [{ ...base, amount: "51" }, 400, "insufficient_balance", "amount"],
      [{ ...base, feePayer: poor.address }, 400, "insufficient_balance", "feePayer"],
      [{ ...base, colour: "red" }, 409, "extra_body_attributes", "colour"],
    ]
    for (const [item, code, error, attribute] of cases) {
      const r = await interact(Object.fromEntries(Object.entries(item).filter(([, v]) => v !== undefined)))
      expect([JSON.stringify(item).slice(0, 80), r.status, r.body.error?.code, r.body.error?.details?.[0]?.attribute]).toEqual([
        JSON.stringify(item).slice(0, 80),
        code,
        error,
        attribute,
      ])
    }
    expect(h.sim.models.position).toBe(before)
  })
  it("exists from 2026-03-20; a vault the key may not see is 403", async () => {
    const holder = await funded({ USDT: "50" })
    const payer = await funded({ TRX: "100" })
    const item = { method: "approve", assetId: USDT, fromAddress: holder.address, feePayer: payer.address, note: "" }
    const old = await interact(item, v24)
    expect([old.status, old.body.error.code]).toEqual([400, "uri_not_found"])
    const scoped = clientOf(await createKey(h, { apiVersion: "2026-03-20", vaultIds: [h.mainVaultId] }))
    const foreign = await interact(item, scoped)
    expect([foreign.status, foreign.body.error.code]).toEqual([403, "api_key_not_allowed_for_wallet"])
    const unknown = await interact(item, v26, "ffffffffffffffffffffffff")
    expect([unknown.status, unknown.body.error.code]).toEqual([403, "api_key_not_allowed_for_wallet"])
  })
})
