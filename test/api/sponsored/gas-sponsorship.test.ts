// POST /vaults/{vaultId}/transaction-requests/gas-sponsorship-transfer (2026-03-20) over a real socket: the
// sender's balance pays the amount, the fee payer's the gas; reservations, policies, faults, events, errors.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { findNetwork } from "../../../src/domain/chains/index.js"
import { batchFee } from "../../../src/domain/chains/fees.js"
import { formatAmount } from "../../../src/domain/shared/money.js"
import { assetId } from "../../support/catalogue.js"
import { EXTERNAL_ETH, startSponsorWorld, type SponsorWorld } from "../../support/sponsor-world.js"

let w: SponsorWorld
beforeAll(async () => {
  w = await startSponsorWorld()
})
afterAll(async () => w?.close())

const ETH = assetId("ethereum", "sepolia", "ETH")
const USDC = assetId("ethereum", "sepolia", "USDC")
const sepolia = findNetwork("ethereum", "sepolia")!
const E18 = 10n ** 18n
const path = () => `/vaults/${w.vaultId}/transaction-requests/gas-sponsorship-transfer`
const bal = (address: string, symbol: string) => w.balance("ethereum", "sepolia", address, symbol)

/** A sender holding 1 ETH and 100 USDC, and a fee payer (another account of the vault) holding 1 ETH. */
const parties = async () => {
  const sender = await w.account("ethereum", "sepolia", { ETH: "1", USDC: "100" })
  const payer = await w.account("ethereum", "sepolia", { ETH: "1" })
  return { sender, payer }
}
const body = (sender: { acct: string; address: string }, payer: { address: string }, over: Record<string, unknown> = {}) => ({
  vaultAccountId: sender.acct,
  assetId: USDC,
  fromAddress: sender.address,
  toAddress: EXTERNAL_ETH,
  amount: "40",
  feePayer: payer.address,
  feePriority: "fast",
  note: "sponsored payout",
  ...over,
})

