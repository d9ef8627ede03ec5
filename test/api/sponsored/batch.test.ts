// POST /vaults/{vaultId}/transaction-requests/batch (2026-03-20, EIP-7702) over a real socket: one sender, calls
// in several assets, one fee payer; everything reserved at once, all or nothing on chain, one transaction listed.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { runAudit } from "../../support/audit.js"
import { digestOf } from "../../../src/api/digest/digest.js"
import { findNetwork } from "../../../src/domain/chains/index.js"
import { batchFee } from "../../../src/domain/chains/fees.js"
import { formatAmount } from "../../../src/domain/shared/money.js"
import { exportLines } from "../../../src/event-log/export.js"
import { loadLog } from "../../../src/event-log/replay.js"
import { openReplayed } from "../../../src/simulator.js"
import { makeMemoryStore } from "../../../src/store/memory.js"
import { assetId } from "../../support/catalogue.js"
import { exportText, parseFile } from "../../support/log-file.js"
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
const path = () => `/vaults/${w.vaultId}/transaction-requests/batch`
const bal = (address: string, symbol: string) => w.balance("ethereum", "sepolia", address, symbol)
const status = async (id: string) =>
  (await w.h.client.call<any>("GET", `/transactionRequests/${id}`)).body.data.item.transactionRequestStatus

/** A sender with 1 ETH and 100 USDC, a fee payer with 1 ETH, and another account's address holding USDC. */
const parties = async () => {
  const sender = await w.account("ethereum", "sepolia", { ETH: "1", USDC: "100" })
  const payer = await w.account("ethereum", "sepolia", { ETH: "1" })
  const internal = await w.account("ethereum", "sepolia", { USDC: "0" })
  return { sender, payer, internal }
}
type Parties = Awaited<ReturnType<typeof parties>>
const body = (p: Parties, over: Record<string, unknown> = {}) => ({
  senderAddress: p.sender.address,
  feePayer: { address: p.payer.address, assetId: ETH },
  feePriority: "fast",
  note: "payroll",
  recipients: [
    { address: EXTERNAL_ETH, amount: "0.1", assetId: ETH },
    { address: EXTERNAL_ETH, amount: "10", assetId: USDC },
    { address: p.internal.address, amount: "5", assetId: USDC },
  ],
  ...over,
})
const fee = () => batchFee(sepolia, ["coin", "token", "token"], "fast")

