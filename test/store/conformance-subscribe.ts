// Conformance: subscribeAll catches up, goes live, and neither skips nor repeats an event while appends race it.
import { Effect, Stream } from "effect"
import { describe, expect, it } from "vitest"
import type { NewEvent, RecordedEvent } from "../../src/store/event-store.js"
import { append, expectPositionsIncreasing, idsOf, newEvent, newEvents, ourLog, run, type Fixture } from "./conformance-harness.js"

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

/**
 * Starts collecting the test's next `count` events after `afterPosition`; fails after 90 s instead of hanging (a
 * guard against a hang, not a speed check: on a loaded machine the gRPC double's catch-up took over 20 s).
 * A slow subscriber gives the event loop away every 40 events, so that appends land between its catch-up pages.
 */
const collect = (f: Fixture, afterPosition: bigint, count: number, pace: "fast" | "slow" = "fast"): Promise<Array<RecordedEvent>> => {
  let delivered = 0
  return run(
    f.store.subscribeAll({ afterPosition }).pipe(
      Stream.filter(f.isOurs),
      Stream.tap(() => (pace === "slow" && ++delivered % 40 === 0 ? Effect.promise(nextTurn) : Effect.void)),
      Stream.take(count),
      Stream.runCollect,
      Effect.timeout("90 seconds"),
    ),
  )
}

export const subscriptionRules = (f: Fixture) => {
  describe("subscribeAll", () => {
    it("delivers the events already in the log, then live ones, in position order", async () => {
      const marker = await append(f, f.stream("marker"), [newEvent()], "no_stream")
      const stream = f.stream("a")
      const past = newEvents(5)
      await append(f, stream, past, "no_stream")
      const collecting = collect(f, marker.position, 10)
      await nextTurn()
      const live = newEvents(5)
      for (let i = 0; i < live.length; i++) {
        await append(f, stream, [live[i]!], BigInt(4 + i))
        await nextTurn()
      }
      const delivered = await collecting
      expect(idsOf(delivered)).toEqual(idsOf([...past, ...live]))
      expectPositionsIncreasing(delivered)
      expect(delivered).toEqual(await ourLog(f, delivered[0]!.position))
    })

    it("delivers only events strictly after afterPosition", async () => {
      const stream = f.stream("a")
      const batch = newEvents(4)
      await append(f, stream, batch, "no_stream")
      const read = await run(f.store.readStream(stream))
      const delivered = await collect(f, read.events[1]!.position, 2)
      expect(idsOf(delivered)).toEqual(idsOf(batch.slice(2)))
    })

    it("wakes up for an append made after it has caught up", async () => {
      const marker = await append(f, f.stream("marker"), [newEvent()], "no_stream")
      const collecting = collect(f, marker.position, 1)
      for (let i = 0; i < 5; i++) await nextTurn()
      const event = newEvent()
      await append(f, f.stream("a"), [event], "no_stream")
      expect(idsOf(await collecting)).toEqual([event.id])
    })

    it("has no gap and no duplicate while appends race a catch-up of several pages", { timeout: 120_000 }, async () => {
      const marker = await append(f, f.stream("marker"), [newEvent()], "no_stream")
      const written: Array<NewEvent> = []
      for (let i = 0; i < 25; i++) {
        const batch = newEvents(100)
        written.push(...batch)
        await append(f, f.stream(`s${i % 5}`), batch, "any")
      }
      const racing = 300
      const total = written.length + racing
      const subscribers = [collect(f, marker.position, total, "slow"), collect(f, marker.position, total, "fast")]
      for (let i = 0; i < racing; i++) {
        const event = newEvent()
        written.push(event)
        await append(f, f.stream(`s${i % 7}`), [event], "any")
        await nextTurn()
      }
      for (const delivered of await Promise.all(subscribers)) {
        expect(new Set(idsOf(delivered)).size).toBe(written.length)
        expect(idsOf(delivered)).toEqual(idsOf(written))
        expectPositionsIncreasing(delivered)
      }
    })

    it("lets two appends in a row reach a subscriber that is waiting live", async () => {
      const marker = await append(f, f.stream("marker"), [newEvent()], "no_stream")
      const collecting = collect(f, marker.position, 3)
      await nextTurn()
      const events = [newEvent(), newEvent(), newEvent()]
      await Promise.all(events.map((event, i) => append(f, f.stream(`p${i}`), [event], "no_stream")))
      expect(new Set(idsOf(await collecting))).toEqual(new Set(idsOf(events)))
    })
  })
}
