// Chain decider: mining modes as Anvil has them (auto: a block per transaction; interval: a block every N
// simulated seconds; manual: only when asked), over a mempool and a height.
import { findNetwork } from "../domain/chains/index.js"
import { absurd, accept, reject, type Decision } from "../domain/shared/decider.js"
import type { SimInstant } from "../domain/shared/sim-time.js"
import type { ChainCommand, ChainDefaults } from "./commands.js"
import type { ChainEvent, FaultKind } from "./events.js"
import { evolveChain } from "./evolve.js"
import { hasId } from "./known-ids.js"
import { applyExecution, EMPTY_LEDGER, execute, refusal } from "./tron.js"
import { heightAt, type ChainError, type ChainSchedule, type ChainState } from "./state.js"

type Running = Extract<ChainState, { _tag: "Running" }>

const configured = (chain: string, defaults: ChainDefaults, now: SimInstant): ChainEvent => ({
  type: "ChainConfigured",
  data: {
    chain,
    mode: defaults.mode,
    intervalSeconds: defaults.intervalSeconds,
    confirmations: defaults.confirmations,
    anchorHeight: 0,
    anchorAt: now,
    at: now,
  },
})

/** The blocks an interval schedule made due by `now` that hold mempool transactions, one event per such block. */
const dueBlocks = (chain: string, s: Running, now: SimInstant, blockHash: (h: number) => string): Array<ChainEvent> => {
  const sch = s.schedule
  if (sch.mode !== "interval" || s.mempool.length === 0) return []
  const intervalMs = sch.intervalSeconds * 1000
  const due = heightAt(sch, s.height, now)
  const byHeight = new Map<number, Array<string>>()
  let last = s.height
  for (const tx of s.mempool) {
    // A transaction goes into the first block due after it arrived (and never before an earlier one's).
    const h = Math.max(last === s.height ? s.height + 1 : last, sch.anchorHeight + Math.floor((tx.at - sch.anchorAt) / intervalMs) + 1)
    if (h > due) break
    last = h
    byHeight.set(h, [...(byHeight.get(h) ?? []), tx.transactionId])
  }
  return [...byHeight].map(([height, transactionIds]) => ({
    type: "ChainBlocksMined",
    data: {
      chain,
      fromHeight: height,
      toHeight: height,
      blockHash: blockHash(height),
      transactionIds,
      blockAt: (sch.anchorAt + (height - sch.anchorHeight) * intervalMs) as SimInstant,
      at: now,
    },
  }))
}

const isUtxoChain = (chain: string) => {
  const i = chain.lastIndexOf(".")
  return findNetwork(chain.slice(0, i), chain.slice(i + 1))?.family === "utxo"
}

/** The armed fault a new withdrawal meets at broadcast, if any: UTXO chains refuse one armed to fail in execution. */
const refusingFault = (chain: string, s: Running, c: Extract<ChainCommand, { type: "SubmitTx" }>): FaultKind | undefined => {
  if (c.transfer.kind !== "withdrawal") return undefined
  if (s.faults["broadcast-failure"] > 0) return "broadcast-failure"
  // A UTXO transaction cannot fail once mined (its fee is what its inputs leave over): an invalid one never gets in.
  return s.faults["execution-failure"] > 0 && isUtxoChain(chain) ? "execution-failure" : undefined
}

const REFUSALS: { readonly [K in FaultKind]: string } = {
  "broadcast-failure": "broadcast rejected by the network (injected fault)",
  "execution-failure": "script verification failed: rejected by the network (injected execution fault)",
}

/** Tron: each transaction of a mined block executes in order (its resources, its operation), on the state before the next. */
const executions = (
  chain: string,
  before: Running,
  e: Extract<ChainEvent, { type: "ChainBlocksMined" }>,
  now: SimInstant,
): Array<ChainEvent> => {
  const n = networkOf(chain)
  if (n === undefined || n.family !== "tron") return []
  const transfers = new Map(before.mempool.flatMap((t) => (t.transfer !== undefined ? [[t.transactionId, t.transfer] as const] : [])))
  const out: Array<ChainEvent> = []
  let ledger = before.tron ?? EMPTY_LEDGER
  for (const id of e.data.transactionIds) {
    const t = transfers.get(id)
    if (t === undefined || t.kind !== "withdrawal") continue
    const x = execute(n, ledger, t, e.data.fromHeight, e.data.blockAt)
    if (x === undefined) continue
    const event: ChainEvent = { type: "ChainTxExecuted", data: { ...x, chain, at: now } }
    out.push(event)
    ledger = applyExecution(n, ledger, x)
  }
  return out
}

const networkOf = (chain: string) => {
  const i = chain.lastIndexOf(".")
  return findNetwork(chain.slice(0, i), chain.slice(i + 1))
}

/** What a decision has emitted so far: `emit` appends events and folds them, `run` is the state they fold to. */
interface Emitting {
  readonly emit: (...es: ReadonlyArray<ChainEvent>) => void
  readonly run: () => Running
}

