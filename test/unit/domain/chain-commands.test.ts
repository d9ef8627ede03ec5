// Chain decider, the commands chain.test.ts leaves out: configuring, arming faults, ticks outside interval mode.
import { describe, it } from "vitest"
import { chainDecider, type ChainEvent } from "../../../src/chain-sim/index.js"
import { simInstant } from "../../../src/domain/shared/sim-time.js"
import { deciderSpec } from "../../support/decider-spec.js"

const chain = "ethereum.sepolia"
const spec = deciderSpec(chainDecider(chain))
const T = simInstant(1_000_000)
const hash = (h: number) => `hash-${h}`
const defaults = { mode: "interval" as const, intervalSeconds: 10, confirmations: 2 }
const configured = (mode: "auto" | "interval" | "manual", anchorHeight = 0, anchorAt = T, at = T): ChainEvent => ({
  type: "ChainConfigured",
  data: { chain, mode, intervalSeconds: 10, confirmations: 2, anchorHeight, anchorAt, at },
})

describe("ConfigureChain", () => {
  it("switches an interval chain to manual, anchored at the height its schedule reached", () => {
    const later = simInstant(T + 35_000)
    spec
      .given([configured("interval")])
      .when({ type: "ConfigureChain", defaults, mode: "manual", now: later })
      .then([configured("manual", 3, later, later)])
  })
  it("configures an untouched chain: its defaults first, then the change", () => {
    spec
      .given([])
      .when({ type: "ConfigureChain", defaults, confirmations: 5, now: T })
      .then([
        configured("interval"),
        {
          type: "ChainConfigured",
          data: { chain, mode: "interval", intervalSeconds: 10, confirmations: 5, anchorHeight: 0, anchorAt: T, at: T },
        },
      ])
  })
  it("refuses zero confirmations", () => {
    spec
      .given([configured("manual")])
      .when({ type: "ConfigureChain", defaults, confirmations: 0, now: T })
      .thenFails({ _tag: "BadMiningSchedule" })
  })
})

describe("ArmFault", () => {
  it("arms a number of faults for the next withdrawals", () => {
    spec
      .given([configured("manual")])
      .when({ type: "ArmFault", defaults, kind: "execution-failure", count: 2, now: T })
      .then([{ type: "ChainFaultArmed", data: { chain, kind: "execution-failure", count: 2, at: T } }])
  })
  it("refuses a count that is not a positive integer", () => {
    spec
      .given([configured("manual")])
      .when({ type: "ArmFault", defaults, kind: "broadcast-failure", count: 0, now: T })
      .thenFails({ _tag: "BadMiningSchedule" })
  })
})

describe("Tick", () => {
  it("in manual mode records nothing, however late", () => {
    const pending: ChainEvent = {
      type: "ChainTxSubmitted",
      data: {
        transactionId: "t1",
        recordId: "r",
        kind: "deposit",
        assetId: "a",
        from: "x",
        to: "y",
        amount: "1",
        fee: "0",
        vout: null,
        chain,
        at: T,
      },
    }
    spec
      .given([configured("manual"), pending])
      .when({ type: "Tick", defaults, blockHash: hash, now: simInstant(T + 3_600_000) })
      .then([])
  })
  it("in interval mode with an empty mempool records nothing (empty blocks are not recorded one by one)", () => {
    spec
      .given([configured("interval")])
      .when({ type: "Tick", defaults, blockHash: hash, now: simInstant(T + 3_600_000) })
      .then([])
  })
})
