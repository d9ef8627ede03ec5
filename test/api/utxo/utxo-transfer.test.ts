// POST /vaults/{vaultId}/transaction-requests/utxo-transfer over a socket: named inputs from two accounts, the change
// where the caller says, a fee payer, gross; the request's life (approval, rejection, faults, mining); balances in
// base units after mining, and the events written.
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { formatAmount } from "../../../src/domain/shared/money.js"
import { BTC, EXTERNAL_BTC, EXTERNAL_BTC_2, startUtxoWorld, type UtxoWorld } from "../../support/utxo-world.js"

let w: UtxoWorld
beforeEach(async () => {
  w = await startUtxoWorld()
})
afterEach(async () => w.close())

const transfer = (item: Record<string, unknown>) =>
  w.call("POST", `/vaults/${w.vault}/transaction-requests/utxo-transfer`, {
    assetId: BTC,
    feePriority: "standard",
    note: "payout",
    ...item,
  })
const sats = (address: string) => w.h.sim.models.holdings.balance("bitcoin", "testnet", address, BTC, undefined)
const types = (es: ReadonlyArray<{ type: string; data: any }>) =>
  es.map((e) =>
    e.type === "NotificationRaised" ? `${e.type}:${e.data.kind}` : e.type === "TxRequestProgressed" ? `${e.type}:${e.data.status}` : e.type,
  )
// bitcoin testnet, standard: 2 sat/vB × (11 + 68 per input + 31 per output) vbytes
const btc = (sat: bigint) => formatAmount(sat, 8)
const fee = (inputs: number, outputs: number) => 2n * BigInt(11 + 68 * inputs + 31 * outputs)

const twoAccounts = async () => {
  const alice = await w.account("alice")
  const bob = await w.account("bob")
  const a = await w.btcAddress(alice)
  const b = await w.btcAddress(bob)
  const da = await w.deposit(a, "0.001")
  const db = await w.deposit(b, "0.0005")
  return { alice, bob, a, b, ua: `${da}:0`, ub: `${db}:0` }
}

