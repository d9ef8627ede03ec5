// Chain decider: mining modes, the interval schedule, fault injection, each transaction taken once.
import { describe, expect, it } from "vitest"
import { chainDecider, type ChainCommand, type ChainEvent, type ChainState, type ChainTransfer } from "../../../src/chain-sim/index.js"
import { fold } from "../../../src/domain/shared/decider.js"
import { simInstant } from "../../../src/domain/shared/sim-time.js"
import { deciderSpec } from "../../support/decider-spec.js"

const chain = "ethereum.sepolia"
const spec = deciderSpec(chainDecider(chain))
const T = simInstant(1_000_000)
const hash = (h: number) => `hash-${h}`
const transfer = (id: string, kind: ChainTransfer["kind"] = "deposit"): ChainTransfer => ({
  transactionId: id,
  recordId: `r-${id}`,
  kind,
  assetId: "a",
  from: "x",
  to: "y",
  amount: "1",
  fee: "0",
  vout: null,
})
const configured = (mode: "auto" | "interval" | "manual", intervalSeconds = 10): ChainEvent => ({
  type: "ChainConfigured",
  data: { chain, mode, intervalSeconds, confirmations: 2, anchorHeight: 0, anchorAt: T, at: T },
})
const defaults = { mode: "interval" as const, intervalSeconds: 10, confirmations: 2 }
const submitted = (id: string, at = T): ChainEvent => ({ type: "ChainTxSubmitted", data: { ...transfer(id), chain, at: simInstant(at) } })

