// Pure properties of the chain decider against a reference of the mining rules: heights never decrease, every
// submitted transaction is mined at most once (and never before it arrived), however often it is submitted, interval
// heights and the block each transaction lands in match the schedule, faults hit withdrawals only; refusals change
// nothing.
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  chainDecider,
  heightAt,
  type ChainCommand,
  type ChainEvent,
  type ChainState,
  type ChainTransfer,
} from "../../src/chain-sim/index.js"
import { simInstant } from "../../src/domain/shared/sim-time.js"
import { chainDefaults, chainIntents, type ChainIntent } from "./arbitraries/chain-commands.js"
import { NOW } from "./arbitraries/ids.js"
import { ChainReference } from "./reference/chain.js"
import { snapshot } from "./snapshot.js"

const chain = "ethereum.sepolia"
const decider = chainDecider(chain)
const blockHash = (h: number) => `hash-${h}`

const transfer = (id: string, withdrawal: boolean): ChainTransfer => ({
  transactionId: id,
  recordId: `r-${id}`,
  kind: withdrawal ? "withdrawal" : "deposit",
  assetId: "a",
  from: "x",
  to: "y",
  amount: "1",
  fee: "1",
  vout: null,
})

const commandOf = (
  intent: ChainIntent,
  defaults: Parameters<typeof decider.decide>[0]["defaults"],
  id: string,
  withdrawal: boolean,
  now: number,
): ChainCommand => {
  const at = simInstant(now)
  switch (intent.kind) {
    case "configure": {
      const { kind: _k, dt: _d, ...settings } = intent
      return { type: "ConfigureChain", defaults, ...settings, now: at }
    }
    case "submit":
    case "resubmit":
      return { type: "SubmitTx", defaults, transfer: transfer(id, withdrawal), blockHash, now: at }
    case "mine":
      return { type: "MineBlocks", defaults, blocks: intent.blocks, blockHash, now: at }
    case "fault":
      return { type: "ArmFault", defaults, kind: intent.fault, count: intent.count, now: at }
    case "tick":
      return { type: "Tick", defaults, blockHash, now: at }
  }
}

const running = (s: ChainState) => (s._tag === "Running" ? s : undefined)

describe("chain decider", () => {
  it("mines by the schedule: heights, blocks per transaction, mempool and faults match the reference", () => {
    fc.assert(
      fc.property(chainDefaults, chainIntents, (defaults, intents) => {
        const ref = new ChainReference(defaults)
        let state = decider.initialState
        let now: number = NOW
        let lastHeight = 0
        let lastDue = 0
        const mined = new Map<string, number>()
        const submitted = new Map<string, number>()
        const failing = new Set<string>()
        const attempted: Array<{ readonly id: string; readonly withdrawal: boolean }> = []
        intents.forEach((intent, i) => {
          now += intent.dt
          const earlier = intent.kind === "resubmit" && attempted.length > 0 ? attempted[intent.pick % attempted.length]! : undefined
          const id = earlier?.id ?? `tx${i}`
          const withdrawal = earlier?.withdrawal ?? (intent.kind === "submit" && intent.withdrawal)
          const command = commandOf(intent, defaults, id, withdrawal, now)
          const before = snapshot(state)
          const d = decider.decide(command, state)
          expect(snapshot(state), "decide never mutates").toBe(before)
          const ok =
            intent.kind === "configure"
              ? ref.configure(now, intent)
              : intent.kind === "mine"
                ? ref.mine(now, intent.blocks)
                : intent.kind === "fault"
                  ? ref.fault(now, intent.fault, intent.count)
                  : intent.kind === "submit" || intent.kind === "resubmit"
                    ? (ref.submit(now, id, withdrawal), true)
                    : (ref.tick(now), true)
          if (!ok) {
            expect(d).toMatchObject({ _tag: "Rejected", error: { _tag: "BadMiningSchedule" } })
            return
          }
          if (d._tag !== "Accepted") throw new Error(`refused: ${JSON.stringify(d.error)}`)
          if (earlier === undefined && (intent.kind === "submit" || intent.kind === "resubmit")) {
            submitted.set(id, now)
            attempted.push({ id, withdrawal })
          }
          for (const e of d.events as ReadonlyArray<ChainEvent>) {
            if (e.type === "ChainBlocksMined") {
              expect(e.data.fromHeight, "a new block is above every recorded one").toBeGreaterThan(running(state)?.height ?? 0)
              expect(e.data.toHeight).toBeGreaterThanOrEqual(e.data.fromHeight)
              for (const tx of e.data.transactionIds) {
                expect(mined.has(tx), `${tx} mined twice`).toBe(false)
                expect(submitted.get(tx), `${tx} mined before it was submitted`).toBeLessThanOrEqual(e.data.at)
                mined.set(tx, e.data.fromHeight)
              }
            }
            if (e.type === "ChainTxRejected") expect(withdrawal && earlier === undefined).toBe(true)
            if (e.type === "ChainTxSubmitted" && e.data.failsInExecution === true) failing.add(e.data.transactionId)
            state = decider.evolve(state, e)
          }
          const s = running(state)!
          expect(s.height, "recorded height").toBe(ref.h)
          expect(heightAt(s.schedule, s.height, now), "height by the schedule").toBe(ref.height(now))
          expect(s.height).toBeGreaterThanOrEqual(lastHeight)
          expect(heightAt(s.schedule, s.height, now)).toBeGreaterThanOrEqual(lastDue)
          lastHeight = s.height
          lastDue = heightAt(s.schedule, s.height, now)
          expect([...mined].sort()).toEqual([...ref.mined].sort())
          expect(s.mempool.map((t) => t.transactionId)).toEqual(ref.mempool.map((t) => t.id))
          expect(s.faults).toEqual(ref.faults)
          expect([...failing].sort(), "withdrawals marked to fail in execution").toEqual([...ref.failing].sort())
          expect([s.schedule.mode, s.schedule.intervalSeconds, s.schedule.confirmations]).toEqual([
            ref.mode,
            ref.interval,
            ref.confirmations,
          ])
        })
      }),
    )
  })
})
