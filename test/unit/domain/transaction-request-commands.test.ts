// Transaction requests, each command of the decider: one given/when/then case per rule (the walk through the
// status machine is in transaction-request.test.ts).
import { describe, expect, it } from "vitest"
import type { AssetId } from "../../../src/domain/shared/ids.js"
import type { TxRequestCommand, TxRequestDraft } from "../../../src/domain/transaction-request/index.js"
import { vaultDecider, type VaultAggregateEvent } from "../../../src/domain/vault/index.js"
import { deciderSpec } from "../../support/decider-spec.js"
import { acct, address, at, ETH, fundedVault, vaultId } from "../../support/funded-vault.js"

const spec = deciderSpec(vaultDecider)
const USDC = "usdc" as AssetId
const BTC = "btc" as AssetId
const btcAddress = "tb1qsender"
const vault = fundedVault
const utxoVault: Array<VaultAggregateEvent> = [
  ...vault(),
  {
    type: "AddressDerived",
    data: {
      vaultId,
      vaultAccountId: acct,
      blockchain: "bitcoin",
      network: "testnet",
      address: btcAddress,
      derivationPath: "m/84'/1'/1'/0/0",
      change: 0,
      index: 0,
      label: "b",
      addressType: "deposit",
      assetIds: [BTC],
      at,
    },
  },
  {
    type: "DepositCredited",
    data: {
      vaultId,
      vaultAccountId: acct,
      transactionId: "u1",
      blockchain: "bitcoin",
      network: "testnet",
      address: btcAddress,
      fromAddress: "tb1qx",
      assetId: BTC,
      amount: "5000",
      blockHeight: 1,
      blockHash: "00b",
      confirmations: 1,
      vout: 0,
      at,
    },
  },
]

type Draft = Omit<TxRequestDraft, "approvalLevels">
const draft = (over: Partial<Draft> = {}): Draft => ({
  requestId: "r1",
  transactionId: "0xr1",
  vaultId,
  vaultAccountId: acct,
  endpoint: "coin",
  blockchain: "ethereum",
  network: "sepolia",
  assetId: ETH,
  feeAssetId: ETH,
  sender: address,
  recipients: [{ address: "0x3", amount: "5" }],
  feePriority: "slow",
  maxFee: "10",
  feeLimit: null,
  note: null,
  prepareStrategy: null,
  inputs: [],
  change: null,
  reservations: [{ address, assetId: ETH, amount: "15" }],
  ...over,
})
const utxoDraft = (over: Partial<Draft> = {}): Draft =>
  draft({
    blockchain: "bitcoin",
    network: "testnet",
    assetId: BTC,
    feeAssetId: BTC,
    sender: null,
    endpoint: "utxo",
    recipients: [{ address: "tb1qout", amount: "4000" }],
    maxFee: "1000",
    inputs: [{ transactionId: "u1", vout: 0, address: btcAddress, amount: "5000" }],
    reservations: [{ address: btcAddress, assetId: BTC, amount: "5000" }],
    ...over,
  })
const created = (d: Draft, approvalLevels: 0 | 1 | 2): VaultAggregateEvent => ({
  type: "TxRequestCreated",
  data: { ...d, approvalLevels, at },
})
const progressed = (...statuses: ReadonlyArray<"pending" | "prepared" | "signed" | "broadcasted">): Array<VaultAggregateEvent> =>
  statuses.map((status) => ({
    type: "TxRequestProgressed",
    data: { requestId: "r1", vaultId, status, transactionId: status === "broadcasted" ? "0xr1" : null, at },
  }))
