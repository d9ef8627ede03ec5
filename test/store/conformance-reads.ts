// Conformance: reading a stream both ways, paging through $all, the head position and JSON round-trips.
import { describe, expect, it } from "vitest"
import type { NewEvent, RecordedEvent } from "../../src/store/event-store.js"
import { append, expectPositionsIncreasing, idsOf, newEvent, newEvents, ourLog, run, type Fixture } from "./conformance-harness.js"

const revisions = (events: ReadonlyArray<RecordedEvent>) => events.map((event) => event.revision)

export const readRules = (f: Fixture) => {
  describe("readStream", () => {
    it("an absent stream reads as no events and revision no_stream, both ways", async () => {
      const stream = f.stream("absent")
      expect(await run(f.store.readStream(stream))).toEqual({ events: [], revision: "no_stream" })
      expect(await run(f.store.readStream(stream, { direction: "backwards" }))).toEqual({ events: [], revision: "no_stream" })
    })

    it("forwards returns the whole stream in revision order with its last revision", async () => {
      const stream = f.stream("a")
      const batch = newEvents(4)
      await append(f, stream, batch, "no_stream")
      const read = await run(f.store.readStream(stream, { direction: "forwards" }))
      expect(idsOf(read.events)).toEqual(idsOf(batch))
      expect(revisions(read.events)).toEqual([0n, 1n, 2n, 3n])
      expect(read.events.every((event) => event.stream === stream)).toBe(true)
      expect(read.revision).toBe(3n)
    })

    it("forwards starts at fromRevision inclusive, stops after maxCount, and still reports the last revision", async () => {
      const stream = f.stream("a")
      await append(f, stream, newEvents(6), "no_stream")
      expect(revisions((await run(f.store.readStream(stream, { fromRevision: 2n }))).events)).toEqual([2n, 3n, 4n, 5n])
      const page = await run(f.store.readStream(stream, { fromRevision: 1n, maxCount: 3 }))
      expect(revisions(page.events)).toEqual([1n, 2n, 3n])
      expect(page.revision).toBe(5n)
      expect(revisions((await run(f.store.readStream(stream, { maxCount: 2 }))).events)).toEqual([0n, 1n])
      expect(revisions((await run(f.store.readStream(stream, { fromRevision: 4n, maxCount: 10 }))).events)).toEqual([4n, 5n])
    })

    it("forwards from beyond the end returns no events but the stream's revision", async () => {
      const stream = f.stream("a")
      await append(f, stream, newEvents(2), "no_stream")
      expect(await run(f.store.readStream(stream, { fromRevision: 5n }))).toEqual({ events: [], revision: 1n })
      // Right after the last event: what a command reads to catch up with a stream it has folded to the end.
      expect(await run(f.store.readStream(stream, { fromRevision: 2n }))).toEqual({ events: [], revision: 1n })
    })

    it("backwards starts at the end or at fromRevision inclusive, in descending revisions, with maxCount", async () => {
      const stream = f.stream("a")
      await append(f, stream, newEvents(5), "no_stream")
      const all = await run(f.store.readStream(stream, { direction: "backwards" }))
      expect(revisions(all.events)).toEqual([4n, 3n, 2n, 1n, 0n])
      expect(all.revision).toBe(4n)
      expect(revisions((await run(f.store.readStream(stream, { direction: "backwards", fromRevision: 2n }))).events)).toEqual([2n, 1n, 0n])
      const page = await run(f.store.readStream(stream, { direction: "backwards", fromRevision: 3n, maxCount: 2 }))
      expect(revisions(page.events)).toEqual([3n, 2n])
      expect(page.revision).toBe(4n)
      expect(revisions((await run(f.store.readStream(stream, { direction: "backwards", maxCount: 1 }))).events)).toEqual([4n])
    })

    it("never returns another stream's events", async () => {
      const [a, b] = [f.stream("a"), f.stream("a2")]
      await append(f, a, newEvents(2), "no_stream")
      await append(f, b, newEvents(3), "no_stream")
      await append(f, a, newEvents(1), 1n)
      const read = await run(f.store.readStream(a))
      expect(read.events.map((event) => event.stream)).toEqual([a, a, a])
      expect(revisions(read.events)).toEqual([0n, 1n, 2n])
    })
  })

  describe("readAll", () => {
    it("starts at fromPosition inclusive and pages with maxCount through every event in position order", async () => {
      const written: Array<NewEvent> = []
      for (let i = 0; i < 7; i++) {
        const batch = newEvents(1 + (i % 3))
        written.push(...batch)
        await append(f, f.stream(`s${i % 2}`), batch, "any")
      }
      const first = (await run(f.store.readStream(f.stream("s0")))).events[0]!
      const seen: Array<RecordedEvent> = []
      let from = first.position
      for (let pages = 0; pages < 100; pages++) {
        const page = await run(f.store.readAll({ fromPosition: from, maxCount: 3 }))
        expect(page.length).toBeLessThanOrEqual(3)
        expectPositionsIncreasing(page)
        expect(page[0]!.position).toBe(from)
        // The page starts with the event the previous page ended on: positions are opaque, so no `+ 1n`.
        seen.push(...(seen.length === 0 ? page : page.slice(1)))
        if (page.length < 3 || seen.filter(f.isOurs).length >= written.length) break
        from = page[page.length - 1]!.position
      }
      expect(idsOf(seen.filter(f.isOurs))).toEqual(idsOf(written))
      expectPositionsIncreasing(seen)
    })

    it("returns the same events, with the same fields, as readStream", async () => {
      const stream = f.stream("a")
      await append(f, stream, newEvents(3), "no_stream")
      const read = await run(f.store.readStream(stream))
      expect(await ourLog(f, read.events[0]!.position)).toEqual(read.events)
    })
  })

  describe("headPosition", () => {
    it("is at least the position of the last acknowledged append", async () => {
      const result = await append(f, f.stream("a"), newEvents(3), "no_stream")
      expect(await run(f.store.headPosition)).toBeGreaterThanOrEqual(result.position)
      const next = await append(f, f.stream("b"), [newEvent()], "no_stream")
      expect(await run(f.store.headPosition)).toBeGreaterThanOrEqual(next.position)
    })
  })

  describe("event data", () => {
    it("data and metadata round-trip exactly: unicode, nesting, arrays, numbers, null and key order", async () => {
      const data = {
        zeta: "last key first",
        text: "héllo wörld · 日本語 · 🚀👩‍👩‍👧 · \u0000\u001f \\ \" '\n\t",
        nested: { deep: { deeper: [1, [2, [3, { four: 4 }]], { "": "empty key" }] }, b: true, a: false },
        numbers: [0, -1, 1.5, 1e21, Number.MAX_SAFE_INTEGER, -0.000001],
        nothing: null,
        emptyObject: {},
        emptyArray: [],
        alpha: "a",
      }
      const metadata = {
        at: 1_700_000_123_456,
        schemaVersion: 3,
        requestId: "req-1",
        causationId: "cause-1",
        correlationId: "corr-1",
        extra: { ключ: ["значение", 1] },
      }
      const event: NewEvent = { id: newEvent().id, type: "Ünïcode.Type-1", data, metadata }
      const stream = f.stream("json")
      await append(f, stream, [event], "no_stream")
      const [stored] = (await run(f.store.readStream(stream))).events
      expect(stored).toMatchObject({ id: event.id, type: event.type, data, metadata })
      expect(JSON.stringify(stored!.data)).toBe(JSON.stringify(data))
      expect(JSON.stringify(stored!.metadata)).toBe(JSON.stringify(metadata))
      const [fromLog] = await ourLog(f, stored!.position)
      expect(JSON.stringify([fromLog!.data, fromLog!.metadata])).toBe(JSON.stringify([data, metadata]))
    })

    it("a string, a number, an array or null is valid data", async () => {
      const stream = f.stream("scalars")
      const values = ["just a string", 42, [1, "two", null], null, true]
      await append(
        f,
        stream,
        values.map((value) => newEvent(value)),
        "no_stream",
      )
      expect((await run(f.store.readStream(stream))).events.map((event) => event.data)).toEqual(values)
    })
  })
}
