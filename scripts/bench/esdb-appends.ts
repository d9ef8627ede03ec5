// Benchmark: 100-event batch appends through the esdb adapter to the gRPC double over a local socket, for ~3 s.
import { randomUUID } from "node:crypto"
import { pathToFileURL } from "node:url"
import { Effect } from "effect"
import type { AppendResult, EventStoreShape, NewEvent } from "../../src/store/event-store.js"
import { makeEsdbStore } from "../../src/store/esdb.js"
import { makeMemoryStore } from "../../src/store/memory.js"
import { startEsdbDouble } from "../../test/support/esdb-double/index.js"

const BATCH = 100
const WRITERS = 8
const DURATION_MS = 3_000

const batch = (writer: number, n: number): ReadonlyArray<NewEvent> =>
  Array.from({ length: BATCH }, (_, i) => ({
    id: randomUUID(),
    type: "BenchPosted",
    data: { writer, n: n + i, amount: "1250000000000000000", note: "bench" },
    metadata: { at: n + i, schemaVersion: 1, requestId: `req-${writer}-${n}` },
  }))

/** One writer per stream, in parallel, each appending at its expected revision until the time is up. */
const measure = async (store: EventStoreShape, durationMs: number) => {
  const run = `bench${randomUUID().slice(0, 8)}`
  await Effect.runPromise(store.append(`${run}-warmup`, batch(-1, 0), "no_stream"))
  const started = performance.now()
  const writer = async (w: number) => {
    let expected: bigint | "no_stream" = "no_stream"
    let written = 0
    while (performance.now() - started < durationMs) {
      const result: AppendResult = await Effect.runPromise(store.append(`${run}-${w}`, batch(w, written), expected))
      expected = result.nextExpectedRevision
      written += BATCH
    }
    return written
  }
  const events = (await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)))).reduce((a, b) => a + b, 0)
  return { events, eventsPerSecond: Math.round(events / ((performance.now() - started) / 1_000)) }
}

export async function benchEsdbAppends(
  options: { durationMs?: number; serverFeatures?: boolean } = {},
): Promise<{ eventsPerSecond: number; events: number }> {
  const double = await startEsdbDouble({ serverFeatures: options.serverFeatures ?? true })
  const store = makeEsdbStore(double.connectionString)
  try {
    return await measure(store, options.durationMs ?? DURATION_MS)
  } finally {
    await store.close()
    await double.stop()
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  // The in-process memory adapter, measured in the same run, is the baseline: absolute numbers vary by machine.
  const baseline = await measure(makeMemoryStore(), 1_000)
  console.log(`memory appends (baseline): ${baseline.eventsPerSecond} events/s`)
  for (const serverFeatures of [true, false]) {
    const { eventsPerSecond, events } = await benchEsdbAppends({ serverFeatures })
    const ratio = (eventsPerSecond / baseline.eventsPerSecond).toFixed(3)
    console.log(
      `esdb appends via ${serverFeatures ? "BatchAppend" : "Append"}: ${eventsPerSecond} events/s (${events} events in batches of ${BATCH}, ${ratio} × baseline)`,
    )
  }
}