const awaiting = [...vault({ mode: "manual", levels: 1 }), created(draft(), 1)]
const broadcasted = [...vault(), created(draft(), 0), ...progressed("pending", "prepared", "signed", "broadcasted")]
const mined = (withErrors = false): TxRequestCommand => ({
  type: "RecordTxMined",
  requestId: "r1",
  blockHeight: 2,
  blockHash: "0xh2",
  fee: "7",
  withErrors,
  debits: [{ address, assetId: ETH, amount: withErrors ? "7" : "12" }],
  credits: [],
  now: at,
})
const minedEvent: VaultAggregateEvent = {
  type: "TxRequestMined",
  data: {
    requestId: "r1",
    vaultId,
    transactionId: "0xr1",
    blockchain: "ethereum",
    network: "sepolia",
    blockHeight: 2,
    blockHash: "0xh2",
    fee: "7",
    withErrors: false,
    releases: [{ address, assetId: ETH, amount: "15" }],
    debits: [{ address, assetId: ETH, amount: "12" }],
    credits: [],
    at,
  },
}
const types = (es: ReadonlyArray<VaultAggregateEvent>) =>
  es.map((e) => (e.type === "NotificationRaised" ? `${e.type}:${e.data.kind}` : e.type))

describe("CreateTxRequest", () => {
  it("with a manual policy the request awaits approval (no progress yet)", () => {
    spec
      .given(vault({ mode: "manual", levels: 2 }))
      .when({ type: "CreateTxRequest", draft: draft(), now: at })
      .then((es) => expect(es).toEqual([created(draft(), 2), expect.objectContaining({ type: "NotificationRaised" })]))
  })
  it("refuses a sender address outside the vault", () => {
    spec
      .given(vault())
      .when({ type: "CreateTxRequest", draft: draft({ sender: "0x4444444444444444444444444444444444444444" }), now: at })
      .thenFails({
        _tag: "SenderNotInVault",
        address: "0x4444444444444444444444444444444444444444",
      })
  })
  it("refuses an asset the sender address does not hold", () => {
    spec
      .given(vault())
      .when({ type: "CreateTxRequest", draft: draft({ assetId: USDC }), now: at })
      .thenFails({ _tag: "AssetNotHeldBySender", address, assetId: USDC })
  })
  it("a UTXO request spends unspent outputs of the vault and records its change address first", () => {
    const change: Extract<VaultAggregateEvent, { type: "AddressDerived" }> = {
      type: "AddressDerived",
      data: {
        vaultId,
        vaultAccountId: null,
        blockchain: "bitcoin",
        network: "testnet",
        address: "tb1qchange",
        derivationPath: "m/84'/1'/0'/1/0",
        change: 1,
        index: 0,
        label: "",
        addressType: "change",
        assetIds: [BTC],
        at,
      },
    }
    spec
      .given(utxoVault)
      .when({ type: "CreateTxRequest", draft: utxoDraft(), changeAddress: change, now: at })
      .then((es) => expect(types(es).slice(0, 2)).toEqual(["AddressDerived", "TxRequestCreated"]))
  })
  it("refuses a UTXO request spending an output another open request spends", () => {
    spec
      .given([...utxoVault, created(utxoDraft({ requestId: "r0" }), 1)])
      .when({ type: "CreateTxRequest", draft: utxoDraft({ reservations: [] }), now: at })
      .thenFails({
        _tag: "InsufficientFunds",
        address: null,
      })
  })
  it("refuses a UTXO request spending an output the vault does not have", () => {
    spec
      .given(utxoVault)
      .when({
        type: "CreateTxRequest",
        draft: utxoDraft({ inputs: [{ transactionId: "u9", vout: 0, address: btcAddress, amount: "5000" }], reservations: [] }),
        now: at,
      })
      .thenFails({
        _tag: "InsufficientFunds",
        needed: "5000",
        available: "0",
      })
  })
})

