// Tron resources over a real socket (undici): manage-resource as a transaction request (freeze, unfreeze, withdraw,
// delegate, undelegate, with locks in blocks), the overview of an address, what a staked sender pays against an
// unstaked one, balances after mining in base units, the audit and every error code.
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
/** The typed client over undici's own fetch on a kept-alive socket. */
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
const sun = (trx: string): bigint => {
  const r = parseAmount(trx, 6)
  if (!r.ok) throw new Error(`not an amount: ${trx}`)
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

const account = async () =>
  (
    await v24.call<any>("POST", `/vaults/${h.testVaultId}/vault-account`, {
      item: { name: "t", color: "#000000", isHiddenInDashboard: false },
    })
  ).body.data.item.vaultAccountId as string
const funded = async (trx: string, usdt?: string) => {
  const acct = await account()
  const address = (
    await v24.call<any>("PUT", `/vaults/${h.testVaultId}/vault-accounts/${acct}/add-asset`, { item: { assetId: TRX, label: "t" } })
  ).body.data.item.address as string
  expect(
    (await h.admin("POST", "/_sim/deposits", { blockchain: "tron", network: "nile", address, assetId: TRX, amount: trx })).status,
  ).toBe(201)
  if (usdt !== undefined) {
    await v24.call("PUT", `/vaults/${h.testVaultId}/vault-accounts/${acct}/add-asset`, { item: { assetId: USDT, address } })
    expect(
      (await h.admin("POST", "/_sim/deposits", { blockchain: "tron", network: "nile", address, assetId: USDT, amount: usdt })).status,
    ).toBe(201)
  }
  return address
}
const manage = (from: string, item: Record<string, unknown>, client = v24, vaultId = h.testVaultId) =>
  client.call<any>("POST", `/vaults/${vaultId}/tron/nile/addresses/${from}/manage-resource`, { item })
const request = async (id: string) => (await v24.call<any>("GET", `/transactionRequests/${id}`)).body.data.item
/** TRX and USDT of an address in base units (SUN), from #8. */
const balances = async (address: string) => {
  const assets = (await v24.call<any>("GET", `/vaults/${h.testVaultId}/tron/addresses/${address}/assets`)).body.data.item
    .assets as Array<any>
  const of = (symbol: string) => {
    const a = assets.find((x) => x.symbol === symbol)?.assetData
    return a === undefined
      ? undefined
      : { total: sun(a.totalAmount), available: sun(a.availableAmount), blocked: sun(a.blockedAmount), allocated: sun(a.allocatedAmount) }
  }
  return { TRX: of("TRX")!, USDT: of("USDT") }
}
const overview = async (address: string, headers?: Record<string, string>) =>
  (await v26.call<any>("GET", `/vaults/${h.testVaultId}/tron/nile/${address}/overview`, headers !== undefined ? { headers } : {})).body.data
    .item
const sendUsdt = async (from: string) => {
  const contract = "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf"
  const r = await v24.call<any>("POST", `/vaults/${h.testVaultId}/tron/nile/addresses/${from}/feeless-token-transaction-requests`, {
    item: { amount: "5", recipientAddress: EXTERNAL, tokenIdentifier: contract },
  })
  expect(r.status).toBe(201)
  return request(r.body.data.item.transactionRequestId)
}

describe("manage-resource's unit across versions", () => {
  it("answers unit at 2024-05-09 and amountUnit at 2026-03-20 (the 2026 rename of a request's unit)", async () => {
    const a = await funded("20000")
    const old = await manage(
      a,
      { type: "freeze", resource: "energy", amount: "100" },
      clientOf(await createKey(h, { apiVersion: "2024-05-09" })),
    )
    expect([old.status, old.body.apiVersion, old.body.data.item.unit, "amountUnit" in old.body.data.item]).toEqual([
      201,
      "2024-05-09",
      "TRX",
      false,
    ])
    const r = await manage(a, { type: "freeze", resource: "energy", amount: "100" }, v26)
    expect([r.status, r.body.apiVersion, r.body.data.item.amountUnit, "unit" in r.body.data.item]).toEqual([
      201,
      "2026-03-20",
      "TRX",
      false,
    ])
    expect(Object.keys(r.body.data.item)).toEqual([
      "id",
      "transactionRequestId",
      "transactionRequestStatus",
      "blockchain",
      "network",
      "fromAddress",
      "type",
      "resource",
      "amount",
      "amountUnit",
    ])
  })
})

describe("freeze: a request like a withdrawal, the TRX staked stays the address's but is not spendable", () => {
  it("answers 201 with data.item.id, goes to success, and moves the frozen TRX to allocatedAmount", async () => {
    const a = await funded("20000")
    const r = await manage(a, { type: "freeze", resource: "ENERGY", amount: "10000", note: "stake" })
    expect(r.status).toBe(201)
    expect(r.body.data.item).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      transactionRequestId: r.body.data.item.id,
      transactionRequestStatus: "created",
      blockchain: "tron",
      network: "nile",
      fromAddress: a,
      type: "freeze",
      resource: "energy",
      amount: "10000",
      unit: "TRX",
      note: "stake",
    })
    expect((await request(r.body.data.item.id)).transactionRequestStatus).toBe("success")
    // 282 bandwidth from the free allowance: no TRX burned.
    expect(await balances(a)).toMatchObject({ TRX: { total: sun("20000"), available: sun("10000"), blocked: 0n, allocated: sun("10000") } })
    const o = await overview(a)
    expect(o).toMatchObject({ address: a, network: "nile", balance: { total: "20000", available: "10000", staked: "10000", unit: "TRX" } })
    expect(o.resources.energy).toEqual({
      limit: 100_000,
      used: 0,
      available: 100_000,
      stakedLimit: 100_000,
      stakedUsed: 0,
      staked: "10000",
      delegatedToOthers: "0",
      delegatedFromOthers: "0",
    })
    expect(o.resources.bandwidth).toMatchObject({ limit: 1500, freeLimit: 1500, freeUsed: 282, used: 282, available: 1218, stakedLimit: 0 })
    const audit = await runAudit(h.sim, undefined)
    expect(audit.discrepancies).toEqual([])
  })
  it("a staked sender pays no TRX for a TRC-20 transfer; an unstaked one burns the energy (18.2 TRX)", async () => {
    const staked = await funded("20000", "100")
    const plain = await funded("20000", "100")
    await manage(staked, { type: "freeze", resource: "energy", amount: "10000" })
    const s = await sendUsdt(staked)
    const p = await sendUsdt(plain)
    expect([s.transactionRequestStatus, p.transactionRequestStatus]).toEqual(["success", "success"])
    const [bs, bp] = [await balances(staked), await balances(plain)]
    expect(bs.USDT!.total).toBe(95_000_000n)
    expect(bp.USDT!.total).toBe(95_000_000n)
    const paidStaked = sun("20000") - bs.TRX.total
    const paidPlain = sun("20000") - bp.TRX.total
    expect([paidStaked, paidPlain]).toEqual([0n, 65_000n * 280n])
    const o = await overview(staked)
    expect(o.resources.energy).toMatchObject({ stakedUsed: 65_000, available: 35_000 })
    // A day later the energy has regenerated.
    await h.admin("POST", "/_sim/clock/advance", { seconds: 86_400 })
    expect((await overview(staked)).resources.energy).toMatchObject({ stakedUsed: 0, available: 100_000 })
  })
  it("staked bandwidth pays a transfer before the free allowance does", async () => {
    const a = await funded("5000")
    await manage(a, { type: "freeze", resource: "bandwidth", amount: "1000" })
    const r = await v24.call<any>("POST", `/vaults/${h.testVaultId}/tron/nile/addresses/${a}/feeless-transaction-requests`, {
      item: { amount: "10", recipientAddress: EXTERNAL },
    })
    expect((await request(r.body.data.item.transactionRequestId)).transactionRequestStatus).toBe("success")
    const o = await overview(a)
    expect(o.resources.bandwidth).toMatchObject({ stakedLimit: 1000, stakedUsed: 268, freeUsed: 282 })
    expect((await balances(a)).TRX).toMatchObject({ total: sun("4990"), allocated: sun("1000"), available: sun("3990") })
  })
  it("refuses a freeze beyond the available TRX with insufficient_balance, writing nothing", async () => {
    const a = await funded("100")
    const before = h.sim.models.position
    const r = await manage(a, { type: "freeze", resource: "energy", amount: "100" })
    expect([r.status, r.body.error.code]).toEqual([400, "insufficient_balance"])
    expect(h.sim.models.position).toBe(before)
  })
})

