// State of one simulated chain: its mining schedule, height, mempool; and the height at any time.
import type { FaultKind, MiningMode } from "./events.js"
import type { ChainTransfer } from "./events.js"
import type { KnownIds } from "./known-ids.js"
import type { TronLedger } from "./tron.js"

export interface ChainSchedule {
  readonly mode: MiningMode
  readonly intervalSeconds: number
  readonly confirmations: number
  readonly anchorHeight: number
  readonly anchorAt: number
}

export type ChainState =
  | { readonly _tag: "Unconfigured" }
  | {
      readonly _tag: "Running"
      readonly schedule: ChainSchedule
      /** Height of the last recorded block (interval schedules may be ahead of it, see heightAt). */
      readonly height: number
      /** Tron transactions keep what they do until mined (their execution needs it). */
      readonly mempool: ReadonlyArray<{ readonly transactionId: string; readonly at: number; readonly transfer?: ChainTransfer }>
      /** Every transaction it took (in the mempool or mined): a repeated broadcast of one changes nothing. */
      readonly transactions: KnownIds
      /** Transactions it refused, with the reason: refused again, whoever broadcasts them. */
      readonly rejected: ReadonlyMap<string, string>
      /** Armed faults: how many of the next withdrawals fail to broadcast, or fail in execution. */
      readonly faults: { readonly [K in FaultKind]: number }
      /** Tron: stakes, delegations, resource usage and allowances (absent until a transaction changes them). */
      readonly tron?: TronLedger
    }

/**
 * In interval mode a block is due every `intervalSeconds` of simulated time; empty blocks are not recorded one
 * by one, so the height at a time is the anchor's height plus the intervals elapsed since.
 */
export const heightAt = (s: ChainSchedule, recordedHeight: number, at: number): number =>
  s.mode === "interval"
    ? Math.max(recordedHeight, s.anchorHeight + Math.floor((at - s.anchorAt) / (s.intervalSeconds * 1000)))
    : recordedHeight

export type ChainError = { readonly _tag: "BadMiningSchedule"; readonly reason: string }
