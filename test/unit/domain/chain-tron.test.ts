// Chain decider on tron: Stake 2.0 operations validated at broadcast and executed when mined, staked bandwidth and
// energy consumed by transfers and regenerating over 24 hours, TRC-20 allowances.
import { describe, expect, it } from "vitest"
import { chainDecider, type ChainEvent, type ChainTransfer } from "../../../src/chain-sim/index.js"
import { type TronOperation, UINT256_MAX } from "../../../src/chain-sim/tron.js"
import { assetIdOf } from "../../../src/domain/chains/index.js"
import { simInstant } from "../../../src/domain/shared/sim-time.js"
import { deciderSpec } from "../../support/decider-spec.js"

const chain = "tron.nile"
const spec = deciderSpec(chainDecider(chain))
const T = simInstant(1_000_000)
const DAY = 86_400_000
const hash = (h: number) => `hash-${h}`
const TRX = assetIdOf("tron", "nile", "TRX")
const USDT = assetIdOf("tron", "nile", "USDT")
const defaults = { mode: "auto" as const, intervalSeconds: 3, confirmations: 19 }
const trx = (n: number) => (BigInt(n) * 1_000_000n).toString()

const configured = (mode: "auto" | "manual", anchorHeight = 0, at = T): ChainEvent => ({
  type: "ChainConfigured",
  data: { chain, mode, intervalSeconds: 3, confirmations: 19, anchorHeight, anchorAt: at, at },
})
const transfer = (id: string, extra: Partial<ChainTransfer> = {}): ChainTransfer => ({
  transactionId: id,
  recordId: `r-${id}`,
  kind: "withdrawal",
  assetId: TRX,
  from: "alice",
  to: "bob",
  amount: "1",
  fee: "268000",
  vout: null,
  ...extra,
})
const op = (id: string, operation: TronOperation, from = "alice"): ChainTransfer => transfer(id, { from, to: from, amount: "0", operation })
const submit = (t: ChainTransfer, now = T) => ({ type: "SubmitTx" as const, defaults, transfer: t, blockHash: hash, now })
/** A transaction submitted and mined alone at `height` and time `at`, with its execution as recorded. */
const mined = (
  t: ChainTransfer,
  height: number,
  at: number,
  execution?: Partial<Extract<ChainEvent, { type: "ChainTxExecuted" }>["data"]>,
): Array<ChainEvent> => [
  { type: "ChainTxSubmitted", data: { ...t, chain, at: simInstant(at) } },
  {
    type: "ChainBlocksMined",
    data: {
      chain,
      fromHeight: height,
      toHeight: height,
      blockHash: hash(height),
      transactionIds: [t.transactionId],
      blockAt: simInstant(at),
      at: simInstant(at),
    },
  },
  ...(execution !== undefined
    ? [
        {
          type: "ChainTxExecuted" as const,
          data: {
            transactionId: t.transactionId,
            address: t.from,
            payer: t.feePayer ?? t.from,
            bandwidth: 0,
            energy: 0,
            height,
            blockAt: at,
            chain,
            at: simInstant(at),
            ...execution,
          },
        },
      ]
    : []),
]
const executedOf = (events: ReadonlyArray<ChainEvent>) => events.flatMap((e) => (e.type === "ChainTxExecuted" ? [e.data] : []))
const freeze = (resource: "bandwidth" | "energy", amount: string): TronOperation => ({ type: "freeze", resource, amount })
/** alice froze 1,000 TRX for bandwidth (1,000 units a day) and 10,000 TRX for energy (100,000 units a day). */
const staked: Array<ChainEvent> = [
  configured("auto"),
  ...mined(op("f1", freeze("bandwidth", trx(1_000))), 1, T, { operation: freeze("bandwidth", trx(1_000)) }),
  ...mined(op("f2", freeze("energy", trx(10_000))), 2, T, { operation: freeze("energy", trx(10_000)) }),
]