describe("unfreeze and withdraw", () => {
  it("unfrozen TRX waits 14 days of simulated time, then a withdraw returns it to the available balance", async () => {
    const a = await funded("3000")
    await manage(a, { type: "freeze", resource: "bandwidth", amount: "2000" })
    const u = await manage(a, { type: "unfreeze", resource: "bandwidth", amount: "500" })
    expect(u.status).toBe(201)
    expect((await request(u.body.data.item.id)).transactionRequestStatus).toBe("success")
    expect((await balances(a)).TRX).toMatchObject({ total: sun("3000"), allocated: sun("2000") })
    const o = await overview(a)
    expect(o.unfreezing).toEqual([{ amount: "500", withdrawableFrom: expect.any(Number) }])
    expect(o.withdrawable).toBe("0")
    const early = await manage(a, { type: "withdraw_resource", resource: "bandwidth" }, v26)
    expect([early.status, early.body.error.code, early.body.error.details]).toEqual([
      400,
      "invalid_data",
      [{ attribute: "type", message: "no unfrozen TRX has passed its waiting period" }],
    ])
    await h.admin("POST", "/_sim/clock/advance", { seconds: 14 * 86_400 })
    expect((await overview(a)).withdrawable).toBe("500")
    const w = await manage(a, { type: "Withdraw-Resource", resource: "bandwidth" }, v26)
    expect([w.status, w.body.data.item.type]).toEqual([201, "withdraw_resource"])
    expect((await request(w.body.data.item.id)).transactionRequestStatus).toBe("success")
    expect((await balances(a)).TRX).toMatchObject({ total: sun("3000"), allocated: sun("1500"), available: sun("1500") })
    expect((await overview(a)).unfreezing).toEqual([])
    expect((await runAudit(h.sim, undefined)).discrepancies).toEqual([])
  })
  it("a request valid when created but not when approved fails at broadcast and releases its fee", async () => {
    const a = await funded("3000")
    await manage(a, { type: "freeze", resource: "energy", amount: "1000" })
    await h.admin("PUT", `/_sim/vaults/${h.testVaultId}/approval-policy`, { mode: "manual" })
    const first = await manage(a, { type: "unfreeze", resource: "energy", amount: "800" })
    const second = await manage(a, { type: "unfreeze", resource: "energy", amount: "800" })
    expect((await request(second.body.data.item.id)).transactionRequestStatus).toBe("await-approval")
    expect((await balances(a)).TRX.blocked).toBe(2n * 282_000n)
    await h.admin("POST", `/_sim/transaction-requests/${first.body.data.item.id}/approve`, {})
    await h.admin("POST", `/_sim/transaction-requests/${second.body.data.item.id}/approve`, {})
    expect((await request(first.body.data.item.id)).transactionRequestStatus).toBe("success")
    expect((await request(second.body.data.item.id)).transactionRequestStatus).toBe("failed")
    expect((await balances(a)).TRX).toMatchObject({ total: sun("3000"), blocked: 0n, allocated: sun("1000") })
  })
})

