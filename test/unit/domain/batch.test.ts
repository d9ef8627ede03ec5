// EIP-7702 batches in the vault aggregate: the draft reserves every call at once (per asset at the sender, the
// batch fee at the fee payer), the sender must hold every asset, and mining pays every call or none.
import { describe, expect, it } from "vitest"
import { findAsset, findNetwork } from "../../../src/domain/chains/index.js"
import { batchFee } from "../../../src/domain/chains/fees.js"
import { fold } from "../../../src/domain/shared/decider.js"
import type { AssetId, VaultAccountId } from "../../../src/domain/shared/ids.js"
import { batchDraftOf } from "../../../src/domain/transaction-request/batch.js"
import { spending } from "../../../src/domain/transaction-request/spending.js"
import { vaultDecider, type VaultAggregateEvent } from "../../../src/domain/vault/index.js"
import { assetId } from "../../support/catalogue.js"
import { deciderSpec } from "../../support/decider-spec.js"
import { acct, address, at, vaultId } from "../../support/funded-vault.js"

const spec = deciderSpec(vaultDecider)
const sepolia = findNetwork("ethereum", "sepolia")!
const ETH = assetId("ethereum", "sepolia", "ETH") as AssetId
const USDC = assetId("ethereum", "sepolia", "USDC") as AssetId
const payerAccount = "cccccccccccccccccccccccc" as VaultAccountId
const payer = "0x2222222222222222222222222222222222222222"

const derived = (vaultAccountId: VaultAccountId, at0: string, index: number): VaultAggregateEvent => ({
  type: "AddressDerived",
  data: {
    vaultId,
    vaultAccountId,
    blockchain: "ethereum",
    network: "sepolia",
    address: at0,
    derivationPath: `m/44'/60'/0'/0/${index}`,
    change: 0,
    index,
    label: "x",
    addressType: "deposit",
    assetIds: [],
    at,
  },
})
const held = (vaultAccountId: VaultAccountId, at0: string, asset: AssetId, amount: string): Array<VaultAggregateEvent> => [
  { type: "AssetAdded", data: { vaultId, vaultAccountId, assetId: asset, blockchain: "ethereum", network: "sepolia", address: at0, at } },
  {
    type: "DepositCredited",
    data: {
      vaultId,
      vaultAccountId,
      transactionId: `0x${at0.slice(2, 6)}${asset.slice(0, 4)}`,
      blockchain: "ethereum",
      network: "sepolia",
      address: at0,
      fromAddress: "0x9",
      assetId: asset,
      amount,
      blockHeight: 1,
      blockHash: "0xb",
      confirmations: 1,
      vout: null,
      at,
    },
  },
]
/** A sender with 1,000 wei and 500 USDC base units; a fee payer of another account with the fee and a little more. */
const world = (usdc = "500"): Array<VaultAggregateEvent> => [
  { type: "VaultCreated", data: { vaultId, name: "v", type: "test", color: "#000000", backuped: false, at } },
  { type: "VaultApprovalPolicySet", data: { vaultId, mode: "manual", levels: 1, at } },
  {
    type: "VaultAccountCreated",
    data: { vaultId, vaultAccountId: acct, ordinal: 1, name: "a", color: "#000000", isHiddenInDashboard: false, at },
  },
  {
    type: "VaultAccountCreated",
    data: { vaultId, vaultAccountId: payerAccount, ordinal: 2, name: "gas", color: "#000000", isHiddenInDashboard: false, at },
  },
  derived(acct, address, 0),
  derived(payerAccount, payer, 1),
  ...held(acct, address, ETH, "1000"),
  ...(usdc === "none" ? [] : held(acct, address, USDC, usdc)),
  ...held(payerAccount, payer, ETH, (batchFee(sepolia, ["coin", "token", "token"], "slow") + 5n).toString()),
]
const state = (events: ReadonlyArray<VaultAggregateEvent>) => {
  const s = fold(vaultDecider.evolve, vaultDecider.initialState, events)
  if (s._tag !== "Active") throw new Error("no vault")
  return s
}
const draft = (events: ReadonlyArray<VaultAggregateEvent>, usdc: [bigint, bigint] = [300n, 200n]) =>
  batchDraftOf(
    state(events),
    {
      vaultId,
      network: sepolia,
      sender: address,
      feePayer: payer,
      feePriority: "slow",
      note: "n",
      recipients: [
        { address: "0x3", amount: 400n, asset: findAsset(ETH)! },
        { address: "0x4", amount: usdc[0], asset: findAsset(USDC)! },
        { address: "0x5", amount: usdc[1], asset: findAsset(USDC)! },
      ],
    },
    "r1",
    "0xr1",
  )
const fee = batchFee(sepolia, ["coin", "token", "token"], "slow")

describe("an EIP-7702 batch", () => {
  it("reserves each asset's calls summed at the sender and the batch fee at the fee payer, in one event", () => {
    const d = draft(world())
    expect(d).toMatchObject({ endpoint: "batch", assetId: ETH, sender: address, feePayer: payer, maxFee: fee.toString() })
    expect(d.reservations).toEqual([
      { address, assetId: ETH, amount: "400" },
      { address, assetId: USDC, amount: "500" },
      { address: payer, assetId: ETH, amount: fee.toString() },
    ])
    spec
      .given(world())
      .when({ type: "CreateTxRequest", draft: d, now: at })
      .then((es) => {
        expect(es[0]!.type).toBe("TxRequestCreated")
        const s = state([...world(), ...es])
        expect(s.ledger.holding("ethereum", "sepolia", address, USDC)).toEqual({ total: 500n, blocked: 500n, staked: 0n })
        expect(s.ledger.holding("ethereum", "sepolia", payer, ETH).blocked).toBe(fee)
      })
  })
  it("refuses calls that fit one by one but not together, and a sender that does not hold one of the assets", () => {
    spec
      .given(world())
      .when({ type: "CreateTxRequest", draft: draft(world(), [300n, 201n]), now: at })
      .thenFails({ _tag: "InsufficientFunds", assetId: USDC, needed: "501", available: "500" })
    spec
      .given(world("none"))
      .when({ type: "CreateTxRequest", draft: draft(world("none")), now: at })
      .thenFails({ _tag: "AssetNotHeldBySender", assetId: USDC })
  })
  it("mined: every call debited at the sender per asset, the fee at the fee payer; failed in execution: the fee only", () => {
    const d = { ...draft(world()), approvalLevels: 1 as const }
    expect(spending(sepolia, d, false, 0).debits).toEqual([
      { address, assetId: ETH, amount: "400" },
      { address, assetId: USDC, amount: "500" },
      { address: payer, assetId: ETH, amount: fee.toString() },
    ])
    const failed = spending(sepolia, d, true, 0)
    expect(failed.withErrors).toBe(true)
    expect(failed.debits).toEqual([{ address: payer, assetId: ETH, amount: fee.toString() }])
  })
  it("rejected: every reservation released at once", () => {
    const d = draft(world())
    const awaiting = [...world(), { type: "TxRequestCreated" as const, data: { ...d, approvalLevels: 1 as const, at } }]
    spec
      .given(awaiting)
      .when({ type: "RejectTxRequest", requestId: "r1", reason: "no", now: at })
      .then((es) => {
        const s = state([...awaiting, ...es])
        for (const [a, asset] of [
          [address, ETH],
          [address, USDC],
          [payer, ETH],
        ] as const)
          expect(s.ledger.holding("ethereum", "sepolia", a, asset).blocked).toBe(0n)
      })
  })
})