describe("chain decider", () => {
  it("configures an untouched chain with its defaults, then mines at once in auto mode", () => {
    spec
      .given([])
      .when({ type: "SubmitTx", defaults: { ...defaults, mode: "auto" }, transfer: transfer("t1"), blockHash: hash, now: T })
      .then([
        {
          type: "ChainConfigured",
          data: { chain, mode: "auto", intervalSeconds: 10, confirmations: 2, anchorHeight: 0, anchorAt: T, at: T },
        },
        submitted("t1"),
        {
          type: "ChainBlocksMined",
          data: { chain, fromHeight: 1, toHeight: 1, blockHash: "hash-1", transactionIds: ["t1"], blockAt: T, at: T },
        },
      ])
  })
  it("in interval mode puts a transaction in the first block due after it arrived", () => {
    const at = simInstant(T + 25_000)
    spec
      .given([configured("interval"), submitted("t1", at)])
      .when({ type: "Tick", defaults, blockHash: hash, now: simInstant(T + 29_000) })
      .then([])
    spec
      .given([configured("interval"), submitted("t1", at)])
      .when({ type: "Tick", defaults, blockHash: hash, now: simInstant(T + 31_000) })
      .then([
        {
          type: "ChainBlocksMined",
          data: {
            chain,
            fromHeight: 3,
            toHeight: 3,
            blockHash: "hash-3",
            transactionIds: ["t1"],
            blockAt: simInstant(T + 30_000),
            at: simInstant(T + 31_000),
          },
        },
      ])
  })
  it("mines the mempool into the first of the blocks asked for", () => {
    spec
      .given([configured("manual"), submitted("t1"), submitted("t2")])
      .when({ type: "MineBlocks", defaults, blocks: 3, blockHash: hash, now: T })
      .then([
        {
          type: "ChainBlocksMined",
          data: { chain, fromHeight: 1, toHeight: 3, blockHash: "hash-1", transactionIds: ["t1", "t2"], blockAt: T, at: T },
        },
      ])
  })
  it("refuses a non-positive block count and a zero interval", () => {
    spec
      .given([configured("manual")])
      .when({ type: "MineBlocks", defaults, blocks: 0, blockHash: hash, now: T })
      .thenFails({ _tag: "BadMiningSchedule" })
    spec
      .given([configured("manual")])
      .when({ type: "ConfigureChain", defaults, intervalSeconds: 0, now: T } as ChainCommand)
      .thenFails({ _tag: "BadMiningSchedule" })
  })
  it("an armed broadcast failure rejects the next withdrawal, not deposits", () => {
    const armed: ChainEvent = { type: "ChainFaultArmed", data: { chain, kind: "broadcast-failure", count: 1, at: T } }
    spec
      .given([configured("manual"), armed])
      .when({ type: "SubmitTx", defaults, transfer: transfer("w1", "withdrawal"), blockHash: hash, now: T })
      .then((events) => expect(events.map((e) => e.type)).toEqual(["ChainTxRejected"]))
    spec
      .given([configured("manual"), armed])
      .when({ type: "SubmitTx", defaults, transfer: transfer("d1"), blockHash: hash, now: T })
      .then((events) => expect(events.map((e) => e.type)).toEqual(["ChainTxSubmitted"]))
  })
  it("an armed execution failure marks the next withdrawal to fail when mined", () => {
    const armed: ChainEvent = { type: "ChainFaultArmed", data: { chain, kind: "execution-failure", count: 1, at: T } }
    spec
      .given([configured("manual"), armed])
      .when({ type: "SubmitTx", defaults, transfer: transfer("w1", "withdrawal"), blockHash: hash, now: T })
      .then((events) =>
        expect(events).toEqual([
          { type: "ChainTxSubmitted", data: { ...transfer("w1", "withdrawal"), failsInExecution: true, chain, at: T } },
        ]),
      )
  })
  it("on a UTXO chain an armed execution failure refuses the withdrawal at broadcast: a mined UTXO transaction cannot fail", () => {
    const btc = "bitcoin.testnet"
    const utxo = deciderSpec(chainDecider(btc))
    const setUp: ReadonlyArray<ChainEvent> = [
      {
        type: "ChainConfigured",
        data: { chain: btc, mode: "manual", intervalSeconds: 600, confirmations: 2, anchorHeight: 0, anchorAt: T, at: T },
      },
      { type: "ChainFaultArmed", data: { chain: btc, kind: "execution-failure", count: 1, at: T } },
    ]
    utxo
      .given(setUp)
      .when({ type: "SubmitTx", defaults, transfer: transfer("w1", "withdrawal"), blockHash: hash, now: T })
      .then([
        {
          type: "ChainTxRejected",
          data: {
            chain: btc,
            transactionId: "w1",
            reason: expect.stringContaining("injected execution fault"),
            fault: "execution-failure",
            at: T,
          },
        },
      ])
    const decider = chainDecider(btc)
    const refused = decider.decide(
      { type: "SubmitTx", defaults, transfer: transfer("w1", "withdrawal"), blockHash: hash, now: T },
      fold(decider.evolve, decider.initialState, setUp),
    )
    if (refused._tag !== "Accepted") throw new Error("refused")
    const after = fold(decider.evolve, decider.initialState, [...setUp, ...refused.events])
    expect(after._tag === "Running" && after.faults).toEqual({ "broadcast-failure": 0, "execution-failure": 0 })
  })
  it("takes a transaction once: submitting one it holds in its mempool, has mined or has refused changes nothing", () => {
    const withdrawal = (id: string): ChainEvent => ({ type: "ChainTxSubmitted", data: { ...transfer(id, "withdrawal"), chain, at: T } })
    const again = {
      type: "SubmitTx" as const,
      defaults: { ...defaults, mode: "auto" as const },
      transfer: transfer("w1", "withdrawal"),
      blockHash: hash,
      now: T,
    }
    spec
      .given([configured("auto"), withdrawal("w1")])
      .when(again)
      .then([])
    const mined: ChainEvent = {
      type: "ChainBlocksMined",
      data: { chain, fromHeight: 1, toHeight: 1, blockHash: "hash-1", transactionIds: ["w1"], blockAt: T, at: T },
    }
    spec
      .given([configured("auto"), withdrawal("w1"), mined])
      .when(again)
      .then([])
    // A refused one stays refused, and consumes no second armed fault.
    const armed: ChainEvent = { type: "ChainFaultArmed", data: { chain, kind: "broadcast-failure", count: 2, at: T } }
    const rejected: ChainEvent = {
      type: "ChainTxRejected",
      data: { chain, transactionId: "w1", reason: "refused", fault: "broadcast-failure", at: T },
    }
    spec
      .given([configured("auto"), armed, rejected])
      .when(again)
      .then([])
  })
  it("mines a transaction id once, however often it is submitted", () => {
    const decider = chainDecider(chain)
    const manual = { mode: "manual" as const, intervalSeconds: 10, confirmations: 1 }
    const w = transfer("0xt1", "withdrawal")
    const commands: ReadonlyArray<ChainCommand> = [
      { type: "SubmitTx", defaults: manual, transfer: w, blockHash: hash, now: T },
      { type: "SubmitTx", defaults: manual, transfer: w, blockHash: hash, now: T },
      { type: "MineBlocks", defaults: manual, blocks: 1, blockHash: hash, now: T },
      { type: "SubmitTx", defaults: manual, transfer: w, blockHash: hash, now: T },
      { type: "MineBlocks", defaults: manual, blocks: 1, blockHash: hash, now: T },
    ]
    const mined: Array<string> = []
    commands.reduce<ChainState>((s, c) => {
      const d = decider.decide(c, s)
      if (d._tag === "Rejected") throw new Error(`refused: ${JSON.stringify(d.error)}`)
      for (const e of d.events) if (e.type === "ChainBlocksMined") mined.push(...e.data.transactionIds)
      return fold(decider.evolve, s, d.events)
    }, decider.initialState)
    expect(mined).toEqual(["0xt1"])
  })
})