describe("delegate and undelegate", () => {
  it("delegated energy pays the receiver's TRC-20 transfer; a locked delegation comes back only after its blocks", async () => {
    const a = await funded("20000")
    const b = await funded("100", "50")
    await manage(a, { type: "freeze", resource: "energy", amount: "10000" })
    const d = await manage(a, { type: "delegate", resource: "energy", amount: "7000", toAddress: b, lock: "true", lockPeriod: "28800" })
    expect(d.body.data.item).toMatchObject({
      type: "delegate",
      resource: "energy",
      amount: "7000",
      toAddress: b,
      lock: true,
      lockPeriod: "28800",
    })
    expect((await request(d.body.data.item.id)).transactionRequestStatus).toBe("success")
    const t = await sendUsdt(b)
    expect(t.transactionRequestStatus).toBe("success")
    expect((await balances(b)).TRX.total).toBe(sun("100"))
    expect((await overview(b)).resources.energy).toMatchObject({
      stakedLimit: 70_000,
      stakedUsed: 65_000,
      delegatedFromOthers: "7000",
      staked: "0",
    })
    expect((await overview(a)).delegations).toEqual([
      { fromAddress: a, toAddress: b, resource: "energy", amount: "7000", lockedAmount: "7000", lockedUntilBlock: expect.any(Number) },
    ])
    const early = await manage(a, { type: "undelegate", resource: "energy", amount: "7000", toAddress: b })
    expect([early.status, early.body.error.code]).toEqual([400, "invalid_data"])
    const shorter = await manage(a, { type: "delegate", resource: "energy", amount: "1000", toAddress: b, lock: true, lockPeriod: 100 })
    expect(shorter.body.error.details[0]).toEqual({ attribute: "lockPeriod", message: expect.stringContaining("at least the") })
    await h.admin("POST", "/_sim/chains/tron/nile/mine", { blocks: 28_800 })
    const back = await manage(a, { type: "undelegate", resource: "energy", amount: "7000", toAddress: b })
    expect((await request(back.body.data.item.id)).transactionRequestStatus).toBe("success")
    expect((await overview(a)).delegations).toEqual([])
    expect((await overview(b)).resources.energy).toMatchObject({ stakedLimit: 0, delegatedFromOthers: "0" })
  })
  it("lock without lockPeriod locks 86400 blocks", async () => {
    const a = await funded("3000")
    const b = await funded("1")
    await manage(a, { type: "freeze", resource: "bandwidth", amount: "2000" })
    const d = await manage(a, { type: "delegate", resource: "bandwidth", amount: "10", toAddress: b, lock: true })
    expect(d.body.data.item).toMatchObject({ lock: true, lockPeriod: "86400" })
  })
})