describe("CreateTxRequest with a fee ceiling (maxFee)", () => {
  const TRX = "trx" as AssetId
  const tronAddress = "TSender"
  const tronVault: Array<VaultAggregateEvent> = [
    ...vault(),
    {
      type: "AddressDerived",
      data: {
        vaultId,
        vaultAccountId: acct,
        blockchain: "tron",
        network: "nile",
        address: tronAddress,
        derivationPath: "m/44'/195'/1'/0/0",
        change: 0,
        index: 0,
        label: "t",
        addressType: "deposit",
        assetIds: [TRX],
        at,
      },
    },
    {
      type: "DepositCredited",
      data: {
        vaultId,
        vaultAccountId: acct,
        transactionId: "t1",
        blockchain: "tron",
        network: "nile",
        address: tronAddress,
        fromAddress: "TX",
        assetId: TRX,
        amount: "10000000",
        blockHeight: 1,
        blockHash: "0b",
        confirmations: 1,
        vout: null,
        at,
      },
    },
  ]
  const tronDraft = (feeCeiling: string) =>
    draft({
      blockchain: "tron",
      network: "nile",
      endpoint: "single-transfer",
      assetId: TRX,
      feeAssetId: TRX,
      sender: tronAddress,
      feePriority: null,
      maxFee: "268000",
      feeCeiling,
      reservations: [{ address: tronAddress, assetId: TRX, amount: "268005" }],
    })

  it("refuses a request whose fee exceeds the ceiling, naming both", () => {
    spec
      .given(vault())
      .when({ type: "CreateTxRequest", draft: draft({ feeCeiling: "9" }), now: at })
      .thenFails({ _tag: "MaxFeeExceeded", fee: "10", maxFee: "9", assetId: ETH })
  })
  it("accepts a fee equal to the ceiling and records the ceiling with the request", () => {
    spec
      .given(vault())
      .when({ type: "CreateTxRequest", draft: draft({ feeCeiling: "10" }), now: at })
      .then((es) => expect(es[0]).toEqual(created(draft({ feeCeiling: "10" }), 0)))
  })
  it("a request without a ceiling records none (logs written before ceilings existed read the same)", () => {
    spec
      .given(vault())
      .when({ type: "CreateTxRequest", draft: draft(), now: at })
      .then((es) => expect(es[0]?.data).not.toHaveProperty("feeCeiling"))
  })
  it("on tron the fee depends on the free bandwidth the sender used: 0 within the allowance, the burn beyond it", () => {
    spec
      .given(tronVault)
      .when({ type: "CreateTxRequest", draft: tronDraft("0"), freeBandwidthUsed: 1072, now: at })
      .then((es) => expect(types(es)[0]).toBe("TxRequestCreated"))
    spec
      .given(tronVault)
      .when({ type: "CreateTxRequest", draft: tronDraft("0"), freeBandwidthUsed: 1340, now: at })
      .thenFails({ _tag: "MaxFeeExceeded", fee: "268000", maxFee: "0" })
  })
  it("on tron a payer's free staked bandwidth pays the whole transaction before the free allowance or a burn", () => {
    spec
      .given(tronVault)
      .when({ type: "CreateTxRequest", draft: tronDraft("0"), freeBandwidthUsed: 1500, staked: { bandwidth: 268, energy: 0 }, now: at })
      .then((es) => expect(types(es)[0]).toBe("TxRequestCreated"))
    spec
      .given(tronVault)
      .when({ type: "CreateTxRequest", draft: tronDraft("0"), freeBandwidthUsed: 1500, staked: { bandwidth: 267, energy: 0 }, now: at })
      .thenFails({ _tag: "MaxFeeExceeded", fee: "268000", maxFee: "0" })
  })
  it("checks the ceiling before the funds: an unaffordable request over its ceiling is refused for the fee", () => {
    spec
      .given(vault())
      .when({
        type: "CreateTxRequest",
        draft: draft({ feeCeiling: "1", reservations: [{ address, assetId: ETH, amount: "5000" }] }),
        now: at,
      })
      .thenFails({ _tag: "MaxFeeExceeded" })
  })
})

describe("ApproveTxRequest", () => {
  it("a one-level approval approves and walks the request to broadcasted", () => {
    spec
      .given(awaiting)
      .when({ type: "ApproveTxRequest", requestId: "r1", now: at })
      .then((es) =>
        expect(types(es)).toEqual([
          "TxRequestApproved",
          "TxRequestProgressed",
          "TxRequestProgressed",
          "TxRequestProgressed",
          "TxRequestProgressed",
          "NotificationRaised:TRANSACTION_APPROVED",
        ]),
      )
  })
  it("refuses a request past approval", () => {
    spec
      .given(broadcasted)
      .when({ type: "ApproveTxRequest", requestId: "r1", now: at })
      .thenFails({ _tag: "IllegalTxTransition", from: "Broadcasted", command: "ApproveTxRequest" })
  })
})

