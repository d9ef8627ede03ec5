// The EventStore conformance suite: one set of rules every adapter (memory, sqlite, esdb) must pass, through the port only.
import { Effect, Stream } from "effect"
import { describe, expect, it } from "vitest"
import { appendRules, positionRules } from "./conformance-appends.js"
import { append, idsOf, newEvents, run, useStore, type Fixture, type StoreUnderTest } from "./conformance-harness.js"
import { modelProperty } from "./conformance-model.js"
import { readRules } from "./conformance-reads.js"
import { subscriptionRules } from "./conformance-subscribe.js"
import { truncateRules } from "./conformance-truncate.js"

export type { StoreUnderTest } from "./conformance-harness.js"

export interface ConformanceOptions {
  /** Every `make()` returns a store of its own that starts empty (memory, sqlite), unlike a shared server. */
  readonly freshStore?: boolean
  /** The store owns its log and can shorten it (truncateAfter). */
  readonly truncates?: boolean
}

const emptyStoreRules = (f: Fixture) =>
  describe("on a store of its own", () => {
    it("an empty store has head position -1 and an empty log", async () => {
      expect(await run(f.store.headPosition)).toBe(-1n)
      expect(await run(f.store.readAll())).toEqual([])
    })

    it("the head position is the position of the last event in the log", async () => {
      await append(f, f.stream("a"), newEvents(3), "no_stream")
      const last = await append(f, f.stream("b"), newEvents(2), "no_stream")
      const log = await run(f.store.readAll())
      expect(log).toHaveLength(5)
      expect(await run(f.store.headPosition)).toBe(last.position)
      expect(log[4]!.position).toBe(last.position)
    })

    it("readAll without options, and subscribeAll without afterPosition, start at the first event", async () => {
      const batch = newEvents(3)
      await append(f, f.stream("a"), batch, "no_stream")
      expect(idsOf(await run(f.store.readAll()))).toEqual(idsOf(batch))
      expect(idsOf(await run(f.store.readAll({ maxCount: 2 })))).toEqual(idsOf(batch.slice(0, 2)))
      const delivered = await run(f.store.subscribeAll().pipe(Stream.take(3), Stream.runCollect, Effect.timeout("10 seconds")))
      expect(idsOf(delivered)).toEqual(idsOf(batch))
    })
  })

export const describeEventStoreConformance = (name: string, make: () => Promise<StoreUnderTest>, options: ConformanceOptions = {}) =>
  describe(`EventStore conformance: ${name}`, () => {
    const fixture = useStore(make)
    appendRules(fixture)
    positionRules(fixture)
    readRules(fixture)
    subscriptionRules(fixture)
    modelProperty(fixture)
    if (options.freshStore === true) emptyStoreRules(fixture)
    if (options.truncates === true) truncateRules(fixture)
  })