describe("the overview", () => {
  it("answers as of an earlier position, and only at 2026-03-20", async () => {
    const a = await funded("2000")
    const before = String(h.sim.models.position)
    await manage(a, { type: "freeze", resource: "energy", amount: "1000" })
    expect((await overview(a, { "x-sim-as-of": `position:${before}` })).balance.staked).toBe("0")
    expect((await overview(a)).balance.staked).toBe("1000")
    const old = await v24.call<any>("GET", `/vaults/${h.testVaultId}/tron/nile/${a}/overview`)
    expect([old.status, old.body.error.code]).toEqual([400, "uri_not_found"])
  })
  it("refuses another chain, an unknown address, a vault the key may not see", async () => {
    const a = await funded("1")
    const eth = await v26.call<any>("GET", `/vaults/${h.testVaultId}/ethereum/sepolia/${a}/overview`)
    expect([eth.status, eth.body.error.code]).toEqual([400, "invalid_data"])
    const unknown = await v26.call<any>("GET", `/vaults/${h.testVaultId}/tron/nile/${EXTERNAL}/overview`)
    expect([unknown.status, unknown.body.error.code]).toEqual([404, "resource_not_found"])
    const scoped = clientOf(await createKey(h, { apiVersion: "2026-03-20", vaultIds: [h.mainVaultId] }))
    const foreign = await scoped.call<any>("GET", `/vaults/${h.testVaultId}/tron/nile/${a}/overview`)
    expect([foreign.status, foreign.body.error.code]).toEqual([403, "api_key_not_allowed_for_wallet"])
    const nowhere = await v26.call<any>("GET", `/vaults/ffffffffffffffffffffffff/tron/nile/${a}/overview`)
    expect([nowhere.status, nowhere.body.error.code]).toEqual([403, "api_key_not_allowed_for_wallet"])
  })
})

