// The fee payer: a request's network fee reserved at and debited from another address of the same vault.
import { describe, expect, it } from "vitest"
import { findAsset, findNetwork } from "../../../src/domain/chains/index.js"
import { fold } from "../../../src/domain/shared/decider.js"
import type { AssetId, VaultAccountId } from "../../../src/domain/shared/ids.js"
import { draftOf, maxFeeOf, type CreateRequestInput } from "../../../src/domain/transaction-request/draft.js"
import type { TxRequestDraft } from "../../../src/domain/transaction-request/index.js"
import { batchFee } from "../../../src/domain/chains/fees.js"
import { spending } from "../../../src/domain/transaction-request/spending.js"
import { balanceEffects } from "../../../src/domain/ledger/index.js"
import { vaultDecider, type VaultAggregateEvent } from "../../../src/domain/vault/index.js"
import { assetId } from "../../support/catalogue.js"
import { deciderSpec } from "../../support/decider-spec.js"
import { acct, address, at, ETH, fundedVault, vaultId } from "../../support/funded-vault.js"

const spec = deciderSpec(vaultDecider)
const sepolia = findNetwork("ethereum", "sepolia")!
const USDC = assetId("ethereum", "sepolia", "USDC")
/** The catalogue's ETH (the funded vault's givens use a stand-in id; drafts name the real one). */
const REAL_ETH = assetId("ethereum", "sepolia", "ETH") as AssetId
const payerAccount = "cccccccccccccccccccccccc" as VaultAccountId
const payer = "0x2222222222222222222222222222222222222222"
const stranger = "0x3333333333333333333333333333333333333333"

/** The funded vault, plus a second account whose address holds 100 ETH base units to pay fees with. */
const withPayer = (policy?: { mode: "auto" | "manual"; levels: 1 | 2 }, payerEth = "100"): Array<VaultAggregateEvent> => [
  ...fundedVault(policy),
  {
    type: "VaultAccountCreated",
    data: { vaultId, vaultAccountId: payerAccount, ordinal: 2, name: "gas", color: "#000000", isHiddenInDashboard: false, at },
  },
  {
    type: "AddressDerived",
    data: {
      vaultId,
      vaultAccountId: payerAccount,
      blockchain: "ethereum",
      network: "sepolia",
      address: payer,
      derivationPath: "m/44'/60'/2'/0/0",
      change: 0,
      index: 0,
      label: "gas",
      addressType: "deposit",
      assetIds: [],
      at,
    },
  },
  {
    type: "AssetAdded",
    data: { vaultId, vaultAccountId: payerAccount, assetId: ETH, blockchain: "ethereum", network: "sepolia", address: payer, at },
  },
  {
    type: "DepositCredited",
    data: {
      vaultId,
      vaultAccountId: payerAccount,
      transactionId: "0xd2",
      blockchain: "ethereum",
      network: "sepolia",
      address: payer,
      fromAddress: "0x2",
      assetId: ETH,
      amount: payerEth,
      blockHeight: 1,
      blockHash: "0xb",
      confirmations: 1,
      vout: null,
      at,
    },
  },
]

const draft = (amount: string, over: Partial<TxRequestDraft> = {}): Omit<TxRequestDraft, "approvalLevels"> => ({
  requestId: "r1",
  transactionId: "0xr1",
  vaultId,
  vaultAccountId: acct,
  endpoint: "gas-sponsorship",
  blockchain: "ethereum",
  network: "sepolia",
  assetId: ETH,
  feeAssetId: ETH,
  sender: address,
  feePayer: payer,
  recipients: [{ address: "0x3", amount }],
  feePriority: "slow",
  maxFee: "10",
  feeLimit: null,
  note: null,
  prepareStrategy: null,
  inputs: [],
  change: null,
  reservations: [
    { address, assetId: ETH, amount },
    { address: payer, assetId: ETH, amount: "10" },
  ],
  ...over,
})
const create = (amount: string, over: Partial<TxRequestDraft> = {}) => ({
  type: "CreateTxRequest" as const,
  draft: draft(amount, over),
  now: at,
})

const stateOf = (events: ReadonlyArray<VaultAggregateEvent>) => {
  const s = fold(vaultDecider.evolve, vaultDecider.initialState, events)
  if (s._tag !== "Active") throw new Error("no vault")
  return s
}
const balance = (events: ReadonlyArray<VaultAggregateEvent>, at: string) => {
  const h = stateOf(events).ledger.holding("ethereum", "sepolia", at, ETH)
  return { total: h.total, blocked: h.blocked }
}

