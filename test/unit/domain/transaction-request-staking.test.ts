// Tron staking requests in the vault aggregate: a freeze reserves the TRX it stakes beside the fee; once mined, the
// stake stays in the address's total but not in what it can spend; a withdraw gives it back; what mining spends.
import { describe, expect, it } from "vitest"
import { assetIdOf, findAsset, findNetwork } from "../../../src/domain/chains/index.js"
import type { TronOperation } from "../../../src/domain/chains/tron-operation.js"
import { availableOf } from "../../../src/domain/ledger/state.js"
import { fold } from "../../../src/domain/shared/decider.js"
import type { AssetId, VaultAccountId, VaultId } from "../../../src/domain/shared/ids.js"
import { simInstant } from "../../../src/domain/shared/sim-time.js"
import { draftOf } from "../../../src/domain/transaction-request/draft.js"
import { spending } from "../../../src/domain/transaction-request/spending.js"
import { vaultDecider, type VaultAggregateEvent } from "../../../src/domain/vault/index.js"
import { deciderSpec } from "../../support/decider-spec.js"

const spec = deciderSpec(vaultDecider)
const at = simInstant(1_000)
const vaultId = "cccccccccccccccccccccccc" as VaultId
const acct = "dddddddddddddddddddddddd" as VaultAccountId
const TRX = assetIdOf("tron", "nile", "TRX") as AssetId
const address = "TPCNEBPYodj4f3cC5fiJVp2cKrGws3mzET"
const nile = findNetwork("tron", "nile")!
const trx = (n: number) => (BigInt(n) * 1_000_000n).toString()

/** A test vault whose tron address holds 3,000 TRX. */
const funded: Array<VaultAggregateEvent> = [
  { type: "VaultCreated", data: { vaultId, name: "v", type: "test", color: "#000000", backuped: false, at } },
  {
    type: "VaultAccountCreated",
    data: { vaultId, vaultAccountId: acct, ordinal: 1, name: "a", color: "#000000", isHiddenInDashboard: false, at },
  },
  {
    type: "AddressDerived",
    data: {
      vaultId,
      vaultAccountId: acct,
      blockchain: "tron",
      network: "nile",
      address,
      derivationPath: "m/44'/195'/1'/0/0",
      change: 0,
      index: 0,
      label: "t",
      addressType: "deposit",
      assetIds: [],
      at,
    },
  },
  { type: "AssetAdded", data: { vaultId, vaultAccountId: acct, assetId: TRX, blockchain: "tron", network: "nile", address, at } },
  {
    type: "DepositCredited",
    data: {
      vaultId,
      vaultAccountId: acct,
      transactionId: "d1",
      blockchain: "tron",
      network: "nile",
      address,
      fromAddress: "x",
      assetId: TRX,
      amount: trx(3_000),
      blockHeight: 1,
      blockHash: "b",
      confirmations: 1,
      vout: null,
      at,
    },
  },
]

const stateOf = (events: ReadonlyArray<VaultAggregateEvent>) => fold(vaultDecider.evolve, vaultDecider.initialState, events)
const draft = (operation: TronOperation, requestId = "r1") => {
  const s = stateOf(funded)
  const input = {
    vaultId,
    endpoint: "manage-resource" as const,
    network: nile,
    asset: findAsset(TRX)!,
    sender: address,
    recipients: [],
    feePriority: null,
    feeLimit: null,
    note: null,
    prepareStrategy: null,
    operation,
  }
  return draftOf(s._tag === "Active" ? s : undefined, input, requestId, `tx-${requestId}`, null)
}
const freeze: TronOperation = { type: "freeze", resource: "energy", amount: trx(1_000) }
const created = (operation: TronOperation, requestId = "r1"): VaultAggregateEvent => ({
  type: "TxRequestCreated",
  data: { ...draft(operation, requestId), approvalLevels: 1, at },
})
const minedFreeze: VaultAggregateEvent = {
  type: "TxRequestMined",
  data: {
    requestId: "r1",
    vaultId,
    transactionId: "tx-r1",
    blockchain: "tron",
    network: "nile",
    blockHeight: 2,
    blockHash: "b2",
    fee: "0",
    withErrors: false,
    freeBandwidth: 282,
    releases: draft(freeze).reservations,
    debits: [],
    credits: [],
    stakes: [{ address, assetId: TRX, amount: trx(1_000) }],
    at,
  },
}
const available = (events: ReadonlyArray<VaultAggregateEvent>) => {
  const s = stateOf(events)
  return s._tag === "Active" ? availableOf(s.ledger, "tron", "nile", address, TRX) : -1n
}
const awaiting = (operation: TronOperation) => [
  ...funded,
  { type: "VaultApprovalPolicySet" as const, data: { vaultId, mode: "manual" as const, levels: 1 as const, at } },
  created(operation),
]

