// Transaction requests in the vault aggregate: reservation against available funds, approvals, the status machine.
import { describe, expect, it } from "vitest"
import type { TxRequestDraft } from "../../../src/domain/transaction-request/index.js"
import { vaultDecider, type VaultAggregateEvent } from "../../../src/domain/vault/index.js"
import { deciderSpec } from "../../support/decider-spec.js"
import { acct, address, at, ETH, fundedVault, vaultId } from "../../support/funded-vault.js"

const spec = deciderSpec(vaultDecider)

const funded = fundedVault

const draft = (amount: string, requestId = "r1"): Omit<TxRequestDraft, "approvalLevels"> => ({
  requestId,
  transactionId: `0x${requestId}`,
  vaultId,
  vaultAccountId: acct,
  endpoint: "coin",
  blockchain: "ethereum",
  network: "sepolia",
  assetId: ETH,
  feeAssetId: ETH,
  sender: address,
  recipients: [{ address: "0x3", amount }],
  feePriority: "slow",
  maxFee: "10",
  feeLimit: null,
  note: null,
  prepareStrategy: null,
  inputs: [],
  change: null,
  reservations: [{ address, assetId: ETH, amount: String(BigInt(amount) + 10n) }],
})

const create = (amount: string, requestId = "r1") => ({ type: "CreateTxRequest" as const, draft: draft(amount, requestId), now: at })
const types = (es: ReadonlyArray<VaultAggregateEvent>) =>
  es.map((e) =>
    e.type === "TxRequestProgressed" ? `${e.type}:${e.data.status}` : e.type === "NotificationRaised" ? `${e.type}:${e.data.kind}` : e.type,
  )

describe("transaction requests", () => {
  it("with the auto policy: created, then pending → prepared → signed → broadcasted, with notifications", () => {
    spec
      .given(funded())
      .when(create("500"))
      .then((es) =>
        expect(types(es)).toEqual([
          "TxRequestCreated",
          "TxRequestProgressed:pending",
          "TxRequestProgressed:prepared",
          "TxRequestProgressed:signed",
          "TxRequestProgressed:broadcasted",
          "NotificationRaised:TRANSACTION_REQUEST",
          "NotificationRaised:TRANSACTION_APPROVED",
        ]),
      )
  })
  it("refuses a request whose amount plus maximum fee exceeds what is available, counting open reservations", () => {
    spec.given(funded()).when(create("991")).thenFails({ _tag: "InsufficientFunds", needed: "1001", available: "1000" })
    const opened = [
      ...funded({ mode: "manual", levels: 1 }),
      { type: "TxRequestCreated" as const, data: { ...draft("600"), approvalLevels: 1 as const, at } },
    ]
    spec.given(opened).when(create("400", "r2")).thenFails({ _tag: "InsufficientFunds", available: "390" })
    spec
      .given(opened)
      .when(create("380", "r2"))
      .then((es) => expect(types(es)[0]).toBe("TxRequestCreated"))
  })
  it("two approval levels: the first approval moves to level two, the second broadcasts", () => {
    const awaiting = [
      ...funded({ mode: "manual", levels: 2 }),
      { type: "TxRequestCreated" as const, data: { ...draft("5"), approvalLevels: 2 as const, at } },
    ]
    spec
      .given(awaiting)
      .when({ type: "ApproveTxRequest", requestId: "r1", now: at })
      .then((es) => expect(types(es)).toEqual(["TxRequestApproved"]))
    const level2 = [...awaiting, { type: "TxRequestApproved" as const, data: { requestId: "r1", vaultId, level: 1 as const, at } }]
    spec
      .given(level2)
      .when({ type: "ApproveTxRequest", requestId: "r1", now: at })
      .then((es) =>
        expect(types(es)).toEqual([
          "TxRequestApproved",
          "TxRequestProgressed:pending",
          "TxRequestProgressed:prepared",
          "TxRequestProgressed:signed",
          "TxRequestProgressed:broadcasted",
          "NotificationRaised:TRANSACTION_APPROVED",
        ]),
      )
  })
  it("rejection is only for requests awaiting approval; it releases the reservation", () => {
    const awaiting = [
      ...funded({ mode: "manual", levels: 1 }),
      { type: "TxRequestCreated" as const, data: { ...draft("5"), approvalLevels: 1 as const, at } },
    ]
    spec
      .given(awaiting)
      .when({ type: "RejectTxRequest", requestId: "r1", reason: "no", now: at })
      .then((es) => {
        expect(types(es)).toEqual(["TxRequestRejected", "NotificationRaised:TRANSACTION_REJECTED"])
        expect(es[0]).toMatchObject({ data: { releases: [{ address, assetId: ETH, amount: "15" }] } })
      })
    spec
      .given(funded())
      .when(create("5"))
      .then(() => {})
    spec
      .given([...funded(), ...autoCreated()])
      .when({ type: "RejectTxRequest", requestId: "r1", reason: "no", now: at })
      .thenFails({ _tag: "IllegalTxTransition", from: "Broadcasted" })
  })
  it("a terminal request refuses every command", () => {
    const done = [
      ...funded(),
      ...autoCreated(),
      {
        type: "TxRequestMined" as const,
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
          releases: [],
          debits: [],
          credits: [],
          at,
        },
      },
      { type: "TxRequestSucceeded" as const, data: { requestId: "r1", vaultId, confirmations: 2, at } },
    ]
    for (const c of [
      { type: "ApproveTxRequest" as const, requestId: "r1", now: at },
      { type: "RejectTxRequest" as const, requestId: "r1", reason: "x", now: at },
      { type: "FailTxRequest" as const, requestId: "r1", reason: "x", now: at },
      { type: "RecordTxSucceeded" as const, requestId: "r1", confirmations: 3, now: at },
    ])
      spec.given(done).when(c).thenFails({ _tag: "IllegalTxTransition", from: "Success" })
  })
  it("an unknown request is TxRequestNotFound", () => {
    spec.given(funded()).when({ type: "ApproveTxRequest", requestId: "nope", now: at }).thenFails({ _tag: "TxRequestNotFound" })
  })
})

const autoCreated = (): Array<VaultAggregateEvent> => [
  { type: "TxRequestCreated", data: { ...draft("5"), approvalLevels: 0, at } },
  ...(["pending", "prepared", "signed", "broadcasted"] as const).map((status) => ({
    type: "TxRequestProgressed" as const,
    data: { requestId: "r1", vaultId, status, transactionId: status === "broadcasted" ? "0xr1" : null, at },
  })),
]