describe("an EIP-7702 batch", () => {
  it("answers 201; reserves everything at once; one transaction moves all three calls; the fee payer pays the batch fee", async () => {
    const p = await parties()
    const before = w.h.sim.models.position
    const r = await w.post(path(), body(p))
    expect(r.status).toBe(201)
    expect(r.body.data.item).toEqual({
      transactionRequestId: expect.stringMatching(/^[0-9a-f]{24}$/),
      transactionRequestStatus: "created",
      vaultAccountId: p.sender.acct,
      senderAddress: p.sender.address,
      feePayer: { address: p.payer.address, assetId: ETH },
      feePriority: "fast",
      note: "payroll",
      recipients: [
        { address: EXTERNAL_ETH, amount: "0.1", assetId: ETH, amountUnit: "ETH" },
        { address: EXTERNAL_ETH, amount: "10", assetId: USDC, amountUnit: "USDC" },
        { address: p.internal.address, amount: "5", assetId: USDC, amountUnit: "USDC" },
      ],
    })
    // 21,000 + 25,000 + 9,000 + 2 × 44,000 gas at the fast price.
    expect(fee()).toBe(143_000n * (sepolia.fees._tag === "EvmGas" ? sepolia.fees.gasPriceWei.fast : 0n))
    const events = await w.eventsSince(before)
    expect(events.find((e) => e.type === "TxRequestCreated")!.data).toMatchObject({
      endpoint: "batch",
      assetId: ETH,
      feePayer: p.payer.address,
      maxFee: fee().toString(),
      reservations: [
        { address: p.sender.address, assetId: ETH, amount: (E18 / 10n).toString() },
        { address: p.sender.address, assetId: USDC, amount: "15000000" },
        { address: p.payer.address, assetId: ETH, amount: fee().toString() },
      ],
    })
    const submitted = events.filter((e) => e.type === "ChainTxSubmitted" && e.data.kind === "withdrawal")
    expect(submitted).toHaveLength(1)
    expect(submitted[0]!.data).toMatchObject({
      from: p.sender.address,
      feePayer: p.payer.address,
      calls: [
        { to: EXTERNAL_ETH, assetId: ETH, amount: (E18 / 10n).toString() },
        { to: EXTERNAL_ETH, assetId: USDC, amount: "10000000" },
        { to: p.internal.address, assetId: USDC, amount: "5000000" },
      ],
    })
    expect(events.find((e) => e.type === "TxRequestMined")!.data).toMatchObject({
      fee: fee().toString(),
      withErrors: false,
      debits: [
        { address: p.sender.address, assetId: ETH, amount: (E18 / 10n).toString() },
        { address: p.sender.address, assetId: USDC, amount: "15000000" },
        { address: p.payer.address, assetId: ETH, amount: fee().toString() },
      ],
    })
    expect(await status(r.body.data.item.transactionRequestId)).toBe("success")
    expect(bal(p.sender.address, "ETH")).toEqual({ total: (E18 * 9n) / 10n, blocked: 0n, available: (E18 * 9n) / 10n })
    expect(bal(p.sender.address, "USDC")).toEqual({ total: 85_000_000n, blocked: 0n, available: 85_000_000n })
    expect(bal(p.payer.address, "ETH")).toEqual({ total: E18 - fee(), blocked: 0n, available: E18 - fee() })
    expect(bal(p.internal.address, "USDC").total).toBe(5_000_000n)

    // One transaction in the listing, each call a recipient, each token call a token transfer.
    const txid = submitted[0]!.data.transactionId
    const listed = (await w.get(`/vaults/${w.vaultId}/transactions`)).body.data.items.filter((t: any) => t.transactionId === txid)
    expect(listed).toHaveLength(1)
    expect(listed[0]).toMatchObject({
      direction: "outgoing",
      hasTokenTransfer: "true",
      transactionFee: { amount: formatAmount(fee(), 18), amountUnit: "ETH" },
      senders: [{ address: p.sender.address, amount: "0.1" }],
      recipients: [
        { address: EXTERNAL_ETH, amount: "0.1" },
        { address: EXTERNAL_ETH, amount: "0" },
        { address: p.internal.address, amount: "0" },
      ],
    })
    const detail = await w.get(`/vaults/${w.vaultId}/ethereum/transactions/${txid}`)
    expect(detail.status).toBe(200)
    const contract = "0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238"
    expect(detail.body.data.item.tokensTransfers.map((t: any) => [t.fromAddress, t.toAddress, t.amount, t.contract])).toEqual([
      [p.sender.address, EXTERNAL_ETH, "10", contract],
      [p.sender.address, p.internal.address, "5", contract],
    ])
    // As of its creation: created, everything reserved, nothing spent; the listing had no transaction yet.
    const asOf = { "x-sim-as-of": `position:${events.find((e) => e.type === "TxRequestCreated")!.position}` }
    const then = await w.h.client.call<any>("GET", `/transactionRequests/${r.body.data.item.transactionRequestId}`, { headers: asOf })
    expect(then.ok ? then.body.data.item.transactionRequestStatus : "").toBe("created")
    const usdcThen = await w.get(`/vaults/${w.vaultId}/addresses/${p.sender.address}/balance`, asOf)
    expect(usdcThen.body.data.items.find((i: any) => i.assetId === USDC).assetData).toMatchObject({
      totalAmount: "100",
      availableAmount: "85",
      blockedAmount: "15",
      allocatedAmount: "0",
    })
    expect((await w.get(`/vaults/${w.vaultId}/transactions`, asOf)).body.data.items.map((t: any) => t.transactionId)).not.toContain(txid)
    const internalAccount = await w.get(`/vaults/${w.vaultId}/vault-accounts/${p.internal.acct}/transactions`)
    expect(internalAccount.body.data.items.map((t: any) => t.transactionId)).toContain(txid)
    const request = (await w.h.client.call<any>("GET", `/transactionRequests/${r.body.data.item.transactionRequestId}`)).body.data.item
    expect(request).toMatchObject({ transactionType: "batch", unit: "ETH", totalTransactionAmount: "0.1" })
    expect(request.recipients).toEqual([
      { address: EXTERNAL_ETH, amount: "0.1", unit: "ETH" },
      { address: EXTERNAL_ETH, amount: "10", unit: "USDC" },
      { address: p.internal.address, amount: "5", unit: "USDC" },
    ])
  })

  it("takes the sender as fromAddress too, and without vaultAccountId", async () => {
    const p = await parties()
    const { senderAddress: _, ...rest } = body(p, { recipients: [{ address: EXTERNAL_ETH, amount: "1", assetId: USDC }] })
    const r = await w.post(path(), { ...rest, fromAddress: p.sender.address })
    expect(r.status).toBe(201)
    expect(r.body.data.item.senderAddress).toBe(p.sender.address)
    expect(bal(p.sender.address, "USDC").total).toBe(99_000_000n)
  })

  it("all or nothing: an execution fault reverts every call; only the fee is spent, at the fee payer", async () => {
    const p = await parties()
    await w.h.admin("POST", "/_sim/chains/ethereum/sepolia/faults", { kind: "execution-failure", count: 1 })
    const r = await w.post(path(), body(p))
    expect(r.status).toBe(201)
    expect(await status(r.body.data.item.transactionRequestId)).toBe("mined-with-errors")
    expect(bal(p.sender.address, "ETH")).toEqual({ total: E18, blocked: 0n, available: E18 })
    expect(bal(p.sender.address, "USDC")).toEqual({ total: 100_000_000n, blocked: 0n, available: 100_000_000n })
    expect(bal(p.payer.address, "ETH")).toEqual({ total: E18 - fee(), blocked: 0n, available: E18 - fee() })
    expect(bal(p.internal.address, "USDC").total).toBe(0n)
  })

  it("under a manual policy everything stays reserved; a gas-sponsored transfer racing for the same USDC is refused; rejection releases all", async () => {
    const p = await parties()
    await w.h.admin("PUT", `/_sim/vaults/${w.vaultId}/approval-policy`, { mode: "manual", levels: 1 })
    try {
      const r = await w.post(
        path(),
        body(p, {
          recipients: [
            { address: EXTERNAL_ETH, amount: "60", assetId: USDC },
            { address: EXTERNAL_ETH, amount: "0.5", assetId: ETH },
          ],
        }),
      )
      expect(r.status).toBe(201)
      expect(bal(p.sender.address, "USDC")).toMatchObject({ blocked: 60_000_000n, available: 40_000_000n })
      expect(bal(p.sender.address, "ETH")).toMatchObject({ blocked: E18 / 2n })
      const sponsored = await w.post(`/vaults/${w.vaultId}/transaction-requests/gas-sponsorship-transfer`, {
        vaultAccountId: p.sender.acct,
        assetId: USDC,
        fromAddress: p.sender.address,
        toAddress: EXTERNAL_ETH,
        amount: "41",
        feePayer: p.payer.address,
        note: "n",
      })
      expect([sponsored.status, sponsored.body.error.code]).toEqual([400, "insufficient_balance"])
      const id = r.body.data.item.transactionRequestId
      expect(await status(id)).toBe("await-approval")
      expect((await w.h.admin("POST", `/_sim/transaction-requests/${id}/reject`, { reason: "no" })).body.transactionRequestStatus).toBe(
        "rejected",
      )
      expect(bal(p.sender.address, "USDC")).toEqual({ total: 100_000_000n, blocked: 0n, available: 100_000_000n })
      expect(bal(p.sender.address, "ETH")).toEqual({ total: E18, blocked: 0n, available: E18 })
      expect(bal(p.payer.address, "ETH")).toEqual({ total: E18, blocked: 0n, available: E18 })
    } finally {
      await w.h.admin("PUT", `/_sim/vaults/${w.vaultId}/approval-policy`, { mode: "auto", levels: 1 })
    }
  })

  it("the audit reconciles batches (the fee at the fee payer, every call at the sender); the log replays to the same bytes and answers", async () => {
    const r = await runAudit(w.h.sim, undefined)
    expect(r.discrepancies).toEqual([])
    const text = await exportText(w.h)
    const store = makeMemoryStore()
    const loaded = await loadLog(text.split("\n"), store)
    const sim = await openReplayed(store, loaded.header.seed)
    try {
      const header = JSON.parse(parseFile(text).header) as { seed: string; apiVersion: string }
      const lines: Array<string> = []
      for await (const line of exportLines(sim.store, header as never, { includeSecrets: true })) lines.push(line)
      expect(`${lines.join("\n")}\n`).toBe(text)
      expect(await digestOf(sim, undefined)).toBe(await digestOf(w.h.sim, undefined))
    } finally {
      await sim.close()
    }
  })
})