describe("tron: transfers and resources", () => {
  it("a transfer from an address that never staked records nothing beyond the transfer and its block", () => {
    spec
      .given([configured("auto")])
      .when(submit(transfer("t1")))
      .then((events) => expect(events.map((e) => e.type)).toEqual(["ChainTxSubmitted", "ChainBlocksMined"]))
  })
  it("a freeze executes when mined (no staked bandwidth yet: the free allowance or a burn pays it)", () => {
    spec
      .given([configured("auto")])
      .when(submit(op("f1", freeze("energy", trx(5)))))
      .then((events) =>
        expect(executedOf(events)).toEqual([
          {
            transactionId: "f1",
            address: "alice",
            payer: "alice",
            bandwidth: 0,
            energy: 0,
            operation: freeze("energy", trx(5)),
            height: 1,
            blockAt: T,
            chain,
            at: T,
          },
        ]),
      )
  })
  it("a staked sender's TRX transfer takes its whole bandwidth from the stake", () => {
    spec
      .given(staked)
      .when(submit(transfer("t1"), simInstant(T + 1000)))
      .then((events) =>
        expect(executedOf(events)).toEqual([expect.objectContaining({ transactionId: "t1", payer: "alice", bandwidth: 268, energy: 0 })]),
      )
  })
  it("a TRC-20 transfer takes all its energy from the stake when there is enough, else what there is", () => {
    spec
      .given(staked)
      .when(submit(transfer("t1", { assetId: USDT })))
      .then((events) => expect(executedOf(events)).toEqual([expect.objectContaining({ bandwidth: 345, energy: 65_000 })]))
    const used = [...staked, ...mined(transfer("t1", { assetId: USDT }), 3, T, { bandwidth: 345, energy: 65_000 })]
    spec
      .given(used)
      .when(submit(transfer("t2", { assetId: USDT })))
      .then((events) => expect(executedOf(events)).toEqual([expect.objectContaining({ bandwidth: 345, energy: 35_000 })]))
  })
  it("bandwidth is all or nothing: a stake too small for the transaction leaves it to the free allowance", () => {
    const small = [
      configured("auto"),
      ...mined(op("f1", freeze("bandwidth", trx(100))), 1, T, { operation: freeze("bandwidth", trx(100)) }),
    ]
    spec
      .given(small)
      .when(submit(transfer("t1")))
      .then((events) => expect(events.map((e) => e.type)).toEqual(["ChainTxSubmitted", "ChainBlocksMined"]))
  })
  it("used resources regenerate linearly over 24 hours of block time", () => {
    const used = [
      ...staked,
      ...mined(transfer("t1", { assetId: USDT }), 3, T, { bandwidth: 345, energy: 65_000 }),
      ...mined(transfer("t2", { assetId: USDT }), 4, T, { bandwidth: 345, energy: 35_000 }),
    ]
    // Half a day on, half of the 100,000 used is back.
    spec
      .given(used)
      .when(submit(transfer("t3", { assetId: USDT }), simInstant(T + DAY / 2)))
      .then((events) => expect(executedOf(events)).toEqual([expect.objectContaining({ energy: 50_000 })]))
    spec
      .given(used)
      .when(submit(transfer("t3", { assetId: USDT }), simInstant(T + DAY)))
      .then((events) => expect(executedOf(events)).toEqual([expect.objectContaining({ energy: 65_000 })]))
  })
  it("the fee payer's resources pay for a transaction it pays for", () => {
    spec
      .given(staked)
      .when(submit(transfer("t1", { from: "carol", feePayer: "alice" })))
      .then((events) => expect(executedOf(events)).toEqual([expect.objectContaining({ address: "carol", payer: "alice", bandwidth: 268 })]))
  })
})

describe("tron: freeze, unfreeze, withdraw", () => {
  it("refuses at broadcast a freeze below 1 TRX, and an unfreeze above what is frozen and not delegated", () => {
    spec
      .given([configured("auto")])
      .when(submit(op("f1", freeze("energy", "999999"))))
      .then([
        {
          type: "ChainTxRejected",
          data: {
            chain,
            transactionId: "f1",
            reason: "contract validate error: freeze amount must be at least 1 TRX",
            byContract: true,
            at: T,
          },
        },
      ])
    spec
      .given(staked)
      .when(submit(op("u1", { type: "unfreeze", resource: "bandwidth", amount: trx(1_001) })))
      .then((events) =>
        expect(events).toEqual([
          expect.objectContaining({
            type: "ChainTxRejected",
            data: expect.objectContaining({ byContract: true, reason: expect.stringContaining("unfreeze amount exceeds") }),
          }),
        ]),
      )
  })
  it("an unfreeze waits 14 days; a withdraw before then is refused, after it returns the TRX", () => {
    const unfreeze: TronOperation = { type: "unfreeze", resource: "energy", amount: trx(4_000) }
    const unfrozen = [...staked, ...mined(op("u1", unfreeze), 3, T, { operation: unfreeze })]
    const withdraw = op("w1", { type: "withdraw" })
    spec
      .given(unfrozen)
      .when(submit(withdraw, simInstant(T + 13 * DAY)))
      .then((events) =>
        expect(events).toEqual([
          expect.objectContaining({
            type: "ChainTxRejected",
            data: expect.objectContaining({ reason: "contract validate error: no unfrozen TRX has passed its waiting period" }),
          }),
        ]),
      )
    spec
      .given(unfrozen)
      .when(submit(withdraw, simInstant(T + 14 * DAY)))
      .then((events) =>
        expect(executedOf(events)).toEqual([expect.objectContaining({ operation: { type: "withdraw" }, withdrawn: trx(4_000) })]),
      )
  })
  it("an unfreeze withdraws what has already expired", () => {
    const unfreeze: TronOperation = { type: "unfreeze", resource: "energy", amount: trx(1_000) }
    const unfrozen = [...staked, ...mined(op("u1", unfreeze), 3, T, { operation: unfreeze })]
    spec
      .given(unfrozen)
      .when(submit(op("u2", unfreeze), simInstant(T + 15 * DAY)))
      .then((events) => expect(executedOf(events)).toEqual([expect.objectContaining({ withdrawn: trx(1_000) })]))
  })
  it("a staking operation that became invalid between broadcast and mining fails on chain", () => {
    const unfreeze: TronOperation = { type: "unfreeze", resource: "bandwidth", amount: trx(600) }
    const manual = [
      ...staked,
      configured("manual", 2),
      { type: "ChainTxSubmitted" as const, data: { ...op("u1", unfreeze), chain, at: T } },
      { type: "ChainTxSubmitted" as const, data: { ...op("u2", unfreeze), chain, at: T } },
    ]
    spec
      .given(manual)
      .when({ type: "MineBlocks", defaults, blocks: 1, blockHash: hash, now: T })
      .then((events) => {
        const [first, second] = executedOf(events)
        expect(first).not.toHaveProperty("failed")
        expect(second?.failed).toContain("unfreeze amount exceeds")
      })
  })
})

