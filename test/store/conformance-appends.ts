// Conformance: expected revisions, empty appends and idempotent re-appends, as EventStoreDB defines them.
import { describe, expect, it } from "vitest"
import type { ExpectedRevision, NewEvent, StreamName } from "../../src/store/event-store.js"
import {
  append,
  expectPositionsIncreasing,
  expectWrongExpectedVersion,
  idsOf,
  newEvent,
  newEvents,
  ourLog,
  run,
  type Fixture,
} from "./conformance-harness.js"

/** Snapshot of a stream and of the test's part of $all, to prove a failed append wrote nothing. */
const snapshot = async (f: Fixture, stream: StreamName, from: bigint) => ({
  stream: await run(f.store.readStream(stream)),
  log: idsOf(await ourLog(f, from)),
})

const expectRejectedWithoutWrite = async (
  f: Fixture,
  stream: StreamName,
  from: bigint,
  events: ReadonlyArray<NewEvent>,
  expected: ExpectedRevision,
  actual: bigint | "no_stream",
) => {
  const before = await snapshot(f, stream, from)
  await expectWrongExpectedVersion(f, stream, events, expected, actual)
  expect(await snapshot(f, stream, from)).toEqual(before)
}

export const appendRules = (f: Fixture) => {
  describe("expected revision", () => {
    it("no_stream starts an absent stream at revision 0", async () => {
      const stream = f.stream("a")
      const result = await append(f, stream, [newEvent()], "no_stream")
      expect(result.nextExpectedRevision).toBe(0n)
      const read = await run(f.store.readStream(stream))
      expect(read.revision).toBe(0n)
      expect(read.events.map((e) => e.revision)).toEqual([0n])
      expect(read.events[0]!.position).toBe(result.position)
    })

    it("no_stream on an existing stream fails with its revision and writes nothing", async () => {
      const stream = f.stream("a")
      const first = await append(f, stream, newEvents(2), "no_stream")
      await expectRejectedWithoutWrite(f, stream, first.position, [newEvent()], "no_stream", 1n)
    })

    it("any appends to an absent stream and to an existing one", async () => {
      const stream = f.stream("a")
      expect((await append(f, stream, [newEvent()], "any")).nextExpectedRevision).toBe(0n)
      expect((await append(f, stream, newEvents(2), "any")).nextExpectedRevision).toBe(2n)
      expect((await run(f.store.readStream(stream))).events.map((e) => e.revision)).toEqual([0n, 1n, 2n])
    })

    it("stream_exists appends to an existing stream", async () => {
      const stream = f.stream("a")
      await append(f, stream, [newEvent()], "no_stream")
      expect((await append(f, stream, [newEvent()], "stream_exists")).nextExpectedRevision).toBe(1n)
    })

    it("stream_exists on an absent stream fails with no_stream and writes nothing", async () => {
      const marker = await append(f, f.stream("marker"), [newEvent()], "no_stream")
      const stream = f.stream("a")
      await expectRejectedWithoutWrite(f, stream, marker.position, [newEvent()], "stream_exists", "no_stream")
      expect((await run(f.store.readStream(stream))).revision).toBe("no_stream")
    })

    it("an exact revision appends when it is the stream's last revision", async () => {
      const stream = f.stream("a")
      await append(f, stream, newEvents(3), "no_stream")
      const result = await append(f, stream, newEvents(2), 2n)
      expect(result.nextExpectedRevision).toBe(4n)
      expect((await run(f.store.readStream(stream))).revision).toBe(4n)
    })

    it("a stale or a future exact revision fails with the actual revision and writes nothing", async () => {
      const stream = f.stream("a")
      const first = await append(f, stream, newEvents(3), "no_stream")
      await expectRejectedWithoutWrite(f, stream, first.position, [newEvent()], 1n, 2n)
      await expectRejectedWithoutWrite(f, stream, first.position, [newEvent()], 0n, 2n)
      await expectRejectedWithoutWrite(f, stream, first.position, [newEvent()], 3n, 2n)
      await expectRejectedWithoutWrite(f, stream, first.position, newEvents(4), 7n, 2n)
    })

    it("an exact revision on an absent stream fails with no_stream and writes nothing", async () => {
      const marker = await append(f, f.stream("marker"), [newEvent()], "no_stream")
      await expectRejectedWithoutWrite(f, f.stream("a"), marker.position, [newEvent()], 0n, "no_stream")
    })

    it("a batch gets contiguous revisions and increasing positions, and the result names its last event", async () => {
      const stream = f.stream("a")
      await append(f, stream, [newEvent()], "no_stream")
      const batch = newEvents(5)
      const result = await append(f, stream, batch, 0n)
      const read = await run(f.store.readStream(stream, { fromRevision: 1n }))
      expect(idsOf(read.events)).toEqual(idsOf(batch))
      expect(read.events.map((e) => e.revision)).toEqual([1n, 2n, 3n, 4n, 5n])
      expectPositionsIncreasing(read.events)
      expect(result).toEqual({ nextExpectedRevision: 5n, position: read.events[4]!.position })
    })
  })

  describe("empty appends", () => {
    it("succeed without writing when the expected revision matches", async () => {
      const marker = await append(f, f.stream("marker"), [newEvent()], "no_stream")
      const absent = f.stream("absent")
      await append(f, absent, [], "no_stream")
      await append(f, absent, [], "any")
      expect((await run(f.store.readStream(absent))).revision).toBe("no_stream")
      const stream = f.stream("a")
      await append(f, stream, newEvents(2), "no_stream")
      expect((await append(f, stream, [], 1n)).nextExpectedRevision).toBe(1n)
      expect((await append(f, stream, [], "stream_exists")).nextExpectedRevision).toBe(1n)
      expect((await append(f, stream, [], "any")).nextExpectedRevision).toBe(1n)
      expect(await ourLog(f, marker.position)).toHaveLength(3)
    })

    it("fail when the expected revision does not match", async () => {
      const stream = f.stream("a")
      const first = await append(f, stream, newEvents(2), "no_stream")
      await expectRejectedWithoutWrite(f, stream, first.position, [], "no_stream", 1n)
      await expectRejectedWithoutWrite(f, stream, first.position, [], 0n, 1n)
      await expectRejectedWithoutWrite(f, f.stream("absent"), first.position, [], "stream_exists", "no_stream")
      await expectRejectedWithoutWrite(f, f.stream("absent"), first.position, [], 0n, "no_stream")
    })
  })

  describe("idempotent re-appends", () => {
    it("the same events at the revision they were appended after return the original result and write nothing", async () => {
      const stream = f.stream("a")
      const [first, second] = [newEvents(2), newEvents(3)]
      const firstResult = await append(f, stream, first, "no_stream")
      const secondResult = await append(f, stream, second, 1n)
      expect(await append(f, stream, first, "no_stream")).toEqual(firstResult)
      expect(await append(f, stream, second, 1n)).toEqual(secondResult)
      const read = await run(f.store.readStream(stream))
      expect(idsOf(read.events)).toEqual(idsOf([...first, ...second]))
      expect(await ourLog(f, read.events[0]!.position)).toHaveLength(5)
    })

    it("a leading part of an earlier batch, at its original revision, is a repeat ending at its last event", async () => {
      const stream = f.stream("a")
      const batch = newEvents(3)
      await append(f, stream, batch, "no_stream")
      const read = await run(f.store.readStream(stream))
      expect(await append(f, stream, batch.slice(0, 2), "no_stream")).toEqual({
        nextExpectedRevision: 1n,
        position: read.events[1]!.position,
      })
      expect((await run(f.store.readStream(stream))).events).toHaveLength(3)
    })

    it("the same events with any return the original result and write nothing", async () => {
      const stream = f.stream("a")
      await append(f, stream, [newEvent()], "no_stream")
      const batch = newEvents(2)
      const original = await append(f, stream, batch, "any")
      await append(f, stream, [newEvent()], "any")
      expect(await append(f, stream, batch, "any")).toEqual(original)
      expect(await append(f, stream, batch, "stream_exists")).toEqual(original)
      expect((await run(f.store.readStream(stream))).events).toHaveLength(4)
    })

    it("a partial overlap with an earlier batch is a WrongExpectedVersion and writes nothing", async () => {
      const stream = f.stream("a")
      const [a, b] = [newEvent(), newEvent()]
      const first = await append(f, stream, [a, b], "no_stream")
      await expectRejectedWithoutWrite(f, stream, first.position, [a, newEvent()], "no_stream", 1n)
      await expectRejectedWithoutWrite(f, stream, first.position, [a, b, newEvent()], "no_stream", 1n)
      await expectRejectedWithoutWrite(f, stream, first.position, [b, newEvent()], 0n, 1n)
      await expectRejectedWithoutWrite(f, stream, first.position, [a, newEvent()], "any", 1n)
    })

    it("ids already in one stream are new to another", async () => {
      const batch = newEvents(2)
      await append(f, f.stream("a"), batch, "no_stream")
      const result = await append(f, f.stream("b"), batch, "no_stream")
      expect(result.nextExpectedRevision).toBe(1n)
      expect(idsOf((await run(f.store.readStream(f.stream("b")))).events)).toEqual(idsOf(batch))
    })
  })
}

export const positionRules = (f: Fixture) =>
  it("positions increase strictly across streams, in the order appends were acknowledged", async () => {
    const results = []
    for (let i = 0; i < 12; i++) results.push(await append(f, f.stream(`s${i % 3}`), newEvents(1 + (i % 2)), "any"))
    for (let i = 1; i < results.length; i++) expect(results[i]!.position).toBeGreaterThan(results[i - 1]!.position)
    const log = await ourLog(f, (await run(f.store.readStream(f.stream("s0")))).events[0]!.position)
    expect(log).toHaveLength(18)
    expectPositionsIncreasing(log)
  })
