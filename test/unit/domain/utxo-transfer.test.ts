// CreateUtxoTransfer in the vault aggregate: named inputs checked against this revision (the vault's, unspent, held by
// no open request), the fee from the chain's rate and the size, the change where asked, gross, a fee payer, maxFee.
import { describe, expect, it } from "vitest"
import { findNetwork } from "../../../src/domain/chains/index.js"
import type { AssetId, VaultAccountId, VaultId } from "../../../src/domain/shared/ids.js"
import type { ChangeTarget, UtxoTransferRequest } from "../../../src/domain/transaction-request/explicit-inputs.js"
import { utxoFeePreview, type MultipleTransferRequest } from "../../../src/domain/transaction-request/coin-selection.js"
import { fold } from "../../../src/domain/shared/decider.js"
import { vaultDecider, type VaultAggregateEvent } from "../../../src/domain/vault/index.js"
import { deciderSpec } from "../../support/decider-spec.js"
import { at } from "../../support/funded-vault.js"

const spec = deciderSpec(vaultDecider)
const n = findNetwork("bitcoin", "testnet")!
const BTC = n.nativeAssetId as AssetId
const vaultId = "cccccccccccccccccccccccc" as VaultId
const alice = "dddddddddddddddddddddddd" as VaultAccountId
const bob = "eeeeeeeeeeeeeeeeeeeeeeee" as VaultAccountId
const A = "tb1qalice0000000000000000000000000000000"
const B = "tb1qbob000000000000000000000000000000000"
const OUT = "tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx"
// testnet standard: 2 sat/vB × (11 + 68 per input + 31 per output)
const fee = (inputs: number, outputs: number) => 2n * BigInt(11 + 68 * inputs + 31 * outputs)

const address = (vaultAccountId: VaultAccountId, a: string, ordinal: number): Array<VaultAggregateEvent> => [
  { type: "VaultAccountCreated", data: { vaultId, vaultAccountId, ordinal, name: a, color: "#000000", isHiddenInDashboard: false, at } },
  {
    type: "AddressDerived",
    data: {
      vaultId,
      vaultAccountId,
      blockchain: "bitcoin",
      network: "testnet",
      address: a,
      derivationPath: `m/84'/1'/${ordinal}'/0/0`,
      change: 0,
      index: 0,
      label: "x",
      addressType: "deposit",
      assetIds: [BTC],
      at,
    },
  },
]
const credit = (vaultAccountId: VaultAccountId, a: string, txid: string, amount: string): VaultAggregateEvent => ({
  type: "DepositCredited",
  data: {
    vaultId,
    vaultAccountId,
    transactionId: txid,
    blockchain: "bitcoin",
    network: "testnet",
    address: a,
    fromAddress: OUT,
    assetId: BTC,
    amount,
    blockHeight: 1,
    blockHash: "h",
    confirmations: 1,
    vout: 0,
    at,
  },
})
const world = (policy: "auto" | "manual" = "auto"): Array<VaultAggregateEvent> => [
  { type: "VaultCreated", data: { vaultId, name: "v", type: "test", color: "#000000", backuped: true, at } },
  ...(policy === "manual"
    ? [{ type: "VaultApprovalPolicySet" as const, data: { vaultId, mode: "manual" as const, levels: 1 as const, at } }]
    : []),
  ...address(alice, A, 1),
  ...address(bob, B, 2),
  credit(alice, A, "t1", "100000"),
  credit(bob, B, "t2", "50000"),
  credit(bob, B, "t3", "2000"),
]

const request = (over: Partial<UtxoTransferRequest> = {}): UtxoTransferRequest => ({
  vaultId,
  network: n,
  utxoIds: ["t1:0"],
  recipients: [{ address: OUT, amount: 40000n }],
  feePriority: "standard",
  maxFee: null,
  gross: false,
  change: { kind: "default" } as ChangeTarget,
  note: "n",
  ...over,
})
const create = (over: Partial<UtxoTransferRequest> = {}, requestId = "r1") => ({
  type: "CreateUtxoTransfer" as const,
  request: request(over),
  requestId,
  transactionId: `tx${requestId}`,
  now: at,
})
const created = (es: ReadonlyArray<VaultAggregateEvent>) => es.find((e) => e.type === "TxRequestCreated")!.data as any