describe("a request with a fee payer", () => {
  it("reserves the amount at the sender and the maximum fee at the fee payer", () => {
    spec
      .given(withPayer())
      .when(create("1000"))
      .then((es) => {
        const created = es[0]!
        expect(created.type).toBe("TxRequestCreated")
        expect(created.data).toMatchObject({ feePayer: payer })
        const after = [...withPayer(), ...es]
        expect(balance(after, address)).toEqual({ total: 1000n, blocked: 1000n })
        expect(balance(after, payer)).toEqual({ total: 100n, blocked: 10n })
      })
  })
  it("may be paid by an address of another account of the same vault; not by one outside the vault", () => {
    spec
      .given(withPayer())
      .when(create("5"))
      .then((es) => expect(es[0]!.type).toBe("TxRequestCreated"))
    spec
      .given(withPayer())
      .when(
        create("5", {
          feePayer: stranger,
          reservations: [
            { address, assetId: ETH, amount: "5" },
            { address: stranger, assetId: ETH, amount: "10" },
          ],
        }),
      )
      .thenFails({ _tag: "FeePayerNotInVault", address: stranger })
  })
  it("refuses a fee payer on another chain of the vault, and one that does not hold the fee asset", () => {
    const onBase: VaultAggregateEvent = {
      type: "AddressDerived",
      data: {
        vaultId,
        vaultAccountId: payerAccount,
        blockchain: "base",
        network: "sepolia",
        address: stranger,
        derivationPath: "m/44'/60'/2'/0/1",
        change: 0,
        index: 1,
        label: "base",
        addressType: "deposit",
        assetIds: [],
        at,
      },
    }
    spec
      .given([...withPayer(), onBase])
      .when(create("5", { feePayer: stranger, reservations: [{ address, assetId: ETH, amount: "5" }] }))
      .thenFails({ _tag: "FeePayerNotInVault", address: stranger })
    const noEth = withPayer().filter(
      (e) => !(e.type === "AssetAdded" && e.data.address === payer) && !(e.type === "DepositCredited" && e.data.address === payer),
    )
    spec.given(noEth).when(create("5")).thenFails({ _tag: "FeeAssetNotHeldByFeePayer", address: payer, assetId: ETH })
  })
  it("is refused when the fee payer cannot cover the maximum fee, even though the sender could", () => {
    spec
      .given(withPayer(undefined, "9"))
      .when(create("5"))
      .thenFails({ _tag: "InsufficientFunds", address: payer, needed: "10", available: "9", feePayer: true })
  })
  it("counts the fee payer's open reservations: two sponsored requests race for the same fee balance", () => {
    const first = [
      ...withPayer(undefined, "15"),
      ...[create("5")].map((c) => ({ type: "TxRequestCreated" as const, data: { ...c.draft, approvalLevels: 0 as const, at } })),
    ]
    spec
      .given(first)
      .when(create("5", { requestId: "r2", transactionId: "0xr2" }))
      .thenFails({ _tag: "InsufficientFunds", address: payer, available: "5" })
  })
  it("the sender's whole balance is sendable: the fee does not come out of it", () => {
    spec
      .given(withPayer())
      .when(create("1000"))
      .then((es) => expect(es[0]!.type).toBe("TxRequestCreated"))
    spec
      .given(withPayer())
      .when(
        create("1001", {
          reservations: [
            { address, assetId: ETH, amount: "1001" },
            { address: payer, assetId: ETH, amount: "10" },
          ],
        }),
      )
      .thenFails({ _tag: "InsufficientFunds", address, needed: "1001" })
  })
  it("when mined, debits the amount from the sender and the fee from the fee payer, releasing both reservations", () => {
    const created = [...withPayer(), { type: "TxRequestCreated" as const, data: { ...draft("600"), approvalLevels: 0 as const, at } }]
    const broadcast = ["pending", "prepared", "signed", "broadcasted"].map((status) => ({
      type: "TxRequestProgressed" as const,
      data: { requestId: "r1", vaultId, status: status as "pending", transactionId: status === "broadcasted" ? "0xr1" : null, at },
    }))
    const s = spending(sepolia, { ...draft("600"), approvalLevels: 0 }, false, 0)
    expect(s.debits).toEqual([
      { address, assetId: ETH, amount: "600" },
      { address: payer, assetId: ETH, amount: "10" },
    ])
    const mined = {
      type: "RecordTxMined" as const,
      requestId: "r1",
      blockHeight: 2,
      blockHash: "0xh",
      ...s,
      fee: s.fee.toString(),
      now: at,
    }
    spec
      .given([...created, ...broadcast])
      .when(mined)
      .then((es) => {
        const after = [...created, ...broadcast, ...es]
        expect(balance(after, address)).toEqual({ total: 400n, blocked: 0n })
        expect(balance(after, payer)).toEqual({ total: 90n, blocked: 0n })
      })
  })
  it("failing in execution spends only the fee, at the fee payer", () => {
    const s = spending(sepolia, { ...draft("600"), approvalLevels: 0 }, true, 0)
    expect(s.withErrors).toBe(true)
    expect(s.debits).toEqual([{ address: payer, assetId: ETH, amount: "10" }])
  })
  it("rejected or failed, releases both reservations", () => {
    const awaiting = [
      ...withPayer({ mode: "manual", levels: 1 }),
      { type: "TxRequestCreated" as const, data: { ...draft("600"), approvalLevels: 1 as const, at } },
    ]
    expect(balance(awaiting, payer).blocked).toBe(10n)
    spec
      .given(awaiting)
      .when({ type: "RejectTxRequest", requestId: "r1", reason: "no", now: at })
      .then((es) => {
        expect(es[0]!.type === "TxRequestRejected" && es[0]!.data.releases).toEqual(draft("600").reservations)
        const after = [...awaiting, ...es]
        expect(balance(after, address)).toEqual({ total: 1000n, blocked: 0n })
        expect(balance(after, payer)).toEqual({ total: 100n, blocked: 0n })
      })
  })
  it("a fee ceiling (gas-sponsorship's maxFee) is checked by the vault against the fee mining now would cost, at the fee payer", () => {
    spec
      .given(withPayer())
      .when(create("5", { feeCeiling: "9" }))
      .thenFails({ _tag: "MaxFeeExceeded", fee: "10", maxFee: "9", assetId: ETH })
    spec
      .given(withPayer())
      .when(create("5", { feeCeiling: "10" }))
      .then((es) => expect([es[0]!.type, es[0]!.data]).toMatchObject(["TxRequestCreated", { feeCeiling: "10", feePayer: payer }]))
  })
  it("the ceiling comes before the funds: a fee payer short of the fee and a ceiling below it is refused for the ceiling", () => {
    spec
      .given(withPayer(undefined, "9"))
      .when(create("5", { feeCeiling: "9" }))
      .thenFails({ _tag: "MaxFeeExceeded", fee: "10", maxFee: "9" })
  })
  it("a notification names the sender as before", () => {
    spec
      .given(withPayer())
      .when(create("5"))
      .then((es) => {
        const n = es.find((e) => e.type === "NotificationRaised")
        expect(n?.type === "NotificationRaised" && n.data.payload.address).toBe(address)
      })
  })
})

