// The fault registry's state (every fault in force with its hits) and its decider's errors.
import type { FaultDefinition } from "./events.js"

export interface FaultEntry {
  readonly definition: FaultDefinition
  readonly hits: number
  /** The number of the last matching call it fired on (0 before the first hit). */
  readonly lastCall: number
}

export interface FaultsState {
  readonly faults: ReadonlyMap<string, FaultEntry>
}

export type FaultError =
  | { readonly _tag: "FaultAlreadyExists"; readonly faultId: string }
  | { readonly _tag: "FaultNotFound"; readonly faultId: string }
  | { readonly _tag: "FaultExhausted"; readonly faultId: string }