describe("tron staking requests", () => {
  it("a freeze reserves the TRX it stakes plus the most its bandwidth may burn, and carries its operation", () => {
    spec
      .given(funded)
      .when({ type: "CreateTxRequest", draft: draft(freeze), now: at })
      .then((es) => {
        const c = es.find((e) => e.type === "TxRequestCreated")!
        expect(c.data).toMatchObject({
          endpoint: "manage-resource",
          operation: freeze,
          recipients: [],
          maxFee: "282000",
          reservations: [{ address, assetId: TRX, amount: (BigInt(trx(1_000)) + 282_000n).toString() }],
        })
      })
  })
  it("refuses a freeze the available TRX cannot cover", () => {
    spec
      .given(funded)
      .when({ type: "CreateTxRequest", draft: draft({ ...freeze, amount: trx(3_000) }), now: at })
      .thenFails({ _tag: "InsufficientFunds", needed: (BigInt(trx(3_000)) + 282_000n).toString() })
  })
  it("mined, the stake is recorded and leaves what can be spent; the total keeps it", () => {
    const given = awaiting(freeze)
    spec
      .given([
        ...given,
        { type: "TxRequestApproved", data: { requestId: "r1", vaultId, level: 1, at } },
        ...["pending", "prepared", "signed", "broadcasted"].map((status) => ({
          type: "TxRequestProgressed" as const,
          data: { requestId: "r1", vaultId, status: status as "pending", transactionId: status === "broadcasted" ? "tx-r1" : null, at },
        })),
      ])
      .when({
        type: "RecordTxMined",
        requestId: "r1",
        blockHeight: 2,
        blockHash: "b2",
        fee: "0",
        withErrors: false,
        freeBandwidth: 282,
        debits: [],
        credits: [],
        stakes: [{ address, assetId: TRX, amount: trx(1_000) }],
        now: at,
      })
      .then((es) => expect(es[0]).toEqual(minedFreeze))
    expect(available([...given, minedFreeze])).toBe(BigInt(trx(2_000)))
  })
  it("a withdraw's unstake gives the TRX back to what can be spent", () => {
    const unstaked: VaultAggregateEvent = {
      ...minedFreeze,
      data: {
        ...minedFreeze.data,
        requestId: "r2",
        transactionId: "tx-r2",
        releases: [],
        stakes: undefined,
        unstakes: [{ address, assetId: TRX, amount: trx(400) }],
      } as never,
    }
    expect(available([...awaiting(freeze), minedFreeze, unstaked])).toBe(BigInt(trx(2_400)))
  })
})

describe("what mining a staking request spends", () => {
  it("a freeze stakes its amount and burns nothing when the free bandwidth covers it", () => {
    expect(spending(nile, { ...draft(freeze), approvalLevels: 0 }, false, 0, { bandwidth: 0, energy: 0 })).toEqual({
      fee: 0n,
      withErrors: false,
      debits: [],
      credits: [],
      freeBandwidth: 282,
      stakes: [{ address, assetId: TRX, amount: trx(1_000) }],
    })
  })
  it("with the free bandwidth used up it burns 1,000 SUN a unit; a withdraw unstakes what the chain returned", () => {
    const withdraw = { ...draft({ type: "withdraw" }), approvalLevels: 0 as const }
    expect(spending(nile, withdraw, false, 1_400, { bandwidth: 0, energy: 0, withdrawn: trx(400) })).toMatchObject({
      fee: 282_000n,
      debits: [{ address, assetId: TRX, amount: "282000" }],
      unstakes: [{ address, assetId: TRX, amount: trx(400) }],
    })
  })
  it("staked bandwidth pays the whole transaction, and a failed execution stakes nothing", () => {
    expect(spending(nile, { ...draft(freeze), approvalLevels: 0 }, false, 1_500, { bandwidth: 282, energy: 0 })).toMatchObject({
      fee: 0n,
      freeBandwidth: 0,
    })
    expect(spending(nile, { ...draft(freeze), approvalLevels: 0 }, false, 0, { bandwidth: 0, energy: 0, failed: "REVERT" })).toMatchObject({
      withErrors: true,
      fee: 0n,
    })
    expect(
      spending(nile, { ...draft(freeze), approvalLevels: 0 }, false, 0, { bandwidth: 0, energy: 0, failed: "REVERT" }),
    ).not.toHaveProperty("stakes")
  })
})
