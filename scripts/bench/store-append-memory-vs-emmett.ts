// Single-event appends through the memory store's port vs Emmett's in-memory event store (budget: ≥ 5×).
import { getInMemoryEventStore, STREAM_DOES_NOT_EXIST, type Event } from "@event-driven-io/emmett"
import { Effect } from "effect"
import type { ExpectedRevision } from "../../src/store/event-store.js"
import { makeMemoryStore } from "../../src/store/memory.js"
import { compareOps } from "./lib/compare-ops.js"
import { makeWorkload } from "./lib/events.js"
import { ratioAtLeast, type Benchmark } from "./lib/types.js"

type BenchEvent = Event<string, Record<string, unknown>, Record<string, unknown>>

export const storeAppendMemoryVsEmmett: Benchmark = {
  name: "store-append-memory-vs-emmett",
  description: "single-event appends/s, memory store port (Effect.runSync) vs Emmett getInMemoryEventStore().appendToStream",
  budget: ratioAtLeast(5),
  run: async (options) => {
    // 100 streams × 100 events, appended round-robin, each append checking the expected revision.
    const streamCount = options.quick ? 20 : 100
    const perStream = options.quick ? 25 : 100
    const w = makeWorkload(streamCount, streamCount * perStream, 1)
    const ops = w.batches.length
    const total = ops
    // Caller-side values precomputed for both sides: the expected revision (ours 0-based, Emmett's a count).
    const expected: Array<ExpectedRevision> = w.nth.map((k) => (k === 0 ? "no_stream" : BigInt(k - 1)))
    const emmettEvents: Array<Array<BenchEvent>> = w.batches.map((b) =>
      b.map((e) => ({ type: e.type, data: e.data as Record<string, unknown>, metadata: e.metadata as Record<string, unknown> })),
    )
    const emmettOptions = w.nth.map((k) => ({ expectedStreamVersion: k === 0 ? STREAM_DOES_NOT_EXIST : BigInt(k) }))
    const streamOf = w.batches.map((_, i) => w.streams[i % streamCount]!)

    return compareOps({
      ...options,
      ops,
      unit: "appends/s",
      note: `${streamCount} streams × ${perStream} events, round-robin, expected revision checked on both`,
      subject: () => {
        const store = makeMemoryStore()
        return {
          op: (i) => Effect.runSync(store.append(streamOf[i]!, w.batches[i]!, expected[i]!)),
          teardown: () => {
            // Positions count from 1 (as SQLite's): the head's position is the number of events.
            const head = Effect.runSync(store.headPosition)
            if (head !== BigInt(total)) throw new Error(`memory store holds ${head} events, not ${total}`)
          },
        }
      },
      baseline: () => {
        const store = getInMemoryEventStore()
        return {
          op: (i) => store.appendToStream(streamOf[i]!, emmettEvents[i]!, emmettOptions[i]!),
          teardown: async () => {
            let n = 0
            for (const s of w.streams) n += (await store.readStream(s)).events.length
            if (n !== total) throw new Error(`Emmett holds ${n} events, not ${total}`)
          },
        }
      },
    })
  },
}