/**
 * SubmitTx, after the blocks due: the transfer taken into the mempool (a block at once in auto mode), or refused by
 * an armed fault or the contract's validation; one the chain already took or refused changes nothing.
 */
const submitTx = (chain: string, c: Extract<ChainCommand, { type: "SubmitTx" }>, { emit, run }: Emitting): void => {
  emit(...dueBlocks(chain, run(), c.now, c.blockHash))
  const id = c.transfer.transactionId
  // A transaction the chain already took, or refused, is not taken again: a repeated broadcast changes nothing.
  if (hasId(run().transactions, id) || run().rejected.has(id)) return
  const fault = refusingFault(chain, run(), c)
  if (fault !== undefined) {
    emit({ type: "ChainTxRejected", data: { chain, transactionId: id, reason: REFUSALS[fault], fault, at: c.now } })
    return
  }
  const op = c.transfer.operation
  const invalid =
    op === undefined
      ? undefined
      : refusal(run().tron ?? EMPTY_LEDGER, c.transfer.from, op, heightAt(run().schedule, run().height, c.now), c.now)
  if (invalid !== undefined) {
    // The node's contract validation: refused at broadcast, no fault consumed.
    emit({
      type: "ChainTxRejected",
      data: { chain, transactionId: id, reason: `contract validate error: ${invalid}`, byContract: true, at: c.now },
    })
    return
  }
  const failsInExecution = c.transfer.kind === "withdrawal" && run().faults["execution-failure"] > 0
  emit({ type: "ChainTxSubmitted", data: { ...c.transfer, ...(failsInExecution ? { failsInExecution } : {}), chain, at: c.now } })
  if (run().schedule.mode === "auto") {
    const h = run().height + 1
    emit({
      type: "ChainBlocksMined",
      data: {
        chain,
        fromHeight: h,
        toHeight: h,
        blockHash: c.blockHash(h),
        transactionIds: run().mempool.map((t) => t.transactionId),
        blockAt: c.now,
        at: c.now,
      },
    })
  }
}

export const decideChain = (chain: string, c: ChainCommand, state: ChainState): Decision<ChainEvent, ChainError> => {
  const events: Array<ChainEvent> = []
  let s = state
  const emit = (...es: ReadonlyArray<ChainEvent>) => {
    for (const e of es) {
      const before = s
      events.push(e)
      s = evolveChain(s, e)
      if (e.type === "ChainBlocksMined" && before._tag === "Running")
        for (const x of executions(chain, before, e, c.now)) {
          events.push(x)
          s = evolveChain(s, x)
        }
    }
  }
  if (s._tag === "Unconfigured") emit(configured(chain, c.defaults, c.now))
  const run = () => s as Running
  switch (c.type) {
    case "ConfigureChain": {
      const next: ChainSchedule = {
        ...run().schedule,
        ...(c.mode !== undefined ? { mode: c.mode } : {}),
        ...(c.intervalSeconds !== undefined ? { intervalSeconds: c.intervalSeconds } : {}),
        ...(c.confirmations !== undefined ? { confirmations: c.confirmations } : {}),
      }
      if (!(next.intervalSeconds >= 1) || !(next.confirmations >= 1))
        return reject({ _tag: "BadMiningSchedule", reason: "intervalSeconds and confirmations must be at least 1" })
      emit(...dueBlocks(chain, run(), c.now, () => ""))
      const height = heightAt(run().schedule, run().height, c.now)
      emit({
        type: "ChainConfigured",
        data: {
          chain,
          mode: next.mode,
          intervalSeconds: next.intervalSeconds,
          confirmations: next.confirmations,
          anchorHeight: height,
          anchorAt: c.now,
          at: c.now,
        },
      })
      return accept(...events)
    }
    case "SubmitTx":
      submitTx(chain, c, { emit, run })
      return accept(...events)
    case "MineBlocks": {
      if (!Number.isInteger(c.blocks) || c.blocks < 1)
        return reject({ _tag: "BadMiningSchedule", reason: "blocks must be a positive integer" })
      emit(...dueBlocks(chain, run(), c.now, c.blockHash))
      const from = heightAt(run().schedule, run().height, c.now) + 1
      emit({
        type: "ChainBlocksMined",
        data: {
          chain,
          fromHeight: from,
          toHeight: from + c.blocks - 1,
          blockHash: c.blockHash(from),
          transactionIds: run().mempool.map((t) => t.transactionId),
          blockAt: c.now,
          at: c.now,
        },
      })
      return accept(...events)
    }
    case "ArmFault":
      if (!Number.isInteger(c.count) || c.count < 1)
        return reject({ _tag: "BadMiningSchedule", reason: "count must be a positive integer" })
      emit({ type: "ChainFaultArmed", data: { chain, kind: c.kind, count: c.count, at: c.now } })
      return accept(...events)
    case "Tick":
      emit(...dueBlocks(chain, run(), c.now, c.blockHash))
      return accept(...events)
    default:
      return absurd(c)
  }
}
