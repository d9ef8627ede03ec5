// Ledger decider (a part of the vault aggregate): a confirmed deposit is credited once, and only to an address
// that holds its asset; one of an asset not held waits (the spec's retroactive rule).
import { describe, expect, it } from "vitest"
import type { LedgerCommand } from "../../../src/domain/ledger/index.js"
import type { AssetId, VaultAccountId, VaultId } from "../../../src/domain/shared/ids.js"
import { simInstant } from "../../../src/domain/shared/sim-time.js"
import { vaultDecider, type VaultAggregateEvent } from "../../../src/domain/vault/index.js"
import { deciderSpec } from "../../support/decider-spec.js"

const spec = deciderSpec(vaultDecider)
const at = simInstant(1_000)
const vaultId = "aaaaaaaaaaaaaaaaaaaaaaaa" as VaultId
const acct = "bbbbbbbbbbbbbbbbbbbbbbbb" as VaultAccountId
const ETH = "eth" as AssetId
const USDC = "usdc" as AssetId
const address = "0x1111111111111111111111111111111111111111"

const held: ReadonlyArray<VaultAggregateEvent> = [
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
      blockchain: "ethereum",
      network: "sepolia",
      address,
      derivationPath: "m/44'/60'/1'/0/0",
      change: 0,
      index: 0,
      label: "x",
      addressType: "deposit",
      assetIds: [],
      at,
    },
  },
  { type: "AssetAdded", data: { vaultId, vaultAccountId: acct, assetId: ETH, blockchain: "ethereum", network: "sepolia", address, at } },
]
type Deposit = LedgerCommand["deposits"][number]
const deposit = (transactionId: string, over: Partial<Deposit> = {}): Deposit => ({
  vaultId,
  vaultAccountId: acct,
  transactionId,
  blockchain: "ethereum",
  network: "sepolia",
  address,
  fromAddress: "0x2",
  assetId: ETH,
  amount: "1500",
  blockHeight: 3,
  blockHash: "0xb3",
  confirmations: 2,
  vout: null,
  assetType: "COIN",
  unit: "ETH",
  decimalsAmount: "0.0000000000000015",
  ...over,
})
const credit = (...deposits: ReadonlyArray<Deposit>): LedgerCommand => ({ type: "CreditDeposits", deposits, now: at })
const credited = (d: Deposit): VaultAggregateEvent => {
  const { assetType: _t, unit: _u, decimalsAmount: _a, ...facts } = d
  return { type: "DepositCredited", data: { ...facts, at } }
}
const notified = (d: Deposit, kind: "INCOMING_CONFIRMED_COIN_TX" | "INCOMING_CONFIRMED_TOKEN_TX"): VaultAggregateEvent => ({
  type: "NotificationRaised",
  data: {
    vaultId,
    kind,
    subject: d.transactionId,
    at,
    payload: {
      blockchain: "ethereum",
      network: "sepolia",
      address,
      amount: d.decimalsAmount,
      unit: d.unit,
      transactionId: d.transactionId,
      minedInBlockHeight: d.blockHeight,
      minedInBlockHash: d.blockHash,
      currentConfirmations: d.confirmations,
      targetConfirmations: d.confirmations,
    },
  },
})

describe("ledger: CreditDeposits", () => {
  it("credits a confirmed coin deposit to the address holding it, with its notification", () => {
    const d = deposit("0xd1")
    spec
      .given(held)
      .when(credit(d))
      .then([credited(d), notified(d, "INCOMING_CONFIRMED_COIN_TX")])
  })
  it("a token deposit raises the token notification", () => {
    const d = deposit("0xd2", { assetId: USDC, assetType: "TOKEN", unit: "USDC", decimalsAmount: "0.0015" })
    const withUsdc: ReadonlyArray<VaultAggregateEvent> = [
      ...held,
      {
        type: "AssetAdded",
        data: { vaultId, vaultAccountId: acct, assetId: USDC, blockchain: "ethereum", network: "sepolia", address, at },
      },
    ]
    spec
      .given(withUsdc)
      .when(credit(d))
      .then([credited(d), notified(d, "INCOMING_CONFIRMED_TOKEN_TX")])
  })
  it("a deposit credited already is not credited again", () => {
    const d = deposit("0xd1")
    spec
      .given([...held, credited(d)])
      .when(credit(d))
      .then([])
  })
  it("a deposit listed twice in one command is credited once", () => {
    const d = deposit("0xd1")
    spec
      .given(held)
      .when(credit(d, d))
      .then([credited(d), notified(d, "INCOMING_CONFIRMED_COIN_TX")])
  })
  it("outputs of one transaction are credited each (UTXO: keyed by transaction and output)", () => {
    const a = deposit("0xd1", { vout: 0 })
    const b = deposit("0xd1", { vout: 1 })
    spec
      .given(held)
      .when(credit(a, b))
      .then((events) => expect(events.flatMap((e) => (e.type === "DepositCredited" ? [e.data.vout] : []))).toEqual([0, 1]))
  })
  it("a deposit of an asset the address does not hold waits: nothing is credited", () => {
    spec
      .given(held)
      .when(credit(deposit("0xd3", { assetId: USDC, assetType: "TOKEN" })))
      .then([])
  })
  it("a deposit to an address outside the vault is not credited", () => {
    spec
      .given(held)
      .when(credit(deposit("0xd4", { address: "0x9999999999999999999999999999999999999999" })))
      .then([])
  })
  it("refuses a vault that does not exist", () => {
    spec
      .given([])
      .when(credit(deposit("0xd1")))
      .thenFails({ _tag: "VaultNotFound" })
  })
})