describe("tron: delegate and undelegate", () => {
  const delegate = (lockPeriod: number, amount = trx(400), receiver = "bob"): TronOperation => ({
    type: "delegate",
    resource: "bandwidth",
    amount,
    receiver,
    lockPeriod,
  })
  it("a delegation moves the resource, not the stake: bob's transfer is paid from it", () => {
    const delegated = [...staked, ...mined(op("d1", delegate(0)), 3, T, { operation: delegate(0) })]
    spec
      .given(delegated)
      .when(submit(transfer("t1", { from: "bob" })))
      .then((events) => expect(executedOf(events)).toEqual([expect.objectContaining({ payer: "bob", bandwidth: 268 })]))
  })
  it("refuses a delegation above the undelegated stake, to itself, or with a lock past 864000 blocks", () => {
    for (const [bad, reason] of [
      [delegate(0, trx(1_001)), "delegate amount exceeds"],
      [delegate(0, trx(400), "alice"), "cannot delegate to the delegating address"],
      [delegate(864_001), "lockPeriod must be from 0 to 864000 blocks"],
    ] as const)
      spec
        .given(staked)
        .when(submit(op("d1", bad)))
        .then((events) =>
          expect(events).toEqual([
            expect.objectContaining({
              type: "ChainTxRejected",
              data: expect.objectContaining({ reason: expect.stringContaining(reason) }),
            }),
          ]),
        )
  })
  it("a locked delegation cannot be taken back before its lock ends, in blocks", () => {
    const locked = [...staked, ...mined(op("d1", delegate(28_800)), 3, T, { operation: delegate(28_800) })]
    const undelegate = op("x1", { type: "undelegate", resource: "bandwidth", amount: trx(400), receiver: "bob" })
    spec
      .given(locked)
      .when(submit(undelegate))
      .then((events) => expect(events).toEqual([expect.objectContaining({ type: "ChainTxRejected" })]))
    const later = [...locked, configured("auto", 28_803)]
    spec
      .given(later)
      .when(submit(undelegate))
      .then((events) => expect(executedOf(events)).toEqual([expect.objectContaining({ operation: undelegate.operation })]))
  })
  it("a new locked delegation must lock at least the blocks left of the previous one", () => {
    const locked = [...staked, ...mined(op("d1", delegate(28_800)), 3, T, { operation: delegate(28_800) })]
    spec
      .given(locked)
      .when(submit(op("d2", delegate(100, trx(100)))))
      .then((events) =>
        expect(events).toEqual([
          expect.objectContaining({
            data: expect.objectContaining({
              reason: "contract validate error: lockPeriod must be at least the 28800 blocks left of the previous locked delegation",
            }),
          }),
        ]),
      )
    spec
      .given(locked)
      .when(submit(op("d2", delegate(0, trx(100)))))
      .then((events) => expect(executedOf(events)).toHaveLength(1))
  })
})

describe("tron: TRC-20 allowances", () => {
  const approve: TronOperation = { type: "approve", token: USDT, spender: "payer", allowance: UINT256_MAX.toString() }
  const transferFrom = (id: string): ChainTransfer =>
    transfer(id, {
      from: "alice",
      to: "bob",
      assetId: USDT,
      amount: "5",
      feePayer: "payer",
      operation: { type: "transfer-from", token: USDT, spender: "payer", amount: "5" },
    })
  it("a transferFrom without an allowance is mined and fails on chain (REVERT)", () => {
    spec
      .given([configured("auto")])
      .when(submit(transferFrom("x1")))
      .then((events) =>
        expect(executedOf(events)).toEqual([
          expect.objectContaining({ payer: "payer", failed: "REVERT: transfer amount exceeds allowance (0)" }),
        ]),
      )
  })
  it("after approve (uint256 max to the fee payer) a transferFrom succeeds, and the allowance is not spent down", () => {
    const approved = [configured("auto"), ...mined(op("a1", approve), 1, T, { operation: approve })]
    const twice = [...approved, ...mined(transferFrom("x1"), 2, T, { operation: transferFrom("x1").operation! })]
    spec
      .given(twice)
      .when(submit(transferFrom("x2")))
      .then((events) => expect(executedOf(events)[0]).not.toHaveProperty("failed"))
  })
})
