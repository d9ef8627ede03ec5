// Use cases of the simulated chains: configure mining, submit a transfer, mine blocks, arm faults, tick an
// interval schedule. They append chain events only; settling what the blocks confirm is a process manager's.
import { Effect } from "effect"
import { findNetwork, type NetworkInfo } from "../domain/chains/index.js"
import { runDeciderWith } from "./run-decider.js"
import { Ids, SimClock } from "./services.js"
import type { SimInstant } from "../domain/shared/sim-time.js"
import {
  chainDecider,
  chainKey,
  chainStream,
  type ChainCommand,
  type ChainDefaults,
  type ChainTransfer,
  type MiningMode,
} from "../chain-sim/index.js"
import { formatBlockHash } from "../chain-sim/formats.js"

/** New chains mine on an interval of their real block time, on the simulated clock (README: "Mining"). */
export const chainDefaults = (n: NetworkInfo): ChainDefaults => ({
  mode: "interval",
  intervalSeconds: n.blockTimeSeconds,
  confirmations: n.confirmations,
})

const blockHashes = (n: NetworkInfo) =>
  Effect.gen(function* () {
    const ids = yield* Ids
    return (height: number) =>
      formatBlockHash(n.family, (len) => ids.unrepeated(`block:${chainKey(n.blockchain, n.network)}:${height}`, len))
  })

const runChain = (n: NetworkInfo, make: (blockHash: (h: number) => string, now: SimInstant) => ChainCommand) =>
  Effect.gen(function* () {
    const now = yield* (yield* SimClock).now
    const blockHash = yield* blockHashes(n)
    const chain = chainKey(n.blockchain, n.network)
    return yield* runDeciderWith(chainDecider(chain), chainStream(n.blockchain, n.network), () => Effect.succeed(make(blockHash, now)))
  })

export const configureChain = (n: NetworkInfo, settings: { mode?: MiningMode; intervalSeconds?: number; confirmations?: number }) =>
  runChain(n, (_h, now) => ({ type: "ConfigureChain", defaults: chainDefaults(n), ...settings, now }))

export const submitTransfer = (n: NetworkInfo, transfer: ChainTransfer) =>
  runChain(n, (blockHash, now) => ({ type: "SubmitTx", defaults: chainDefaults(n), transfer, blockHash, now }))

export const mineBlocks = (n: NetworkInfo, blocks: number) =>
  runChain(n, (blockHash, now) => ({ type: "MineBlocks", defaults: chainDefaults(n), blocks, blockHash, now }))

export const armFault = (n: NetworkInfo, kind: import("../chain-sim/events.js").FaultKind, count: number) =>
  runChain(n, (_h, now) => ({ type: "ArmFault", defaults: chainDefaults(n), kind, count, now }))

export const tickChain = (n: NetworkInfo) => runChain(n, (blockHash, now) => ({ type: "Tick", defaults: chainDefaults(n), blockHash, now }))

export const networkOfChain = (chain: string): NetworkInfo | undefined => {
  const i = chain.lastIndexOf(".")
  return findNetwork(chain.slice(0, i), chain.slice(i + 1))
}
