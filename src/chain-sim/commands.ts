// Commands on a simulated chain. Hashes and ids come in on the command (the domain draws no randomness).
import type { SimInstant } from "../domain/shared/sim-time.js"
import type { ChainTransfer, FaultKind, MiningMode } from "./events.js"

export interface ChainDefaults {
  readonly mode: MiningMode
  readonly intervalSeconds: number
  readonly confirmations: number
}

export type ChainCommand =
  | {
      readonly type: "ConfigureChain"
      readonly defaults: ChainDefaults
      readonly mode?: MiningMode
      readonly intervalSeconds?: number
      readonly confirmations?: number
      readonly now: SimInstant
    }
  | {
      readonly type: "SubmitTx"
      readonly defaults: ChainDefaults
      readonly transfer: ChainTransfer
      readonly blockHash: (height: number) => string
      readonly now: SimInstant
    }
  | {
      readonly type: "MineBlocks"
      readonly defaults: ChainDefaults
      readonly blocks: number
      readonly blockHash: (height: number) => string
      readonly now: SimInstant
    }
  | {
      readonly type: "ArmFault"
      readonly defaults: ChainDefaults
      readonly kind: FaultKind
      readonly count: number
      readonly now: SimInstant
    }
  /** Records the blocks an interval schedule has made due by `now`, when they include transactions. */
  | { readonly type: "Tick"; readonly defaults: ChainDefaults; readonly blockHash: (height: number) => string; readonly now: SimInstant }
