// POST /vaults/{vaultId}/transaction-requests/multiple-transfer over a socket: coin selection over one vault account
// in both spellings of prepareStrategy, the change to a new change address of the account, maxFee, gross, refusals.
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { formatAmount } from "../../../src/domain/shared/money.js"
import { assetId } from "../../support/catalogue.js"
import { BTC, EXTERNAL_BTC, startUtxoWorld, type UtxoWorld } from "../../support/utxo-world.js"

let w: UtxoWorld
let alice: string
let a: string
let small: string
let large: string
let bobs: string
beforeEach(async () => {
  w = await startUtxoWorld()
  alice = await w.account("alice")
  a = await w.btcAddress(alice)
  const bob = await w.account("bob")
  small = `${await w.deposit(a, "0.0002")}:0`
  large = `${await w.deposit(a, "0.003")}:0`
  bobs = `${await w.deposit(await w.btcAddress(bob), "0.01")}:0`
})
afterEach(async () => w.close())

const multiple = (item: Record<string, unknown>) =>
  w.call("POST", `/vaults/${w.vault}/transaction-requests/multiple-transfer`, {
    vaultAccountId: alice,
    assetId: BTC,
    feePriority: "standard",
    note: "m",
    prepareStrategy: "minimize_dust",
    ...item,
  })
const sats = (address: string) => w.h.sim.models.holdings.balance("bitcoin", "testnet", address, BTC, undefined).total
const fee = (inputs: number, outputs: number) => 2n * BigInt(11 + 68 * inputs + 31 * outputs)

describe("multiple-transfer", () => {
  it("minimize_dust spends the account's smallest outputs first; the change goes to a new change address of that account", async () => {
    const before = await w.head()
    const r = await multiple({ recipients: [{ address: EXTERNAL_BTC, amount: "0.0001" }] })
    expect(r.status).toBe(201)
    expect(r.body.data.item).toEqual({
      transactionRequestId: expect.stringMatching(/^[0-9a-f]{24}$/),
      transactionRequestStatus: "created",
      vaultAccountId: alice,
      assetId: BTC,
      amountUnit: "BTC",
      feePriority: "standard",
      prepareStrategy: "minimize_dust",
      gross: false,
      recipients: [{ address: EXTERNAL_BTC, amount: "0.0001", amountUnit: "BTC" }],
      totalTransactionAmount: "0.0001",
      fee: { amount: formatAmount(fee(1, 2), 8), amountUnit: "BTC" },
      note: "m",
    })
    const events = await w.eventsSince(before)
    const derived = events[0]!
    expect(derived).toMatchObject({ type: "AddressDerived", data: { vaultAccountId: alice, change: 1, addressType: "change" } })
    expect(events[1]).toMatchObject({
      type: "TxRequestCreated",
      data: { endpoint: "multiple-transfer", prepareStrategy: "minimize-dust", inputs: [{ amount: "20000" }] },
    })
    expect(sats(derived.data.address)).toBe(10000n - fee(1, 2))
    expect(sats(a)).toBe(300000n)
    const spent = (await w.call("GET", `/vaults/${w.vault}/utxos?isSpent=true`)).body.data.items.map((u: { utxoId: string }) => u.utxoId)
    expect(spent).toEqual([small])
  })

  it("optimize-size spends the largest first; gross takes the fee out of the amount; never another account's outputs", async () => {
    const r = await multiple({ prepareStrategy: "optimize-size", gross: true, recipients: [{ address: EXTERNAL_BTC, amount: "0.0025" }] })
    expect(r.status).toBe(201)
    expect(r.body.data.item).toMatchObject({
      prepareStrategy: "optimize-size",
      gross: true,
      recipients: [{ amount: formatAmount(250000n - fee(1, 2), 8) }],
    })
    const spent = (await w.call("GET", `/vaults/${w.vault}/utxos?isSpent=true`)).body.data.items.map((u: { utxoId: string }) => u.utxoId)
    expect(spent).toEqual([large])
    const tooMuch = await multiple({ recipients: [{ address: EXTERNAL_BTC, amount: "0.005" }] })
    expect([tooMuch.status, tooMuch.body.error.code]).toEqual([400, "insufficient_balance"])
    expect(spent).not.toContain(bobs)
  })

  it("refuses a fee above maxFee, a missing note, an unknown strategy or account, a non-UTXO asset, writing nothing", async () => {
    const before = await w.head()
    const capped = await multiple({ maxFee: "0.00000001", recipients: [{ address: EXTERNAL_BTC, amount: "0.0001" }] })
    expect([capped.status, capped.body.error.code, capped.body.error.details[0].attribute]).toEqual([400, "MAX_FEE_EXCEEDED", "maxFee"])
    const ok = await multiple({ maxFee: "0.001", recipients: [{ address: EXTERNAL_BTC, amount: "0.0001" }], note: "x" })
    expect(ok.body.data.item.maxFee).toBe("0.001")
    const after = await w.head()
    expect(after).toBeGreaterThan(before)
    const noNote = await w.call("POST", `/vaults/${w.vault}/transaction-requests/multiple-transfer`, {
      vaultAccountId: alice,
      assetId: BTC,
      feePriority: "standard",
      prepareStrategy: "minimize_dust",
      recipients: [{ address: EXTERNAL_BTC, amount: "0.0001" }],
    })
    expect([noNote.status, noNote.body.error.code, noNote.body.error.details[0].attribute]).toEqual([
      409,
      "missing_required_attributes",
      "note",
    ])
    const strategy = await multiple({ prepareStrategy: "smallest", recipients: [{ address: EXTERNAL_BTC, amount: "0.0001" }] })
    expect([strategy.status, strategy.body.error.details[0].attribute]).toEqual([400, "prepareStrategy"])
    const account = await multiple({
      vaultAccountId: "000000000000000000000000",
      recipients: [{ address: EXTERNAL_BTC, amount: "0.0001" }],
    })
    expect([account.status, account.body.error.code]).toEqual([404, "resource_not_found"])
    const eth = await multiple({
      assetId: assetId("ethereum", "sepolia", "ETH"),
      recipients: [{ address: EXTERNAL_BTC, amount: "0.0001" }],
    })
    expect([eth.status, eth.body.error.code]).toEqual([400, "invalid_data"])
    expect(await w.head()).toBe(after)
  })
})