describe("RejectTxRequest", () => {
  it("rejects a request awaiting its second approval", () => {
    const level2 = [
      ...vault({ mode: "manual", levels: 2 }),
      created(draft(), 2),
      { type: "TxRequestApproved" as const, data: { requestId: "r1", vaultId, level: 1 as const, at } },
    ]
    spec
      .given(level2)
      .when({ type: "RejectTxRequest", requestId: "r1", reason: "no", now: at })
      .then((es) =>
        expect(es[0]).toEqual({
          type: "TxRequestRejected",
          data: { requestId: "r1", vaultId, blockchain: "ethereum", network: "sepolia", reason: "no", releases: draft().reservations, at },
        }),
      )
  })
  it("refuses an unknown request", () => {
    spec
      .given(vault())
      .when({ type: "RejectTxRequest", requestId: "r9", reason: "no", now: at })
      .thenFails({ _tag: "TxRequestNotFound", requestId: "r9" })
  })
})

describe("FailTxRequest", () => {
  it("fails a broadcast request and releases its reservation", () => {
    spec
      .given(broadcasted)
      .when({ type: "FailTxRequest", requestId: "r1", reason: "refused", now: at })
      .then([
        {
          type: "TxRequestFailed",
          data: {
            requestId: "r1",
            vaultId,
            blockchain: "ethereum",
            network: "sepolia",
            reason: "refused",
            releases: draft().reservations,
            at,
          },
        },
        expect.objectContaining({ type: "NotificationRaised", data: expect.objectContaining({ kind: "OUTGOING_FAILED" }) }),
      ])
  })
  it("refuses a request still awaiting approval (it is rejected, not failed)", () => {
    spec
      .given(awaiting)
      .when({ type: "FailTxRequest", requestId: "r1", reason: "x", now: at })
      .thenFails({ _tag: "IllegalTxTransition", from: "AwaitingApproval" })
  })
})

describe("RecordTxMined", () => {
  it("records a broadcast request mined: reservation released, amount and fee debited", () => {
    spec
      .given(broadcasted)
      .when(mined())
      .then([
        minedEvent,
        expect.objectContaining({ type: "NotificationRaised", data: expect.objectContaining({ kind: "OUTGOING_MINED" }) }),
      ])
  })
  it("mined with errors (execution failed) raises the failure notification", () => {
    spec
      .given(broadcasted)
      .when(mined(true))
      .then((es) => expect(types(es)).toEqual(["TxRequestMined", "NotificationRaised:OUTGOING_FAILED"]))
  })
  it("refuses mined with errors for a UTXO request: a mined UTXO transaction cannot fail", () => {
    const utxoBroadcasted = [...utxoVault, created(utxoDraft(), 0), ...progressed("pending", "prepared", "signed", "broadcasted")]
    spec.given(utxoBroadcasted).when(mined(true)).thenFails({ _tag: "IllegalTxTransition", from: "Broadcasted", command: "RecordTxMined" })
  })
  it("refuses a request not broadcast yet", () => {
    spec.given(awaiting).when(mined()).thenFails({ _tag: "IllegalTxTransition", from: "AwaitingApproval", command: "RecordTxMined" })
  })
})

describe("RecordTxSucceeded", () => {
  it("a mined request succeeds once confirmed", () => {
    spec
      .given([...broadcasted, minedEvent])
      .when({ type: "RecordTxSucceeded", requestId: "r1", confirmations: 3, now: at })
      .then([{ type: "TxRequestSucceeded", data: { requestId: "r1", vaultId, confirmations: 3, at } }])
  })
  it("refuses a request not mined yet", () => {
    spec
      .given(broadcasted)
      .when({ type: "RecordTxSucceeded", requestId: "r1", confirmations: 3, now: at })
      .thenFails({ _tag: "IllegalTxTransition", from: "Broadcasted", command: "RecordTxSucceeded" })
  })
})
