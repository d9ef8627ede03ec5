// A command decides on its stream's cached state; when the store holds less than the cache folded (a batch of
// appends that failed, a log cut back), the state is folded again from the stream, not decided on as it was.
import { Effect, Layer } from "effect"
import { describe, expect, it } from "vitest"
import { AggregateCache, makeAggregateCache } from "../../../src/commands/aggregate-cache.js"
import { runDecider } from "../../../src/commands/run-decider.js"
import { accept, type Decider } from "../../../src/domain/shared/decider.js"
import { clockLayer, makeClock } from "../../../src/runtime/clock.js"
import { idsLayer, makeIds } from "../../../src/runtime/ids.js"
import { EventStore } from "../../../src/store/event-store.js"
import { makeMemoryStore } from "../../../src/store/memory.js"

type Counted = { readonly type: "Counted"; readonly data: { readonly n: number } }
const counter: Decider<{ readonly type: "Count" }, Counted, number, never> = {
  initialState: 0,
  decide: (_c, n) => accept({ type: "Counted", data: { n: n + 1 } }),
  evolve: (_n, e) => e.data.n,
  isTerminal: () => false,
}

describe("runDecider's cached state", () => {
  it("is folded again when the store is behind it", async () => {
    const store = makeMemoryStore()
    const layer = Layer.mergeAll(
      Layer.succeed(EventStore, store),
      Layer.succeed(AggregateCache, makeAggregateCache()),
      idsLayer(makeIds("run-decider")),
      clockLayer(makeClock({ _tag: "Frozen", at: 0 })),
    )
    const count = () => Effect.runPromise(runDecider(counter, "counter-1", { type: "Count" }).pipe(Effect.provide(layer)))
    const first = await count()
    await count()
    // The log loses the second event; the cache still holds n = 2 at revision 1.
    await Effect.runPromise(store.truncateAfter!(first.position))
    const next = await count()
    expect(next.events).toEqual([{ type: "Counted", data: { n: 2 } }])
    const log = await Effect.runPromise(store.readStream("counter-1"))
    expect(log.events.map((e) => e.data)).toEqual([{ n: 1 }, { n: 2 }])
  })
})
