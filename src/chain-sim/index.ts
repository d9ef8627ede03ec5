// A simulated chain as a decider over its stream `chain-<blockchain>.<network>`.
import type { Decider } from "../domain/shared/decider.js"
import type { ChainCommand } from "./commands.js"
import { decideChain } from "./decide.js"
import type { ChainEvent } from "./events.js"
import { evolveChain } from "./evolve.js"
import type { ChainError, ChainState } from "./state.js"

export * from "./commands.js"
export * from "./events.js"
export * from "./state.js"

export const chainKey = (blockchain: string, network: string) => `${blockchain}.${network}`
export const chainStream = (blockchain: string, network: string) => `chain-${chainKey(blockchain, network)}`

export const chainDecider = (chain: string): Decider<ChainCommand, ChainEvent, ChainState, ChainError> => ({
  initialState: { _tag: "Unconfigured" },
  decide: (c, s) => decideChain(chain, c, s),
  evolve: evolveChain,
  isTerminal: () => false,
})
