// Chain evolve: configuration re-anchors the schedule; mined blocks move the height and empty the mempool.
import { absurd } from "../domain/shared/decider.js"
import type { ChainEvent } from "./events.js"
import type { ChainState } from "./state.js"
import { NO_IDS, withIds } from "./known-ids.js"
import { applyExecution, EMPTY_LEDGER } from "./tron.js"
import { findNetwork } from "../domain/chains/index.js"

const isTron = (chain: string) => chain.startsWith("tron.")

export const evolveChain = (s: ChainState, e: ChainEvent): ChainState => {
  switch (e.type) {
    case "ChainConfigured": {
      const { mode, intervalSeconds, confirmations, anchorHeight, anchorAt } = e.data
      const schedule = { mode, intervalSeconds, confirmations, anchorHeight, anchorAt }
      return s._tag === "Unconfigured"
        ? {
            _tag: "Running",
            schedule,
            height: anchorHeight,
            mempool: [],
            transactions: NO_IDS,
            rejected: new Map(),
            faults: { "broadcast-failure": 0, "execution-failure": 0 },
          }
        : { ...s, schedule, height: Math.max(s.height, anchorHeight) }
    }
    case "ChainFaultArmed":
      return s._tag === "Running" ? { ...s, faults: { ...s.faults, [e.data.kind]: s.faults[e.data.kind] + e.data.count } } : s
    case "ChainTxRejected": {
      if (s._tag !== "Running") return s
      const fault = e.data.fault ?? "broadcast-failure"
      if (e.data.byContract === true) return { ...s, rejected: new Map(s.rejected).set(e.data.transactionId, e.data.reason) }
      return {
        ...s,
        faults: { ...s.faults, [fault]: Math.max(0, s.faults[fault] - 1) },
        rejected: new Map(s.rejected).set(e.data.transactionId, e.data.reason),
      }
    }
    case "ChainTxSubmitted": {
      if (s._tag !== "Running") return s
      if (e.data.failsInExecution === true)
        s = { ...s, faults: { ...s.faults, "execution-failure": Math.max(0, s.faults["execution-failure"] - 1) } }
      const entry = isTron(e.data.chain)
        ? { transactionId: e.data.transactionId, at: e.data.at, transfer: e.data }
        : { transactionId: e.data.transactionId, at: e.data.at }
      return { ...s, mempool: [...s.mempool, entry], transactions: withIds(s.transactions, [e.data.transactionId]) }
    }
    case "ChainTxExecuted": {
      const i = e.data.chain.lastIndexOf(".")
      const n = findNetwork(e.data.chain.slice(0, i), e.data.chain.slice(i + 1))
      return s._tag !== "Running" || n === undefined ? s : { ...s, tron: applyExecution(n, s.tron ?? EMPTY_LEDGER, e.data) }
    }
    case "ChainBlocksMined": {
      if (s._tag !== "Running") return s
      const included = new Set(e.data.transactionIds)
      return {
        ...s,
        height: Math.max(s.height, e.data.toHeight),
        mempool: s.mempool.filter((t) => !included.has(t.transactionId)),
        schedule: { ...s.schedule, anchorHeight: e.data.toHeight, anchorAt: e.data.blockAt },
      }
    }
    default:
      return absurd(e)
  }
}
