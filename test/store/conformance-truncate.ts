// Conformance: truncating the log after a position (stores that own their log: memory, sqlite). The log, the
// streams, the head and the next positions are as if the removed events had never been appended.
import { Effect, Stream } from "effect"
import { describe, expect, it } from "vitest"
import { append, expectWrongExpectedVersion, idsOf, newEvents, run, type Fixture } from "./conformance-harness.js"

const truncate = (f: Fixture, position: bigint) => {
  const cut = f.store.truncateAfter
  if (cut === undefined) throw new Error(`${f.store.kind} does not truncate`)
  return run(cut(position))
}

export const truncateRules = (f: Fixture) =>
  describe("truncateAfter", () => {
    it("keeps the epoch a truncation records through later truncations without one (0 before any)", async () => {
      const epoch = f.store.epoch
      if (epoch === undefined) throw new Error(`${f.store.kind} truncates but keeps no epoch`)
      const a = f.stream("a")
      const kept = await append(f, a, newEvents(1), "no_stream")
      const before = await run(epoch)
      await append(f, a, newEvents(2), 0n)
      await run(f.store.truncateAfter!(kept.position, { epoch: before + 3 }))
      expect(await run(epoch)).toBe(before + 3)
      await truncate(f, kept.position)
      await append(f, a, newEvents(1), 0n)
      expect(await run(epoch)).toBe(before + 3)
      expect(idsOf((await run(f.store.readStream(a))).events)).toHaveLength(2)
    })

    it("removes every event after the position from $all, the streams and the head", async () => {
      const [a, b] = [f.stream("a"), f.stream("b")]
      const first = newEvents(3)
      const kept = await append(f, a, first, "no_stream")
      await append(f, b, newEvents(2), "no_stream")
      await append(f, a, newEvents(2), 2n)
      await truncate(f, kept.position)
      expect(idsOf(await run(f.store.readAll()))).toEqual(idsOf(first))
      expect(await run(f.store.headPosition)).toBe(kept.position)
      expect(await run(f.store.readStream(b))).toEqual({ events: [], revision: "no_stream" })
      const read = await run(f.store.readStream(a))
      expect(idsOf(read.events)).toEqual(idsOf(first))
      expect(read.revision).toBe(2n)
      expect(idsOf((await run(f.store.readStream(a, { direction: "backwards" }))).events)).toEqual(idsOf(first).reverse())
    })

    it("the log continues at the positions and revisions the removed events had, and their ids are new again", async () => {
      const a = f.stream("a")
      const kept = await append(f, a, newEvents(2), "no_stream")
      const removed = newEvents(3)
      const before = await append(f, a, removed, 1n)
      const whole = await run(f.store.readAll())
      await truncate(f, kept.position)
      await expectWrongExpectedVersion(f, a, newEvents(1), 4n, 1n)
      const again = await append(f, a, removed, "any")
      expect(again).toEqual(before)
      expect(await run(f.store.readAll())).toEqual(whole)
    })

    it("-1 empties the log; a position at or beyond the head changes nothing", async () => {
      const a = f.stream("a")
      const last = await append(f, a, newEvents(3), "no_stream")
      const first = (await run(f.store.readAll({ maxCount: 1 })))[0]!.position
      await truncate(f, last.position + 5n)
      await truncate(f, last.position)
      expect(await run(f.store.readAll())).toHaveLength(3)
      await truncate(f, -1n)
      expect(await run(f.store.readAll())).toEqual([])
      expect(await run(f.store.headPosition)).toBe(-1n)
      expect(await run(f.store.readStream(a))).toEqual({ events: [], revision: "no_stream" })
      const fresh = await append(f, a, newEvents(1), "no_stream")
      expect(fresh).toEqual({ nextExpectedRevision: 0n, position: first })
    })

    it("a subscription started after the truncation delivers the shortened log, then what is appended", async () => {
      const a = f.stream("a")
      const kept = newEvents(2)
      const last = await append(f, a, kept, "no_stream")
      await append(f, a, newEvents(2), 1n)
      await truncate(f, last.position)
      const next = newEvents(1)
      await append(f, a, next, 1n)
      const delivered = await run(f.store.subscribeAll().pipe(Stream.take(3), Stream.runCollect, Effect.timeout("10 seconds")))
      expect(idsOf(delivered)).toEqual(idsOf([...kept, ...next]))
    })

    it("a live subscription waiting past the cut goes on with the events appended after it", async () => {
      const a = f.stream("a")
      const first = newEvents(2)
      const kept = await append(f, a, first, "no_stream")
      const removed = newEvents(2)
      await append(f, a, removed, 1n)
      const live = Effect.runPromise(f.store.subscribeAll().pipe(Stream.take(5), Stream.runCollect, Effect.timeout("10 seconds")))
      await new Promise((resolve) => setTimeout(resolve, 50))
      await truncate(f, kept.position)
      const next = newEvents(1)
      await append(f, a, next, 1n)
      expect(idsOf(await live)).toEqual(idsOf([...first, ...removed, ...next]))
    })
  })