describe("the draft of a request with a fee payer", () => {
  const vault = stateOf(withPayer())
  const eth = findAsset(REAL_ETH)!
  const input = (over: Partial<CreateRequestInput>): CreateRequestInput => ({
    vaultId,
    endpoint: "gas-sponsorship",
    network: sepolia,
    asset: eth,
    sender: address,
    feePayer: payer,
    recipients: [{ address: "0x3", amount: 500n }],
    feePriority: "standard",
    feeLimit: null,
    note: null,
    prepareStrategy: null,
    ...over,
  })
  it("coin: the amount at the sender, the maximum fee at the fee payer", () => {
    const d = draftOf(vault, input({}), "r1", "0xr1", null)
    const fee = maxFeeOf(sepolia, eth, "standard", null, true).toString()
    // A sponsored EVM transfer is a one-call EIP-7702 batch: 46,000 + 9,000 gas at the priority's price.
    expect(fee).toBe(batchFee(sepolia, ["coin"], "standard").toString())
    expect(BigInt(fee)).toBe(55_000n * (sepolia.fees._tag === "EvmGas" ? sepolia.fees.gasPriceWei.standard : 0n))
    expect(d.feePayer).toBe(payer)
    expect(d.reservations).toEqual([
      { address, assetId: REAL_ETH, amount: "500" },
      { address: payer, assetId: REAL_ETH, amount: fee },
    ])
  })
  it("token: the token at the sender, the fee coin at the fee payer", () => {
    const usdc = findAsset(USDC)!
    const d = draftOf(vault, input({ asset: usdc }), "r1", "0xr1", null)
    expect(d.reservations).toEqual([
      { address, assetId: usdc.id as AssetId, amount: "500" },
      { address: payer, assetId: REAL_ETH, amount: batchFee(sepolia, ["token"], "standard").toString() },
    ])
  })
  it("without a fee payer: no field, and the reservations as before", () => {
    const d = draftOf(vault, input({ feePayer: undefined }), "r1", "0xr1", null) as Record<string, unknown>
    expect("feePayer" in d).toBe(false)
    expect(d.reservations).toEqual([{ address, assetId: REAL_ETH, amount: (500n + maxFeeOf(sepolia, eth, "standard", null)).toString() }])
  })
  it("the balance effects of the mined event follow the addresses it names", () => {
    const s = spending(sepolia, { ...draft("600"), approvalLevels: 0 }, false, 0)
    const fx = balanceEffects({
      type: "TxRequestMined",
      data: {
        requestId: "r1",
        vaultId,
        transactionId: "0xr1",
        blockchain: "ethereum",
        network: "sepolia",
        blockHeight: 2,
        blockHash: "0xh",
        fee: "10",
        withErrors: false,
        releases: draft("600").reservations,
        debits: s.debits,
        credits: [],
        at,
      },
    })
    expect(fx.filter((x) => x.kind === "debit").map((x) => [x.address, x.total])).toEqual([
      [address, -600n],
      [payer, -10n],
    ])
  })
})
