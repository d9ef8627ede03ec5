// approximate-fee and the 2026 maxFee check on tron count the sender's stake (Stake 2.0) as the chain's execution
// does: for each transfer of a series, staked or not, coin or TRC-20, the estimate equals the fee mined (what the
// sender's TRX balance lost), and a maxFee below the unstaked burn passes only for a staked sender.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { createApp } from "../../src/api/app.js"
import { CustodyClient } from "../../src/client/index.js"
import { parseAmount } from "../../src/domain/shared/money.js"
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

const TRX = assetId("tron", "nile", "TRX")
const USDT = assetId("tron", "nile", "USDT")
const TO = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"
const sun = (trx: string): bigint => {
  const r = parseAmount(trx, 6)
  if (!r.ok) throw new Error(`not an amount: ${trx}`)
  return r.value
}

/** A vault account with one tron address holding `trx` TRX (and `usdt` USDT). */
const funded = async (trx: string, usdt?: string) => {
  const acct = (
    await v24.call<any>("POST", `/vaults/${h.testVaultId}/vault-account`, {
      item: { name: "t", color: "#000000", isHiddenInDashboard: false },
    })
  ).body.data.item.vaultAccountId as string
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
  return { acct, address }
}

const freeze = async (address: string, resource: "bandwidth" | "energy", amount: string) => {
  const r = await v24.call<any>("POST", `/vaults/${h.testVaultId}/tron/nile/addresses/${address}/manage-resource`, {
    item: { type: "freeze", resource, amount },
  })
  expect(r.status).toBe(201)
}

const trxOf = async (address: string): Promise<bigint> => {
  const assets = (await v24.call<any>("GET", `/vaults/${h.testVaultId}/tron/addresses/${address}/assets`)).body.data.item
    .assets as Array<any>
  return sun(assets.find((a) => a.symbol === "TRX").assetData.totalAmount)
}

const estimate = async (s: { acct: string; address: string }, asset: string) => {
  const r = await v26.call<any>("POST", `/vaults/${h.testVaultId}/approximate-fee`, {
    item: { transactionType: "single", vaultAccountId: s.acct, assetId: asset, fromAddress: s.address, toAddress: TO, amount: "1" },
  })
  expect(r.status).toBe(200)
  return sun(r.body.data.item.fee.amount)
}

const transfer = (s: { acct: string; address: string }, asset: string, maxFee?: string) =>
  v26.call<any>("POST", `/vaults/${h.testVaultId}/transaction-requests/single-transfer`, {
    item: {
      vaultAccountId: s.acct,
      assetId: asset,
      fromAddress: s.address,
      toAddress: TO,
      amount: "1",
      note: "n",
      ...(maxFee !== undefined ? { maxFee } : {}),
    },
  })

/** Estimates, sends and mines `count` transfers in a row; each one's estimate and mined fee (TRX the sender lost beyond the amount). */
const series = async (s: { acct: string; address: string }, asset: string, count: number) => {
  const out: Array<{ estimate: bigint; mined: bigint }> = []
  for (let i = 0; i < count; i++) {
    const quoted = await estimate(s, asset)
    const before = await trxOf(s.address)
    const r = await transfer(s, asset)
    expect(r.status).toBe(201)
    const id = r.body.data.item.transactionRequestId as string
    expect((await v24.call<any>("GET", `/transactionRequests/${id}`)).body.data.item.transactionRequestStatus).toBe("success")
    const lost = before - (await trxOf(s.address)) - (asset === TRX ? sun("1") : 0n)
    expect(h.sim.models.txRequests.byId.get(id)?.mined?.fee).toBe(lost.toString())
    out.push({ estimate: quoted, mined: lost })
  }
  return out
}

