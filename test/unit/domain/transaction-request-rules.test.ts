// Rules of transaction requests outside the status machine, as pure functions: the fee cap, coin selection,
// and what a mined request spends.
import { describe, expect, it } from "vitest"
import { findAsset, findNetwork, type NetworkInfo } from "../../../src/domain/chains/index.js"
import { tronCost, utxoFee } from "../../../src/domain/chains/fees.js"
import { Ledger } from "../../../src/domain/ledger/state.js"
import type { AssetId, VaultId } from "../../../src/domain/shared/ids.js"
import { maxFeeOf, selectCoins, type CreateRequestInput } from "../../../src/domain/transaction-request/draft.js"
import type { TxRequestDraft } from "../../../src/domain/transaction-request/index.js"
import { spending } from "../../../src/domain/transaction-request/spending.js"
import { assetId } from "../../support/catalogue.js"

const network = (blockchain: string, name: string): NetworkInfo => findNetwork(blockchain, name)!
const btc = network("bitcoin", "testnet")
const eth = network("ethereum", "sepolia")
const tron = network("tron", "nile")
const input = (over: Partial<CreateRequestInput> = {}): CreateRequestInput => ({
  vaultId: "v" as VaultId,
  endpoint: "utxo",
  network: btc,
  asset: findAsset(assetId("bitcoin", "testnet", "BTC"))!,
  sender: null,
  recipients: [{ address: "tb1qout", amount: 30_000n }],
  feePriority: "standard",
  feeLimit: null,
  note: null,
  prepareStrategy: "minimize-dust",
  ...over,
})
const ledgerWith = (...amounts: ReadonlyArray<bigint>) => {
  const l = new Ledger()
  amounts.forEach((amount, i) => {
    l.utxos.set(`u${i}:0`, { transactionId: `u${i}`, vout: 0, address: "tb1qa", blockchain: "bitcoin", network: "testnet", amount })
  })
  return l
}
const draft = (over: Partial<TxRequestDraft>): TxRequestDraft => ({
  requestId: "r1",
  transactionId: "0xr1",
  vaultId: "v" as VaultId,
  vaultAccountId: null,
  endpoint: "coin",
  blockchain: "ethereum",
  network: "sepolia",
  assetId: assetId("ethereum", "sepolia", "ETH") as AssetId,
  feeAssetId: assetId("ethereum", "sepolia", "ETH") as AssetId,
  sender: "0xs",
  recipients: [{ address: "0xr", amount: "100" }],
  feePriority: "standard",
  maxFee: "21",
  feeLimit: null,
  note: null,
  prepareStrategy: null,
  inputs: [],
  change: null,
  reservations: [],
  approvalLevels: 0,
  ...over,
})

describe("fee cap", () => {
  it("on an account chain is the transfer fee at the priority", () => {
    expect(maxFeeOf(eth, findAsset(assetId("ethereum", "sepolia", "ETH"))!, "fast", null)).toBeGreaterThan(
      maxFeeOf(eth, findAsset(assetId("ethereum", "sepolia", "ETH"))!, "slow", null),
    )
  })
  it("on tron is the most it can burn, or the fee limit when lower", () => {
    const trx = findAsset(assetId("tron", "nile", "TRX"))!
    expect(maxFeeOf(tron, trx, "standard", null)).toBe(tronCost(tron, "coin")!.maxBurn)
    expect(maxFeeOf(tron, trx, "standard", 1n)).toBe(1n)
  })
})

describe("coin selection", () => {
  it("minimize-dust spends the smallest outputs first, with change", () => {
    const sel = selectCoins(ledgerWith(50_000n, 20_000n, 15_000n), input(), 30_000n, "standard")!
    expect(sel.inputs.map((i) => i.amount)).toEqual(["15000", "20000"])
    expect(sel.change).toBe(35_000n - 30_000n - sel.fee)
    expect(sel.fee).toBe(utxoFee(btc, 2, 2, "standard"))
  })
  it("optimize-size spends the largest first", () => {
    const sel = selectCoins(ledgerWith(50_000n, 20_000n, 15_000n), input({ prepareStrategy: "optimize-size" }), 30_000n, "standard")!
    expect(sel.inputs.map((i) => i.amount)).toEqual(["50000"])
  })
  it("skips outputs an open request spends, and finds nothing when the rest is too little", () => {
    const l = ledgerWith(50_000n, 20_000n)
    l.reservedOutputs.add("u0:0")
    expect(selectCoins(l, input(), 30_000n, "standard")).toBeUndefined()
  })
})

describe("spending of a mined request", () => {
  it("a coin transfer debits amount plus the fee from the sender", () => {
    expect(spending(eth, draft({}), false, 0)).toEqual({
      fee: 21n,
      withErrors: false,
      debits: [{ address: "0xs", assetId: draft({}).assetId, amount: "121" }],
      credits: [],
    })
  })
  it("a token transfer debits the token and the fee in the native coin", () => {
    const usdc = assetId("ethereum", "sepolia", "USDC") as AssetId
    expect(spending(eth, draft({ assetId: usdc }), false, 0).debits).toEqual([
      { address: "0xs", assetId: usdc, amount: "100" },
      { address: "0xs", assetId: draft({}).feeAssetId, amount: "21" },
    ])
  })
  it("a transfer failing in execution spends only its fee", () => {
    expect(spending(eth, draft({}), true, 0)).toMatchObject({ withErrors: true, debits: [{ amount: "21" }] })
  })
  it("a UTXO transfer spends its inputs and credits its change as a new output", () => {
    const native = assetId("bitcoin", "testnet", "BTC") as AssetId
    const d = draft({
      blockchain: "bitcoin",
      network: "testnet",
      assetId: native,
      feeAssetId: native,
      sender: null,
      maxFee: "500",
      inputs: [{ transactionId: "u0", vout: 0, address: "tb1qa", amount: "1000" }],
      change: { address: "tb1qc", amount: "400" },
    })
    expect(spending(btc, d, false, 0)).toEqual({
      fee: 500n,
      withErrors: false,
      debits: [{ address: "tb1qa", assetId: native, amount: "1000" }],
      credits: [{ address: "tb1qc", assetId: native, amount: "400", vout: 1 }],
    })
  })
})
