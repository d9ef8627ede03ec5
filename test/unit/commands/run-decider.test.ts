// A command decides on its stream's cached state; when the store holds less than the cache folded (a batch of
// appends that failed, a log cut back), the state is folded again from the stream, not decided on as it was.
import { Effect, Layer } from "effect"
import { describe, expect, it } from "vitest"
import { AggregateCache, makeAggregateCache } from "../../../src/commands/aggregate-cache.js"
import { readAggregate, runDecider } from "../../../src/commands/run-decider.js"
import { accept, type Decider } from "../../../src/domain/shared/decider.js"
import { clockLayer, makeClock } from "../../../src/adapters/clock.js"
import { idsLayer, makeIds } from "../../../src/adapters/ids.js"
import { EventStore, type EventStoreShape } from "../../../src/store/event-store.js"
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

describe("runDecider's cached state, shared by fibers", () => {
  it("is never seen emptied: a read begun before another fiber folded its own append does not fold the stream again", async () => {
    const inner = makeMemoryStore()
    // Each read is answered as the store stands when it is asked; the next gate held, if any, delays the answer.
    const gates: Array<Promise<void>> = []
    const gate = () => {
      let open = () => {}
      gates.push(new Promise<void>((r) => (open = r)))
      return open
    }
    const store: EventStoreShape = {
      ...inner,
      readStream: (name, options) =>
        Effect.flatMap(inner.readStream(name, options), (read) => {
          const held = gates.shift()
          return held === undefined
            ? Effect.succeed(read)
            : Effect.as(
                Effect.promise(() => held),
                read,
              )
        }),
    }
    const layer = Layer.mergeAll(
      Layer.succeed(EventStore, store),
      Layer.succeed(AggregateCache, makeAggregateCache()),
      idsLayer(makeIds("run-decider-shared")),
      clockLayer(makeClock({ _tag: "Frozen", at: 0 })),
    )
    const run = <A>(e: Effect.Effect<A, unknown, Layer.Success<typeof layer>>) => Effect.runPromise(e.pipe(Effect.provide(layer)))
    const count = () => run(runDecider(counter, "counter-2", { type: "Count" }))
    const state = () => run(readAggregate(counter, "counter-2"))
    await count() // n = 1 at revision 0
    const openA = gate()
    const a = state() // reads at revision 0, answered late
    await count() // n = 2 at revision 1, folded into the cache while a's read is in flight
    const openB = gate()
    const b = state() // reads after revision 1, answered late
    const openWhole = gate() // would delay a read of the whole stream
    openA()
    // a is done, or (as before this was fixed) has emptied the cache and is reading the whole stream.
    const readingWhole = new Promise<void>((r) => {
      const check = () => (gates.length === 0 ? r() : setImmediate(check))
      check()
    })
    await Promise.race([a, readingWhole])
    openB()
    expect(await b).toBe(2)
    expect(await a).toBe(2)
    openWhole()
    expect(gates).toHaveLength(1) // nobody read the whole stream again
  })
})
