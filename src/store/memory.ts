// In-memory adapter: the log and each stream as arrays, O(1) appends; for tests and property runs. Positions count
// from 1, as in SQLite, so a log replayed here keeps the positions it had there (the event at index i is at i + 1).
import { Effect, Layer } from "effect"
import { catchUpThenLive, makeAppendSignal } from "./catch-up.js"
import { checkCommit, type StreamIds } from "./commit-check.js"
import {
  EventStore,
  WrongExpectedVersion,
  type AppendResult,
  type EventStoreShape,
  type ExpectedRevision,
  type NewEvent,
  type ReadAllOptions,
  type ReadStreamOptions,
  type ReadStreamResult,
  type RecordedEvent,
  type StreamName,
  type TruncateOptions,
} from "./event-store.js"

class MemoryStream implements StreamIds {
  readonly events: Array<RecordedEvent> = []
  /** Revision of each id, built on the first append with any/stream_exists: exact revisions never need it. */
  ids: Map<string, number> | undefined = undefined
  idsAfter(revision: number, count: number): ReadonlyArray<string> {
    return this.events.slice(revision + 1, revision + 1 + count).map((event) => event.id)
  }
  revisionOf(id: string): number | undefined {
    if (this.ids === undefined) {
      this.ids = new Map()
      for (let i = this.events.length - 1; i >= 0; i--) this.ids.set(this.events[i]!.id, i)
    }
    return this.ids.get(id)
  }
}

const absent: StreamIds = { idsAfter: () => [], revisionOf: () => undefined }
const noStream: ReadStreamResult = { events: [], revision: "no_stream" }

/** A stream's events as readStream answers them: forwards from a revision, or backwards, at most `maxCount`. */
const streamEvents = (stream: MemoryStream | undefined, options?: ReadStreamOptions): ReadStreamResult => {
  if (stream === undefined) return noStream
  const all = stream.events
  const revision = all[all.length - 1]!.revision
  const maxCount = options?.maxCount ?? Number.MAX_SAFE_INTEGER
  if (options?.direction === "backwards") {
    const from = options.fromRevision === undefined ? all.length - 1 : Math.min(Number(options.fromRevision), all.length - 1)
    const events: Array<RecordedEvent> = []
    for (let i = from; i >= 0 && events.length < maxCount; i--) events.push(all[i]!)
    return { events, revision }
  }
  const from = Math.max(0, Number(options?.fromRevision ?? 0n))
  return { events: all.slice(from, from + maxCount), revision }
}

export const makeMemoryStore = (): EventStoreShape => {
  const log: Array<RecordedEvent> = []
  const streams = new Map<StreamName, MemoryStream>()
  const head = () => (log.length === 0 ? -1n : BigInt(log.length))
  const signal = makeAppendSignal(head)

  const write = (name: StreamName, found: MemoryStream | undefined, events: ReadonlyArray<NewEvent>): AppendResult => {
    let stream = found
    if (stream === undefined) {
      stream = new MemoryStream()
      streams.set(name, stream)
    }
    let last: RecordedEvent | undefined
    for (const event of events) {
      const revision = stream.events.length
      last = {
        id: event.id,
        type: event.type,
        data: event.data,
        metadata: event.metadata,
        stream: name,
        revision: BigInt(revision),
        position: BigInt(log.length + 1),
      }
      log.push(last)
      stream.events.push(last)
      if (stream.ids !== undefined && !stream.ids.has(event.id)) stream.ids.set(event.id, revision)
    }
    signal.notify()
    return { nextExpectedRevision: last!.revision, position: last!.position }
  }

  const unchanged = (found: MemoryStream | undefined): AppendResult => {
    const last = found?.events[found.events.length - 1]
    return { nextExpectedRevision: last?.revision ?? -1n, position: -1n }
  }

  const append = (name: StreamName, events: ReadonlyArray<NewEvent>, expected: ExpectedRevision) =>
    Effect.suspend(() => {
      const found = streams.get(name)
      const current = found === undefined ? -1 : found.events.length - 1
      const verdict = checkCommit(current, expected, events, found ?? absent)
      if (verdict === "write") return Effect.succeed(events.length === 0 ? unchanged(found) : write(name, found, events))
      if (verdict === "mismatch") {
        const actual = current < 0 ? ("no_stream" as const) : BigInt(current)
        return Effect.fail(new WrongExpectedVersion({ stream: name, expected, actual }))
      }
      const repeated = found!.events[verdict]!
      return Effect.succeed<AppendResult>({ nextExpectedRevision: repeated.revision, position: repeated.position })
    })

  const readStream = (name: StreamName, options?: ReadStreamOptions) => Effect.sync(() => streamEvents(streams.get(name), options))

  const readAll = (options?: ReadAllOptions) =>
    Effect.sync((): ReadonlyArray<RecordedEvent> => {
      const from = Math.max(0, Number(options?.fromPosition ?? 0n) - 1)
      return log.slice(from, from + (options?.maxCount ?? Number.MAX_SAFE_INTEGER))
    })

  let epoch = 0
  const truncateAfter = (position: bigint, options?: TruncateOptions) =>
    Effect.sync(() => {
      if (options?.epoch !== undefined) epoch = options.epoch
      const keep = Math.max(0, Math.min(log.length, Number(position)))
      for (let i = log.length - 1; i >= keep; i--) {
        const event = log[i]!
        const stream = streams.get(event.stream)!
        stream.events.pop()
        stream.ids = undefined
        if (stream.events.length === 0) streams.delete(event.stream)
      }
      log.length = keep
      signal.notify()
    })

  return {
    kind: "memory",
    truncateAfter,
    epoch: Effect.sync(() => epoch),
    append,
    readStream,
    readAll,
    subscribeAll: (options) =>
      catchUpThenLive((after, maxCount) => readAll({ fromPosition: after + 1n, maxCount }), signal, options?.afterPosition ?? -1n),
    headPosition: Effect.sync(head),
  }
}

export const layerMemory: Layer.Layer<EventStore> = Layer.sync(EventStore, makeMemoryStore)