describe("manage-resource errors, each writing nothing", () => {
  it("answers each bad body with its code", async () => {
    const a = await funded("3000")
    const b = await funded("1")
    await manage(a, { type: "freeze", resource: "bandwidth", amount: "1000" })
    const before = h.sim.models.position
    const cases: Array<[Record<string, unknown>, number, string, string?]> = [
      [{ resource: "energy", amount: "1" }, 409, "missing_required_attributes", "type"],
      [{ type: "freeze", amount: "1" }, 409, "missing_required_attributes", "resource"],
      [{ type: "freeze", resource: "energy" }, 409, "missing_required_attributes", "amount"],
      [{ type: "delegate", resource: "energy", amount: "1" }, 409, "missing_required_attributes", "toAddress"],
      [{ type: "freeze", resource: "energy", amount: "1", colour: "red" }, 409, "extra_body_attributes", "colour"],
      [{ type: "stake", resource: "energy", amount: "1" }, 400, "invalid_data", "type"],
      [{ type: "freeze", resource: "storage", amount: "1" }, 400, "invalid_data", "resource"],
      [{ type: "freeze", resource: "energy", amount: "-1" }, 400, "invalid_data", "amount"],
      [{ type: "freeze", resource: "energy", amount: "1.0000001" }, 400, "invalid_data", "amount"],
      [{ type: "freeze", resource: "energy", amount: "0.5" }, 400, "invalid_data", "amount"],
      [{ type: "freeze", resource: "energy", amount: "1", toAddress: b }, 400, "invalid_data", "toAddress"],
      [{ type: "freeze", resource: "energy", amount: "1", lock: true }, 400, "invalid_data", "lock"],
      [{ type: "delegate", resource: "bandwidth", amount: "1", toAddress: b, lockPeriod: "100" }, 400, "invalid_data", "lockPeriod"],
      [{ type: "delegate", resource: "bandwidth", amount: "1", toAddress: b, lock: "yes" }, 400, "invalid_data", "lock"],
      [
        { type: "delegate", resource: "bandwidth", amount: "1", toAddress: b, lock: true, lockPeriod: "864001" },
        400,
        "invalid_data",
        "lockPeriod",
      ],
      [
        { type: "delegate", resource: "bandwidth", amount: "1", toAddress: b, lock: true, lockPeriod: "1.5" },
        400,
        "invalid_data",
        "lockPeriod",
      ],
      [
        { type: "delegate", resource: "bandwidth", amount: "1", toAddress: "0x742d35Cc6634C0532925a3b844Bc454e4438f44e" },
        400,
        "invalid_data",
        "toAddress",
      ],
      [{ type: "delegate", resource: "bandwidth", amount: "1", toAddress: a }, 400, "invalid_data", "toAddress"],
      [{ type: "delegate", resource: "bandwidth", amount: "1001", toAddress: b }, 400, "invalid_data", "amount"],
      [{ type: "delegate", resource: "energy", amount: "1", toAddress: b }, 400, "invalid_data", "amount"],
      [{ type: "unfreeze", resource: "bandwidth", amount: "1001" }, 400, "invalid_data", "amount"],
      [{ type: "undelegate", resource: "bandwidth", amount: "1", toAddress: b }, 400, "invalid_data", "amount"],
    ]
    for (const [item, status, code, attribute] of cases) {
      const r = await manage(a, item)
      expect([JSON.stringify(item), r.status, r.body.error.code, r.body.error.details[0]?.attribute]).toEqual([
        JSON.stringify(item),
        status,
        code,
        attribute,
      ])
    }
    expect(h.sim.models.position).toBe(before)
  })
  it("2024-05-09 requires amount even for withdraw_resource; later versions do not", async () => {
    const a = await funded("10")
    const old = await manage(a, { type: "withdraw_resource", resource: "bandwidth" })
    expect([old.status, old.body.error.code]).toEqual([409, "missing_required_attributes"])
    const now = await manage(a, { type: "withdraw_resource", resource: "bandwidth" }, v26)
    expect([now.status, now.body.error.code]).toEqual([400, "invalid_data"])
  })
  it("refuses another chain, a main vault on nile, an address outside the vault, a vault the key may not see", async () => {
    const a = await funded("10")
    const item = { type: "freeze", resource: "energy", amount: "1" }
    const eth = await v24.call<any>("POST", `/vaults/${h.testVaultId}/ethereum/sepolia/addresses/${a}/manage-resource`, { item })
    expect([eth.status, eth.body.error.code]).toEqual([400, "invalid_data"])
    const main = await manage(a, item, v24, h.mainVaultId)
    expect([main.status, main.body.error.code]).toEqual([400, "network_not_allowed_for_vault"])
    const outside = await manage(EXTERNAL, item)
    expect([outside.status, outside.body.error.code]).toEqual([404, "resource_not_found"])
    const scoped = clientOf(await createKey(h, { vaultIds: [h.mainVaultId] }))
    const foreign = await manage(a, item, scoped)
    expect([foreign.status, foreign.body.error.code]).toEqual([403, "api_key_not_allowed_for_wallet"])
    const unknown24 = await manage(a, item, v24, "ffffffffffffffffffffffff")
    expect([unknown24.status, unknown24.body.error.code]).toEqual([404, "resource_not_found"])
    const unknown26 = await manage(a, item, v26, "ffffffffffffffffffffffff")
    expect([unknown26.status, unknown26.body.error.code]).toEqual([403, "api_key_not_allowed_for_wallet"])
  })
})