describe("CreateUtxoTransfer", () => {
  it("spends the named outputs of two accounts, reserves them, and returns the change to the first input's address", () => {
    spec
      .given(world())
      .when(create({ utxoIds: ["t1:0", "t2:0"], recipients: [{ address: OUT, amount: 120000n }] }))
      .then((es) => {
        const d = created(es)
        expect(d).toMatchObject({
          endpoint: "utxo-transfer",
          sender: null,
          vaultAccountId: null,
          maxFee: fee(2, 2).toString(),
          inputs: [
            { transactionId: "t1", vout: 0, address: A, amount: "100000" },
            { transactionId: "t2", vout: 0, address: B, amount: "50000" },
          ],
          change: { address: A, amount: (30000n - fee(2, 2)).toString() },
          reservations: [
            { address: A, amount: "100000" },
            { address: B, amount: "50000" },
          ],
        })
        expect(es.map((e) => e.type)).toContain("TxRequestProgressed")
      })
  })

  it("refuses an output that is unknown, spent, or held by an open request: two requests cannot spend one output", () => {
    spec
      .given(world())
      .when(create({ utxoIds: ["nope:0"] }))
      .thenFails({ _tag: "UtxoNotFound", utxoId: "nope:0" })
    const held = [...world("manual"), { type: "TxRequestCreated" as const, data: { ...created(decided(world("manual"), create())), at } }]
    spec.given(held).when(create({}, "r2")).thenFails({ _tag: "UtxoReserved", utxoId: "t1:0" })
    const mined: VaultAggregateEvent = {
      type: "TxRequestMined",
      data: {
        requestId: "r1",
        vaultId,
        transactionId: "txr1",
        blockchain: "bitcoin",
        network: "testnet",
        blockHeight: 2,
        blockHash: "h2",
        fee: "10",
        withErrors: false,
        releases: [],
        debits: [],
        credits: [],
        at,
      },
    }
    spec
      .given([...held, mined])
      .when(create({}, "r3"))
      .thenFails({ _tag: "UtxoSpent", utxoId: "t1:0" })
  })

  it("refuses too little and a fee above maxFee; with no room for change the leftover is the fee", () => {
    spec
      .given(world())
      .when(create({ utxoIds: ["t3:0"], recipients: [{ address: OUT, amount: 1900n }] }))
      .thenFails({ _tag: "InsufficientFunds" })
    spec
      .given(world())
      .when(create({ maxFee: fee(1, 2) - 1n }))
      .thenFails({ _tag: "MaxFeeExceeded", fee: fee(1, 2).toString() })
    spec
      .given(world())
      .when(create({ maxFee: fee(1, 2) }))
      .then((es) => expect(created(es).maxFee).toBe(fee(1, 2).toString()))
    spec
      .given(world())
      .when(create({ recipients: [{ address: OUT, amount: 100000n - fee(1, 1) - 10n }] }))
      .then((es) => expect(created(es)).toMatchObject({ change: null, maxFee: (fee(1, 1) + 10n).toString() }))
  })

  it("gross: the recipients pay the fee in equal shares; a share larger than an amount is refused", () => {
    spec
      .given(world())
      .when(
        create({
          gross: true,
          recipients: [
            { address: OUT, amount: 60000n },
            { address: OUT, amount: 40000n },
          ],
        }),
      )
      .then((es) => {
        const f = fee(1, 2)
        expect(created(es)).toMatchObject({
          change: null,
          maxFee: f.toString(),
          recipients: [{ amount: (60000n - f / 2n).toString() }, { amount: (40000n - f / 2n).toString() }],
        })
      })
    spec
      .given(world())
      .when(create({ gross: true, recipients: [{ address: OUT, amount: 10n }] }))
      .thenFails({ _tag: "GrossFeeExceedsAmount", recipient: 0 })
  })

  it("a fee payer adds its smallest sufficient output and takes the change; an address outside the vault is refused", () => {
    spec
      .given(world())
      .when(create({ recipients: [{ address: OUT, amount: 100000n }], change: { kind: "feePayer", address: B } }))
      .then((es) => {
        const d = created(es)
        expect(d.inputs.map((i: { transactionId: string }) => i.transactionId)).toEqual(["t1", "t3"])
        expect(d.change).toEqual({ address: B, amount: (2000n - fee(2, 2)).toString() })
      })
    spec
      .given(world())
      .when(create({ change: { kind: "feePayer", address: OUT } }))
      .thenFails({ _tag: "FeePayerNotInVault" })
    spec
      .given(world())
      .when(create({ change: { kind: "address", address: OUT } }))
      .thenFails({ _tag: "ChangeAddressNotInVault" })
    spec
      .given(world())
      .when(create({ change: { kind: "account", vaultAccountId: "ffffffffffffffffffffffff" } }))
      .thenFails({ _tag: "ChangeAccountNotFound" })
  })

  it("changeData.vaultAccountId: the account's address on the chain, or the derived one registered with the request", () => {
    spec
      .given(world())
      .when(create({ change: { kind: "account", vaultAccountId: bob } }))
      .then((es) => expect(created(es).change.address).toBe(B))
    const derived: Extract<VaultAggregateEvent, { type: "AddressDerived" }> = {
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
        label: "change",
        addressType: "change",
        assetIds: [BTC],
        at,
      },
    }
    spec
      .given(world())
      .when({ ...create({ change: { kind: "account", vaultAccountId: vaultId } }), changeAddress: derived })
      .then((es) => {
        expect(es[0]).toEqual(derived)
        expect(created(es).change.address).toBe("tb1qchange")
      })
  })
})