describe("approximate-fee counts a tron sender's stake as the chain's execution does", () => {
  it("TRX: staked bandwidth, then the free allowance, then the burn; each estimate equals the mined fee", async () => {
    const staked = await funded("5000")
    const plain = await funded("5000")
    await freeze(staked.address, "bandwidth", "1000") // 1,000 staked bandwidth a day: three transfers of 268
    // The freeze used 282 of the free 1,500: the free allowance then pays four transfers; the eighth burns 0.268 TRX.
    const s = await series(staked, TRX, 8)
    for (const x of s) expect(x.estimate).toBe(x.mined)
    expect(s.map((x) => x.mined)).toEqual([0n, 0n, 0n, 0n, 0n, 0n, 0n, 268_000n])
    const p = await series(plain, TRX, 6)
    for (const x of p) expect(x.estimate).toBe(x.mined)
    expect(p.map((x) => x.mined)).toEqual([0n, 0n, 0n, 0n, 0n, 268_000n])
    // Bandwidth delegated to the unstaked sender, whose free allowance is used up, pays its next transfers.
    const d = await v24.call<any>("POST", `/vaults/${h.testVaultId}/tron/nile/addresses/${staked.address}/manage-resource`, {
      item: { type: "delegate", resource: "bandwidth", amount: "1000", toAddress: plain.address },
    })
    expect(d.status).toBe(201)
    const delegated = await series(plain, TRX, 4)
    for (const x of delegated) expect(x.estimate).toBe(x.mined)
    expect(delegated.map((x) => x.mined)).toEqual([0n, 0n, 0n, 268_000n])
  })

  it("TRC-20: staked energy pays what it has, the rest is burned; each estimate equals the mined fee and is below the unstaked one", async () => {
    const staked = await funded("20000", "100")
    const plain = await funded("20000", "100")
    await freeze(staked.address, "energy", "10000") // 100,000 energy a day; a transfer needs 65,000
    const s = await series(staked, USDT, 3)
    const p = await series(plain, USDT, 3)
    for (const x of [...s, ...p]) expect(x.estimate).toBe(x.mined)
    // Staked: all of it, then 35,000 of 65,000 (30,000 × 280 SUN burned), then none.
    expect(s.map((x) => x.mined)).toEqual([0n, 30_000n * 280n, 65_000n * 280n])
    expect(p.map((x) => x.mined)).toEqual([65_000n * 280n, 65_000n * 280n, 65_000n * 280n])
    expect(s[0]!.estimate).toBeLessThan(p[0]!.estimate)
    // A day later the stake has regenerated: the estimate is back to 0 and so is the fee.
    await h.admin("POST", "/_sim/clock/advance", { seconds: 86_400 })
    const later = await series(staked, USDT, 1)
    expect(later).toEqual([{ estimate: 0n, mined: 0n }])
  })
})

describe("the 2026 maxFee check counts the stake", () => {
  it("a maxFee below the energy burn passes for a staked sender and is mined within it; the same maxFee from an unstaked sender is 400 MAX_FEE_EXCEEDED", async () => {
    const staked = await funded("20000", "100")
    const plain = await funded("20000", "100")
    await freeze(staked.address, "energy", "10000")
    const before = await trxOf(staked.address)
    const ok = await transfer(staked, USDT, "1")
    expect(ok.status).toBe(201)
    expect(await trxOf(staked.address)).toBe(before)
    const position = h.sim.models.position
    const refused = await transfer(plain, USDT, "1")
    expect([refused.status, refused.body.error?.code]).toEqual([400, "MAX_FEE_EXCEEDED"])
    expect(refused.body.error.details).toEqual([{ attribute: "maxFee", message: "is below the fee the transfer would pay now (18.2 TRX)" }])
    expect(h.sim.models.position).toBe(position)
    // The stake's second transfer burns 30,000 energy (8.4 TRX): a ceiling between the two is passed, one below it refused.
    expect((await transfer(staked, USDT, "8.399999")).body.error?.code).toBe("MAX_FEE_EXCEEDED")
    const second = await transfer(staked, USDT, "8.4")
    expect(second.status).toBe(201)
    expect(await trxOf(staked.address)).toBe(before - 8_400_000n)
  })
})
