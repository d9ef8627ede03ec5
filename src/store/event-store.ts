// The EventStore port: EventStoreDB semantics (expected revisions, idempotent appends, $all positions).
import { Context, Data } from "effect"
import type { Effect, Stream } from "effect"

export type StreamName = string
export type JsonValue = null | boolean | number | string | ReadonlyArray<JsonValue> | { readonly [k: string]: JsonValue }

/** What an append expects of the stream: absent, anything, present, or at exactly this revision (0-based). */
export type ExpectedRevision = "no_stream" | "any" | "stream_exists" | bigint

export interface EventMetadata {
  /** Simulated time of the command that wrote the event, UNIX milliseconds. */
  readonly at: number
  readonly schemaVersion: number
  readonly requestId?: string
  readonly causationId?: string
  readonly correlationId?: string
  readonly [extra: string]: JsonValue | undefined
}

export interface NewEvent {
  /** A uuid; appending the same ids again is idempotent. */
  readonly id: string
  readonly type: string
  readonly data: JsonValue
  readonly metadata: EventMetadata
}

export interface RecordedEvent extends NewEvent {
  readonly stream: StreamName
  /** 0-based index of the event within its stream. */
  readonly revision: bigint
  /** Position in the global log ($all): strictly increasing, possibly sparse, opaque. */
  readonly position: bigint
}

export interface AppendResult {
  /** Revision of the stream's last event after the append. */
  readonly nextExpectedRevision: bigint
  /** Global position of the last event appended (or of the event already there, for an idempotent repeat). */
  readonly position: bigint
}

export interface ReadStreamOptions {
  /** Revision to start at, inclusive (default: the start, or the end when reading backwards). */
  readonly fromRevision?: bigint
  readonly direction?: "forwards" | "backwards"
  readonly maxCount?: number
}

export interface ReadStreamResult {
  readonly events: ReadonlyArray<RecordedEvent>
  /** Revision of the stream's last event, or "no_stream" when the stream does not exist. */
  readonly revision: bigint | "no_stream"
}

export interface ReadAllOptions {
  /** Global position to start at, inclusive (default: the beginning). */
  readonly fromPosition?: bigint
  readonly maxCount?: number
}

export interface SubscribeAllOptions {
  /** Deliver only events strictly after this position (default: from the beginning). */
  readonly afterPosition?: bigint
}

export class WrongExpectedVersion extends Data.TaggedError("WrongExpectedVersion")<{
  readonly stream: StreamName
  readonly expected: ExpectedRevision
  readonly actual: bigint | "no_stream"
}> {}

export class StoreUnavailable extends Data.TaggedError("StoreUnavailable")<{
  readonly reason: string
  readonly cause?: unknown
}> {}

export interface EventStoreShape {
  /** "memory" | "sqlite" | "esdb": reported by /_sim/health. */
  readonly kind: string
  readonly append: (
    stream: StreamName,
    events: ReadonlyArray<NewEvent>,
    expected: ExpectedRevision,
  ) => Effect.Effect<AppendResult, WrongExpectedVersion | StoreUnavailable>
  readonly readStream: (stream: StreamName, options?: ReadStreamOptions) => Effect.Effect<ReadStreamResult, StoreUnavailable>
  readonly readAll: (options?: ReadAllOptions) => Effect.Effect<ReadonlyArray<RecordedEvent>, StoreUnavailable>
  /** Catch-up then live: every event after `afterPosition`, in position order, with no gap and no duplicate. */
  readonly subscribeAll: (options?: SubscribeAllOptions) => Stream.Stream<RecordedEvent, StoreUnavailable>
  /** Position of the last event in the log, or -1n when it is empty. */
  readonly headPosition: Effect.Effect<bigint, StoreUnavailable>
  /**
   * Removes every event after `position` (-1n: all of them), at once: a reader sees the whole log or the shortened
   * one. The next append gets the position the first removed event had. Absent on stores whose log is shared
   * with other writers (EventStoreDB): a log there only grows.
   */
  readonly truncateAfter?: (position: bigint) => Effect.Effect<void, StoreUnavailable>
}

export class EventStore extends Context.Service<EventStore, EventStoreShape>()("custody-sim/store/EventStore") {}

/** Streams are `<category>-<id>`: the category is camelCase with no dash (EventStoreDB's $by_category rule). */
export const streamName = (category: string, id: string): StreamName => {
  if (!/^[a-z][A-Za-z0-9]*$/.test(category)) throw new Error(`bad stream category: ${category}`)
  return `${category}-${id}`
}