describe("utxo-transfer", () => {
  it("spends outputs of two accounts, returns the change to the first input's address, and settles in base units", async () => {
    const { alice, bob, a, b, ua, ub } = await twoAccounts()
    const before = await w.head()
    const r = await transfer({ senders: [{ utxoId: ua }, { utxoId: ub }], recipients: [{ address: EXTERNAL_BTC, amount: "0.0012" }] })
    expect(r.status).toBe(201)
    const f = fee(2, 2)
    expect(r.body.data.item).toEqual({
      transactionRequestId: expect.stringMatching(/^[0-9a-f]{24}$/),
      transactionRequestStatus: "created",
      assetId: BTC,
      blockchain: "bitcoin",
      network: "testnet",
      amountUnit: "BTC",
      feePriority: "standard",
      gross: false,
      senders: [
        { utxoId: ua, address: a, vaultAccountId: alice, amount: "0.001" },
        { utxoId: ub, address: b, vaultAccountId: bob, amount: "0.0005" },
      ],
      recipients: [{ address: EXTERNAL_BTC, amount: "0.0012" }],
      change: { address: a, amount: btc(30000n - f) },
      fee: { amount: btc(f), amountUnit: "BTC" },
      totalTransactionAmount: "0.0012",
      sizeInVbytes: 11 + 68 * 2 + 31 * 2,
      note: "payout",
    })
    const events = await w.eventsSince(before)
    expect(types(events).slice(0, 7)).toEqual([
      "TxRequestCreated",
      "TxRequestProgressed:pending",
      "TxRequestProgressed:prepared",
      "TxRequestProgressed:signed",
      "TxRequestProgressed:broadcasted",
      "NotificationRaised:TRANSACTION_REQUEST",
      "NotificationRaised:TRANSACTION_APPROVED",
    ])
    expect(events[0]!.data).toMatchObject({
      endpoint: "utxo-transfer",
      sender: null,
      maxFee: f.toString(),
      inputs: [
        { address: a, amount: "100000" },
        { address: b, amount: "50000" },
      ],
    })
    expect(types(events)).toContain("TxRequestMined")
    expect(types(events)).toContain("NotificationRaised:OUTGOING_MINED")
    // Mined in auto mode with one confirmation: a's change is 100000 + 50000 − 120000 − fee; b is spent out.
    expect(sats(a)).toMatchObject({ total: 30000n - f, blocked: 0n })
    expect(sats(b)).toMatchObject({ total: 0n, blocked: 0n })
    const detail = await w.h.client.call<any>("GET", `/transactionRequests/${r.body.data.item.transactionRequestId}`)
    expect(detail.body.data.item).toMatchObject({
      transactionRequestStatus: "success",
      totalTransactionAmount: "0.0012",
      additionalDetails: "payout",
    })
    const listed = (await w.call("GET", `/vaults/${w.vault}/transactions`)).body.data.items[0]
    expect(listed).toMatchObject({ direction: "outgoing", status: "completed", transactionId: detail.body.data.item.transactionId })
  })

  it("changeData.vaultAccountId derives a change address in an account that has none; changeData.address sends it to a vault address", async () => {
    const { bob, b, ua, ub } = await twoAccounts()
    const carol = await w.account("carol")
    const before = await w.head()
    const r = await transfer({
      senders: [{ utxoId: ua }],
      recipients: [{ address: EXTERNAL_BTC, amount: "0.0004" }],
      changeData: { vaultAccountId: carol },
    })
    expect(r.status).toBe(201)
    const derived = (await w.eventsSince(before))[0]!
    expect(derived).toMatchObject({
      type: "AddressDerived",
      data: { vaultAccountId: carol, change: 1, addressType: "change", blockchain: "bitcoin" },
    })
    expect(r.body.data.item.change.address).toBe(derived.data.address)
    expect(sats(derived.data.address).total).toBe(60000n - fee(1, 2))
    const toBob = await transfer({
      senders: [{ utxoId: ub }],
      recipients: [{ address: EXTERNAL_BTC_2, amount: "0.0001" }],
      changeData: { address: b },
    })
    expect(toBob.body.data.item.change).toEqual({ address: b, amount: expect.any(String) })
    expect(sats(b).total).toBe(40000n - fee(1, 2))
    void bob
  })

  it("a fee payer adds an input and takes the change: the named inputs pay the recipients in full", async () => {
    const { a, b, ua } = await twoAccounts()
    const r = await transfer({ senders: [{ utxoId: ua }], recipients: [{ address: EXTERNAL_BTC, amount: "0.001" }], feePayer: b })
    expect(r.status).toBe(201)
    const f = fee(2, 2)
    expect(r.body.data.item).toMatchObject({
      feePayer: b,
      senders: [{ utxoId: ua }, { address: b, amount: "0.0005" }],
      change: { address: b },
      recipients: [{ amount: "0.001" }],
    })
    expect(sats(a).total).toBe(0n)
    expect(sats(b).total).toBe(50000n - f)
  })

  it("gross takes the fee out of the recipients' amounts, in equal shares", async () => {
    const { a, ua } = await twoAccounts()
    const r = await transfer({
      senders: [{ utxoId: ua }],
      recipients: [
        { address: EXTERNAL_BTC, amount: "0.0006" },
        { address: EXTERNAL_BTC_2, amount: "0.0004" },
      ],
      gross: true,
    })
    expect(r.status).toBe(201)
    const f = fee(1, 2)
    expect(r.body.data.item.gross).toBe(true)
    expect(r.body.data.item.recipients.map((x: { amount: string }) => x.amount)).toEqual([btc(60000n - f / 2n), btc(40000n - f / 2n)])
    expect(r.body.data.item.change).toBeUndefined()
    expect(r.body.data.item.totalTransactionAmount).toBe(btc(100000n - f))
    expect(sats(a).total).toBe(0n)
  })

  it("waits for approval holding its outputs; a rejection releases them; a broadcast fault fails it and releases them", async () => {
    const { ua } = await twoAccounts()
    await w.admin("PUT", `/_sim/vaults/${w.vault}/approval-policy`, { mode: "manual", levels: 1 })
    const r = await transfer({ senders: [{ utxoId: ua }], recipients: [{ address: EXTERNAL_BTC, amount: "0.0001" }] })
    const id = r.body.data.item.transactionRequestId
    const again = await transfer({ senders: [{ utxoId: ua }], recipients: [{ address: EXTERNAL_BTC, amount: "0.0001" }] })
    expect([again.status, again.body.error.code]).toEqual([409, "utxo_reserved"])
    const rejected = await w.admin("POST", `/_sim/transaction-requests/${id}/reject`, { reason: "no" })
    expect(rejected.body.transactionRequestStatus).toBe("rejected")
    const utxo = (await w.call("GET", `/vaults/${w.vault}/utxos`)).body.data.items.find((u: { utxoId: string }) => u.utxoId === ua)
    expect(utxo).toMatchObject({ isSpent: false, isReserved: false })
    await w.admin("PUT", `/_sim/vaults/${w.vault}/approval-policy`, { mode: "auto" })
    await w.admin("POST", "/_sim/chains/bitcoin/testnet/faults", { kind: "broadcast-failure" })
    const faulted = await transfer({ senders: [{ utxoId: ua }], recipients: [{ address: EXTERNAL_BTC, amount: "0.0001" }] })
    const failed = await w.h.client.call<any>("GET", `/transactionRequests/${faulted.body.data.item.transactionRequestId}`)
    expect(failed.body.data.item.transactionRequestStatus).toBe("failed")
    const ok = await transfer({ senders: [{ utxoId: ua }], recipients: [{ address: EXTERNAL_BTC, amount: "0.0001" }] })
    expect(ok.status).toBe(201)
    const spent = await transfer({ senders: [{ utxoId: ua }], recipients: [{ address: EXTERNAL_BTC, amount: "0.0001" }] })
    expect([spent.status, spent.body.error.code]).toEqual([409, "utxo_already_spent"])
  })
})
