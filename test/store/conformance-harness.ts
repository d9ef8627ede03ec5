// Fixture of the store conformance suite: the store under test, stream names unique to each test, event factories.
import { randomUUID } from "node:crypto"
import { Effect } from "effect"
import { afterEach, beforeEach, expect } from "vitest"
import {
  WrongExpectedVersion,
  streamName,
  type EventStoreShape,
  type ExpectedRevision,
  type JsonValue,
  type NewEvent,
  type RecordedEvent,
  type StreamName,
} from "../../src/store/event-store.js"

export interface StoreUnderTest {
  readonly store: EventStoreShape
  readonly close: () => Promise<void>
}

export interface Fixture {
  readonly store: EventStoreShape
  /** A stream name no other test (nor another run against a shared server) uses. */
  readonly stream: (label: string) => StreamName
  /** Whether an event of $all was written by the current test. */
  readonly isOurs: (event: RecordedEvent) => boolean
}

export const useStore = (make: () => Promise<StoreUnderTest>): Fixture => {
  let current: StoreUnderTest | undefined
  let prefix = ""
  beforeEach(async () => {
    prefix = `conformance-${randomUUID().replaceAll("-", "")}.`
    current = await make()
  })
  afterEach(async () => {
    const closing = current
    current = undefined
    await closing?.close()
  })
  return {
    get store() {
      if (current === undefined) throw new Error("the store exists only while a test runs")
      return current.store
    },
    stream: (label) => streamName("conformance", `${prefix.slice("conformance-".length)}${label}`),
    isOurs: (event) => event.stream.startsWith(prefix),
  }
}

let made = 0
export const newEvent = (data: JsonValue = { n: ++made }, type = "ConformanceChecked"): NewEvent => ({
  id: randomUUID(),
  type,
  data,
  metadata: { at: 1_700_000_000_000 + made, schemaVersion: 1 },
})
export const newEvents = (count: number): Array<NewEvent> => Array.from({ length: count }, (_, index) => newEvent({ index }))

export const run = <A, E>(effect: Effect.Effect<A, E>): Promise<A> => Effect.runPromise(effect)
export const failure = <A, E>(effect: Effect.Effect<A, E>): Promise<E> => Effect.runPromise(Effect.flip(effect))

export const append = (f: Fixture, stream: StreamName, events: ReadonlyArray<NewEvent>, expected: ExpectedRevision) =>
  run(f.store.append(stream, events, expected))

/** The current test's events in $all, from `from` (an event's position, inclusive) on. */
export const ourLog = async (f: Fixture, from: bigint): Promise<Array<RecordedEvent>> =>
  (await run(f.store.readAll({ fromPosition: from }))).filter(f.isOurs)

export const idsOf = (events: ReadonlyArray<{ readonly id: string }>) => events.map((event) => event.id)

export const expectWrongExpectedVersion = async (
  f: Fixture,
  stream: StreamName,
  events: ReadonlyArray<NewEvent>,
  expected: ExpectedRevision,
  actual: bigint | "no_stream",
) => {
  const error = await failure(f.store.append(stream, events, expected))
  expect(error).toBeInstanceOf(WrongExpectedVersion)
  expect(error).toMatchObject({ _tag: "WrongExpectedVersion", stream, expected, actual })
}

export const expectPositionsIncreasing = (events: ReadonlyArray<RecordedEvent>) => {
  for (let i = 1; i < events.length; i++) expect(events[i]!.position).toBeGreaterThan(events[i - 1]!.position)
}