const decided = (given: ReadonlyArray<VaultAggregateEvent>, c: ReturnType<typeof create>): ReadonlyArray<VaultAggregateEvent> => {
  let out: ReadonlyArray<VaultAggregateEvent> = []
  spec
    .given(given)
    .when(c)
    .then((es) => {
      out = es
    })
  return out
}

describe("CreateMultipleTransfer and utxoFeePreview", () => {
  const changeOf = (vaultAccountId: VaultAccountId): Extract<VaultAggregateEvent, { type: "AddressDerived" }> => ({
    type: "AddressDerived",
    data: {
      vaultId,
      vaultAccountId,
      blockchain: "bitcoin",
      network: "testnet",
      address: "tb1qnewchange",
      derivationPath: "m/84'/1'/2'/1/0",
      change: 1,
      index: 0,
      label: "change",
      addressType: "change",
      assetIds: [BTC],
      at,
    },
  })
  const terms = (over: Partial<MultipleTransferRequest> = {}): MultipleTransferRequest => ({
    vaultId,
    vaultAccountId: bob,
    network: n,
    recipients: [{ address: OUT, amount: 1000n }],
    feePriority: "standard",
    prepareStrategy: "minimize-dust",
    maxFee: null,
    gross: false,
    note: "m",
    ...over,
  })
  const multiple = (over: Partial<MultipleTransferRequest> = {}) => ({
    type: "CreateMultipleTransfer" as const,
    request: terms(over),
    requestId: "m1",
    transactionId: "txm1",
    changeAddress: changeOf(bob),
    now: at,
  })

  it("minimize-dust adds the account's smallest outputs first, optimize-size the largest; the change address is registered with it", () => {
    spec
      .given(world())
      .when(multiple({ recipients: [{ address: OUT, amount: 1000n }] }))
      .then((es) => {
        expect(es[0]).toEqual(changeOf(bob))
        expect(created(es)).toMatchObject({
          endpoint: "multiple-transfer",
          prepareStrategy: "minimize-dust",
          inputs: [{ transactionId: "t3" }],
          change: { address: "tb1qnewchange", amount: (1000n - fee(1, 2)).toString() },
        })
      })
    spec
      .given(world())
      .when(multiple({ prepareStrategy: "optimize-size" }))
      .then((es) => expect(created(es).inputs.map((i: { transactionId: string }) => i.transactionId)).toEqual(["t2"]))
    spec
      .given(world())
      .when(multiple({ recipients: [{ address: OUT, amount: 51000n }] }))
      .then((es) => expect(created(es).inputs).toHaveLength(2))
  })

  it("spends only that account's outputs, never one an open request holds, and refuses a fee above maxFee", () => {
    spec
      .given(world())
      .when(multiple({ recipients: [{ address: OUT, amount: 60000n }] }))
      .thenFails({ _tag: "InsufficientFunds" })
    const held = [
      ...world("manual"),
      {
        type: "TxRequestCreated" as const,
        data: { ...created(decided(world("manual"), create({ utxoIds: ["t3:0"], recipients: [{ address: OUT, amount: 1000n }] }))), at },
      },
    ]
    spec
      .given(held)
      .when(multiple())
      .then((es) => expect(created(es).inputs.map((i: { transactionId: string }) => i.transactionId)).toEqual(["t2"]))
    spec
      .given(world())
      .when(multiple({ maxFee: 1n }))
      .thenFails({ _tag: "MaxFeeExceeded" })
  })

  it("utxoFeePreview answers the fee the transfer records, for the same state", () => {
    for (const over of [
      {},
      { prepareStrategy: "optimize-size" as const },
      { recipients: [{ address: OUT, amount: 51000n }] },
      { gross: true, recipients: [{ address: OUT, amount: 2000n }] },
    ]) {
      const preview = utxoFeePreview(fold(vaultDecider.evolve, vaultDecider.initialState, world()) as never, terms(over))
      spec
        .given(world())
        .when(multiple(over))
        .then((es) => expect("_tag" in preview ? preview : preview.fee.toString()).toBe(created(es).maxFee))
    }
  })
})