describe("concurrent batches, gas-sponsored transfers and withdrawals over one sender and one fee payer", () => {
  it("60 at once under a manual policy: accepted ones fit, none overdraws, refusals are insufficient_balance", async () => {
    const p = await parties()
    await w.h.admin("PUT", `/_sim/vaults/${w.vaultId}/approval-policy`, { mode: "manual", levels: 1 })
    try {
      const v26 = { headers: { "x-api-version": "2026-03-20" } }
      const send = (i: number) => {
        if (i % 3 === 0)
          return w.h.client.call<any>("POST", path(), {
            item: body(p, {
              recipients: [
                { address: EXTERNAL_ETH, amount: "7", assetId: USDC },
                { address: EXTERNAL_ETH, amount: "0.05", assetId: ETH },
              ],
            }),
            ...v26,
          })
        if (i % 3 === 1)
          return w.h.client.call<any>("POST", `/vaults/${w.vaultId}/transaction-requests/gas-sponsorship-transfer`, {
            item: {
              vaultAccountId: p.sender.acct,
              assetId: USDC,
              fromAddress: p.sender.address,
              toAddress: EXTERNAL_ETH,
              amount: "7",
              feePayer: p.payer.address,
              feePriority: "fast",
              note: "n",
            },
            ...v26,
          })
        // A plain withdrawal from the fee payer: it races the sponsored requests for the fee payer's ETH.
        return w.h.client.call<any>("POST", `/vaults/${w.vaultId}/ethereum/sepolia/addresses/${p.payer.address}/transaction-requests`, {
          item: { amount: "0.05", feePriority: "fast", recipientAddress: EXTERNAL_ETH },
        })
      }
      const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => send(i)))
      for (const a of answers)
        expect(
          a.status === 201 || (a.status === 400 && !a.ok && a.body.error.code === "insufficient_balance"),
          JSON.stringify(a.body),
        ).toBe(true)
      const accepted = answers.filter((a) => a.status === 201).length
      expect(accepted).toBeGreaterThan(0)
      for (const [address, symbol] of [
        [p.sender.address, "USDC"],
        [p.sender.address, "ETH"],
        [p.payer.address, "ETH"],
      ] as const) {
        const b = bal(address, symbol)
        expect(
          b.available >= 0n && b.blocked <= b.total && b.available + b.blocked === b.total,
          `${symbol} at ${address}: ${JSON.stringify(b, (_, x) => String(x))}`,
        ).toBe(true)
      }
      // What is blocked at the sender is exactly what the accepted requests send.
      const usdc =
        answers.filter(
          (a) => a.status === 201 && (a.body.data.item.senderAddress !== undefined || a.body.data.item.fromAddress !== undefined),
        ).length * 7_000_000
      expect(bal(p.sender.address, "USDC").blocked).toBe(BigInt(usdc))
      expect(usdc).toBeLessThanOrEqual(14 * 7_000_000)
      expect((await runAudit(w.h.sim, undefined)).discrepancies).toEqual([])
    } finally {
      await w.h.admin("PUT", `/_sim/vaults/${w.vaultId}/approval-policy`, { mode: "auto", levels: 1 })
    }
  }, 120_000)
})