describe("a gas-sponsored token transfer", () => {
  it("answers 201 created; once mined the sender lost the tokens and no ETH, the fee payer exactly the batch fee", async () => {
    const { sender, payer } = await parties()
    const before = w.h.sim.models.position
    const r = await w.post(path(), body(sender, payer))
    expect(r.status).toBe(201)
    expect(r.body.apiVersion).toBe("2026-03-20")
    expect(r.body.data.item).toEqual({
      transactionRequestId: expect.stringMatching(/^[0-9a-f]{24}$/),
      transactionRequestStatus: "created",
      vaultAccountId: sender.acct,
      assetId: USDC,
      fromAddress: sender.address,
      toAddress: EXTERNAL_ETH,
      amount: "40",
      amountUnit: "USDC",
      feePayer: payer.address,
      feePriority: "fast",
      note: "sponsored payout",
    })
    const fee = batchFee(sepolia, ["token"], "fast")
    const events = await w.eventsSince(before)
    const created = events.find((e) => e.type === "TxRequestCreated")!
    expect(created.data).toMatchObject({
      endpoint: "gas-sponsorship",
      sender: sender.address,
      feePayer: payer.address,
      maxFee: fee.toString(),
      reservations: [
        { address: sender.address, assetId: USDC, amount: "40000000" },
        { address: payer.address, assetId: ETH, amount: fee.toString() },
      ],
    })
    const mined = events.find((e) => e.type === "TxRequestMined")!
    expect(mined.data).toMatchObject({
      fee: fee.toString(),
      withErrors: false,
      debits: [
        { address: sender.address, assetId: USDC, amount: "40000000" },
        { address: payer.address, assetId: ETH, amount: fee.toString() },
      ],
    })
    expect(events.find((e) => e.type === "ChainTxSubmitted")!.data).toMatchObject({
      from: sender.address,
      feePayer: payer.address,
      to: EXTERNAL_ETH,
      amount: "40000000",
    })
    expect(events.map((e) => e.type)).toContain("TxRequestSucceeded")
    expect(bal(sender.address, "USDC")).toEqual({ total: 60_000_000n, blocked: 0n, available: 60_000_000n })
    expect(bal(sender.address, "ETH")).toEqual({ total: E18, blocked: 0n, available: E18 })
    expect(bal(payer.address, "ETH")).toEqual({ total: E18 - fee, blocked: 0n, available: E18 - fee })

    // Listed once, outgoing, with the fee the fee payer paid; in the sender's and the fee payer's account listings.
    const txid = created.data.transactionId
    const list = await w.get(`/vaults/${w.vaultId}/transactions`)
    const listed = list.body.data.items.filter((t: any) => t.transactionId === txid)
    expect(listed).toHaveLength(1)
    expect(listed[0]).toMatchObject({
      direction: "outgoing",
      status: "completed",
      transactionFee: { amount: formatAmount(fee, 18), amountUnit: "ETH" },
      senders: [{ address: sender.address }],
    })
    for (const acct of [sender.acct, payer.acct]) {
      const own = await w.get(`/vaults/${w.vaultId}/vault-accounts/${acct}/transactions`)
      expect(own.body.data.items.map((t: any) => t.transactionId)).toContain(txid)
    }
    // As of the position it was created at: still created, nothing spent yet, both reservations held.
    const at = events.find((e) => e.type === "TxRequestCreated")!
    const asOf = { "x-sim-as-of": `position:${at.position}` }
    const eth = (r: { body: any }) => r.body.data.items.find((i: any) => i.assetId === ETH).assetData
    expect(eth(await w.get(`/vaults/${w.vaultId}/addresses/${payer.address}/balance`, asOf))).toEqual({
      totalAmount: "1",
      availableAmount: formatAmount(E18 - fee, 18),
      blockedAmount: formatAmount(fee, 18),
      allocatedAmount: "0",
    })
    expect(eth(await w.get(`/vaults/${w.vaultId}/addresses/${payer.address}/balance`))).toMatchObject({
      totalAmount: formatAmount(E18 - fee, 18),
      blockedAmount: "0",
    })
    const request = await w.h.client.call<any>("GET", `/transactionRequests/${r.body.data.item.transactionRequestId}`, { headers: asOf })
    expect(request.ok ? request.body.data.item.transactionRequestStatus : "").toBe("created")
  })

  it("a coin transfer: the sender can send its whole balance, the fee comes from the fee payer", async () => {
    const { sender, payer } = await parties()
    const r = await w.post(path(), body(sender, payer, { assetId: ETH, amount: "1", feePriority: undefined }))
    expect(r.status).toBe(201)
    expect(r.body.data.item).toMatchObject({ amount: "1", amountUnit: "ETH", feePriority: "standard" })
    const fee = batchFee(sepolia, ["coin"], "standard")
    expect(bal(sender.address, "ETH").total).toBe(0n)
    expect(bal(payer.address, "ETH").total).toBe(E18 - fee)
    const detail = await w.get(`/vaults/${w.vaultId}/transactions`)
    expect(detail.status).toBe(200)
  })

  it("under a manual policy: awaits approval with both reservations held; rejection releases both", async () => {
    const { sender, payer } = await parties()
    await w.h.admin("PUT", `/_sim/vaults/${w.vaultId}/approval-policy`, { mode: "manual", levels: 1 })
    try {
      const r = await w.post(path(), body(sender, payer))
      expect(r.status).toBe(201)
      const id = r.body.data.item.transactionRequestId
      const fee = batchFee(sepolia, ["token"], "fast")
      expect(bal(sender.address, "USDC")).toMatchObject({ blocked: 40_000_000n, available: 60_000_000n })
      expect(bal(payer.address, "ETH")).toMatchObject({ blocked: fee, available: E18 - fee })
      expect(bal(sender.address, "ETH").blocked).toBe(0n)
      const rejected = await w.h.admin("POST", `/_sim/transaction-requests/${id}/reject`, { reason: "no" })
      expect(rejected.body.transactionRequestStatus).toBe("rejected")
      expect(bal(sender.address, "USDC")).toEqual({ total: 100_000_000n, blocked: 0n, available: 100_000_000n })
      expect(bal(payer.address, "ETH")).toEqual({ total: E18, blocked: 0n, available: E18 })
    } finally {
      await w.h.admin("PUT", `/_sim/vaults/${w.vaultId}/approval-policy`, { mode: "auto", levels: 1 })
    }
  })

  it("an execution fault: mined-with-errors, only the fee spent, at the fee payer; a broadcast fault spends nothing", async () => {
    const { sender, payer } = await parties()
    await w.h.admin("POST", "/_sim/chains/ethereum/sepolia/faults", { kind: "execution-failure", count: 1 })
    const r = await w.post(path(), body(sender, payer))
    expect(r.status).toBe(201)
    const id = r.body.data.item.transactionRequestId
    expect((await w.h.client.call<any>("GET", `/transactionRequests/${id}`)).body.data.item.transactionRequestStatus).toBe(
      "mined-with-errors",
    )
    const fee = batchFee(sepolia, ["token"], "fast")
    expect(bal(sender.address, "USDC")).toEqual({ total: 100_000_000n, blocked: 0n, available: 100_000_000n })
    expect(bal(payer.address, "ETH")).toEqual({ total: E18 - fee, blocked: 0n, available: E18 - fee })
    await w.h.admin("POST", "/_sim/chains/ethereum/sepolia/faults", { kind: "broadcast-failure", count: 1 })
    const f = await w.post(path(), body(sender, payer))
    expect(
      (await w.h.client.call<any>("GET", `/transactionRequests/${f.body.data.item.transactionRequestId}`)).body.data.item
        .transactionRequestStatus,
    ).toBe("failed")
    expect(bal(payer.address, "ETH")).toEqual({ total: E18 - fee, blocked: 0n, available: E18 - fee })
    expect(bal(sender.address, "USDC").blocked).toBe(0n)
  })

  it("two sponsored requests race for the fee payer's balance: the second is refused, nothing overdrawn", async () => {
    const sender = await w.account("ethereum", "sepolia", { ETH: "0", USDC: "100" })
    const fee = batchFee(sepolia, ["token"], "fast")
    const payer = await w.account("ethereum", "sepolia", { ETH: ((Number(fee) / 1e18) * 1.5).toFixed(18).replace(/0+$/, "") })
    await w.h.admin("PUT", `/_sim/vaults/${w.vaultId}/approval-policy`, { mode: "manual", levels: 1 })
    try {
      const [a, b] = await Promise.all([
        w.post(path(), body(sender, payer, { amount: "1" })),
        w.post(path(), body(sender, payer, { amount: "2" })),
      ])
      expect([a.status, b.status].sort()).toEqual([201, 400])
      const refused = a.status === 400 ? a : b
      expect(refused.body.error.code).toBe("insufficient_balance")
      expect(refused.body.error.details).toEqual([{ attribute: "feePayer", message: "cannot cover the maximum fee" }])
      expect(bal(payer.address, "ETH").blocked).toBe(fee)
      expect(bal(payer.address, "ETH").available >= 0n).toBe(true)
    } finally {
      await w.h.admin("PUT", `/_sim/vaults/${w.vaultId}/approval-policy`, { mode: "auto", levels: 1 })
    }
  })
})

