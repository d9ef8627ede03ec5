// What the passage of simulated time does: every chain the log knows records its due interval blocks and is
// settled (confirmations grow with time even without new blocks), and broadcasts left unsent are sent again.
import { Effect } from "effect"
import { networkOfChain, tickChain } from "../commands/chain-mining.js"
import { resumeBroadcasts } from "./broadcast.js"
import { Models, sync } from "./read-models.js"
import { settle } from "./settle.js"

export const settleAll = Effect.gen(function* () {
  const { models } = yield* Models
  for (const chain of [...models.chains.chains.keys()]) {
    const n = networkOfChain(chain)
    if (n === undefined) continue
    // Only an interval schedule mines with time: a chain mined by hand or at each submission has no block due, and
    // its decider would fold the chain's whole stream (the first time after a start) to decide nothing.
    if (models.chains.chain(chain)?.state.latest()?.schedule.mode === "interval") {
      const r = yield* tickChain(n)
      yield* sync(r.position)
    }
    yield* settle(chain)
  }
  yield* resumeBroadcasts
})