describe("batch errors (each writes nothing)", () => {
  const refuses = async (item: Record<string, unknown>, status: number, code: string, attribute?: string) => {
    const before = w.h.sim.models.position
    const r = await w.post(path(), item)
    expect([r.status, r.body.error?.code], JSON.stringify(r.body)).toEqual([status, code])
    if (attribute !== undefined) expect(r.body.error.details.map((d: { attribute: string }) => d.attribute)).toContain(attribute)
    expect(w.h.sim.models.position).toBe(before)
  }
  it("calls that each fit but together exceed the sender's USDC: 400 insufficient_balance", async () => {
    const p = await parties()
    await refuses(
      body(p, {
        recipients: [
          { address: EXTERNAL_ETH, amount: "60", assetId: USDC },
          { address: EXTERNAL_ETH, amount: "41", assetId: USDC },
        ],
      }),
      400,
      "insufficient_balance",
      "amount",
    )
  })
  it("a fee payer short of the batch fee: 400 insufficient_balance naming feePayer", async () => {
    const p = await parties()
    const poor = await w.account("ethereum", "sepolia", { ETH: "0.000000000000001" })
    await refuses(body(p, { feePayer: { address: poor.address, assetId: ETH } }), 400, "insufficient_balance", "feePayer")
  })
  it("missing attributes (409), a missing sender, two different senders, bad recipients", async () => {
    const p = await parties()
    const { recipients: _r, ...noRecipients } = body(p)
    await refuses(noRecipients, 409, "missing_required_attributes", "recipients")
    const { senderAddress: _s, ...noSender } = body(p)
    await refuses(noSender, 409, "missing_required_attributes", "senderAddress")
    await refuses({ ...body(p), fromAddress: p.payer.address }, 400, "invalid_data", "fromAddress")
    await refuses(body(p, { recipients: [] }), 400, "invalid_data", "recipients")
    await refuses(body(p, { recipients: [{ address: EXTERNAL_ETH, amount: "1" }] }), 400, "invalid_data", "recipients")
    await refuses(body(p, { recipients: [{ address: "nope", amount: "1", assetId: USDC }] }), 400, "invalid_data", "recipients[0].address")
    await refuses(
      body(p, { recipients: [{ address: EXTERNAL_ETH, amount: "-1", assetId: USDC }] }),
      400,
      "invalid_data",
      "recipients[0].amount",
    )
    await refuses(body(p, { feePayer: p.payer.address }), 400, "invalid_data", "feePayer")
    await refuses(body(p, { feePriority: "urgent" }), 400, "invalid_data", "feePriority")
  })
  it("assets: a recipient's asset on another chain, a fee asset that is not the gas coin, a chain without batches, an asset the sender lacks", async () => {
    const p = await parties()
    await refuses(
      body(p, { recipients: [{ address: EXTERNAL_ETH, amount: "1", assetId: assetId("base", "sepolia", "ETH") }] }),
      400,
      "invalid_data",
      "recipients[0].assetId",
    )
    await refuses(body(p, { feePayer: { address: p.payer.address, assetId: USDC } }), 400, "invalid_data", "feePayer.assetId")
    await refuses(
      body(p, { feePayer: { address: p.payer.address, assetId: assetId("tron", "nile", "TRX") } }),
      400,
      "invalid_data",
      "feePayer.assetId",
    )
    await refuses(
      body(p, { recipients: [{ address: EXTERNAL_ETH, amount: "1", assetId: "ffffffffffffffffffffffff" }] }),
      404,
      "resource_not_found",
    )
    const plain = await w.account("ethereum", "sepolia", { ETH: "1" })
    await refuses(body(p, { senderAddress: plain.address }), 400, "asset_not_added_to_address", "assetId")
  })
  it("parties: a sender outside the vault or the given account, a fee payer outside the vault or equal to the sender", async () => {
    const p = await parties()
    await refuses(body(p, { senderAddress: EXTERNAL_ETH }), 404, "resource_not_found")
    await refuses(body(p, { vaultAccountId: p.payer.acct }), 404, "resource_not_found")
    await refuses(body(p, { feePayer: { address: EXTERNAL_ETH, assetId: ETH } }), 404, "resource_not_found")
    await refuses(body(p, { feePayer: { address: p.sender.address, assetId: ETH } }), 400, "invalid_data", "feePayer.address")
    const r = await w.post(`/vaults/000000000000000000000000/transaction-requests/batch`, body(p))
    expect(r.status).toBe(403)
  })
  it("does not exist at 2024-05-09", async () => {
    const p = await parties()
    const r = await w.h.client.call<any>("POST", path(), { item: body(p) })
    expect([r.status, r.ok ? "" : r.body.error.code]).toEqual([400, "uri_not_found"])
  })
})