describe("gas-sponsorship errors (each writes nothing)", () => {
  const refuses = async (item: Record<string, unknown>, status: number, code: string, attribute?: string) => {
    const before = w.h.sim.models.position
    const r = await w.post(path(), item)
    expect([r.status, r.body.error?.code]).toEqual([status, code])
    if (attribute !== undefined) expect(r.body.error.details.map((d: { attribute: string }) => d.attribute)).toContain(attribute)
    expect(w.h.sim.models.position).toBe(before)
  }
  it("missing required attributes: 409 naming them; an unknown attribute", async () => {
    const { sender, payer } = await parties()
    const { feePayer: _, ...noPayer } = body(sender, payer)
    await refuses(noPayer, 409, "missing_required_attributes", "feePayer")
    const { note: _n, ...noNote } = body(sender, payer)
    await refuses(noNote, 409, "missing_required_attributes", "note")
    const r = await w.post(path(), { ...body(sender, payer), gross: true })
    expect(r.status).toBeGreaterThanOrEqual(400)
  })
  it("an asset of a chain without gas sponsorship, and an unknown asset", async () => {
    const { sender, payer } = await parties()
    await refuses(body(sender, payer, { assetId: assetId("tron", "nile", "TRX") }), 400, "invalid_data", "assetId")
    await refuses(body(sender, payer, { assetId: "ffffffffffffffffffffffff" }), 404, "resource_not_found")
  })
  it("a fee payer outside the vault, the sender as its own fee payer, a fee payer without ETH", async () => {
    const { sender, payer } = await parties()
    await refuses(body(sender, payer, { feePayer: EXTERNAL_ETH }), 404, "resource_not_found")
    await refuses(body(sender, payer, { feePayer: sender.address }), 400, "invalid_data", "feePayer")
    const poor = await w.account("ethereum", "sepolia", { USDC: "0" })
    await refuses(body(sender, poor), 400, "asset_not_added_to_address", "feePayer")
  })
  it("a sender outside the vault account, an unknown vault account, a foreign vault", async () => {
    const { sender, payer } = await parties()
    await refuses(body(sender, payer, { fromAddress: payer.address }), 404, "resource_not_found")
    await refuses(body(sender, payer, { vaultAccountId: "000000000000000000000000" }), 404, "resource_not_found")
    const r = await w.post(`/vaults/000000000000000000000000/transaction-requests/gas-sponsorship-transfer`, body(sender, payer))
    expect(r.status).toBe(403)
  })
  it("bad amount, bad toAddress, bad feePriority, bad maxFee", async () => {
    const { sender, payer } = await parties()
    await refuses(body(sender, payer, { amount: "-1" }), 400, "invalid_data", "amount")
    await refuses(body(sender, payer, { amount: "0.0000001" }), 400, "invalid_data", "amount")
    await refuses(body(sender, payer, { toAddress: "nope" }), 400, "invalid_data", "toAddress")
    await refuses(body(sender, payer, { feePriority: "FAST" }), 400, "invalid_data", "feePriority")
    await refuses(body(sender, payer, { maxFee: "lots" }), 400, "invalid_data", "maxFee")
  })
  it("maxFee below the batch fee: 400 MAX_FEE_EXCEEDED; at the fee it is accepted", async () => {
    const { sender, payer } = await parties()
    const fee = batchFee(sepolia, ["token"], "fast")
    await refuses(body(sender, payer, { maxFee: "0.000000000000000001" }), 400, "MAX_FEE_EXCEEDED", "maxFee")
    const exact = (Number(fee) / 1e18).toFixed(18).replace(/0+$/, "")
    const below = formatAmount(fee - 1n, 18)
    const refused = await w.post(path(), body(sender, payer, { maxFee: below }))
    expect(refused.body.error).toEqual({
      code: "MAX_FEE_EXCEEDED",
      message: `The network fee would be ${exact} ETH, above maxFee (${below} ETH); nothing was created.`,
      details: [{ attribute: "maxFee", message: `is below the fee the transfer would pay now (${exact} ETH)` }],
    })
    const before = w.h.sim.models.position
    const r = await w.post(path(), body(sender, payer, { maxFee: exact }))
    expect(r.status).toBe(201)
    expect(r.body.data.item.maxFee).toBe(exact)
    // The vault decider checked the ceiling and recorded it with the request, as for single-transfer.
    expect((await w.eventsSince(before)).find((e) => e.type === "TxRequestCreated")!.data).toMatchObject({
      feeCeiling: fee.toString(),
      feePayer: payer.address,
    })
  })
  it("the ceiling is checked before the fee payer's funds, as single-transfer's is: a fee payer short of the fee under a low maxFee is refused for the fee", async () => {
    const sender = await w.account("ethereum", "sepolia", { ETH: "1", USDC: "100" })
    const poor = await w.account("ethereum", "sepolia", { ETH: "0.000000000000000001" })
    await refuses(body(sender, poor), 400, "insufficient_balance", "feePayer")
    await refuses(body(sender, poor, { maxFee: "0.000000000000000001" }), 400, "MAX_FEE_EXCEEDED", "maxFee")
  })
  it("more tokens than the sender holds, a token the sender never added: 400, writing nothing", async () => {
    const { sender, payer } = await parties()
    await refuses(body(sender, payer, { amount: "100.000001" }), 400, "insufficient_balance", "amount")
    const plain = await w.account("ethereum", "sepolia", { ETH: "1" })
    await refuses(body(plain, payer), 400, "asset_not_added_to_address", "assetId")
  })
  it("does not exist at 2024-05-09: 400 uri_not_found, as every operation a version lacks", async () => {
    const { sender, payer } = await parties()
    const before = w.h.sim.models.position
    const r = await w.h.client.call<any>("POST", path(), { item: body(sender, payer) })
    expect([r.status, r.ok ? "" : r.body.error.code]).toEqual([400, "uri_not_found"])
    expect(w.h.sim.models.position).toBe(before)
  })
})
