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

export interface AppendOptions {
  /**
   * Told once the store has put the append in the log's order, before it is durable on a store that commits several
   * appends together (SQLite); later appends to the stream are checked against it from then on. The append's effect
   * still completes only once it is durable, and fails if its group fails. Stores that commit each append alone may
   * not call it (the effect's success says the same).
   */
  readonly accepted?: (result: AppendResult) => void
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
  /**
   * The events are read to be folded in this process right away and then dropped (the read models' pull): a store
   * may hand them out with the fields few folds read (the data, the stream, id and revision) read only when first
   * asked for. Those are getters, not own properties: such an event must not be kept past the fold, posted to another
   * thread, spread or written with JSON.stringify. Stores that read nothing lazily ignore it.
   */
  readonly forFolding?: boolean
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
    options?: AppendOptions,
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
  readonly truncateAfter?: (position: bigint, options?: TruncateOptions) => Effect.Effect<void, StoreUnavailable>
  /**
   * The last epoch a truncation recorded (0: none), kept through every later truncation and restart: what a revert
   * started, which its cut took out of the log. With `truncateAfter`, and absent with it.
   */
  readonly epoch?: Effect.Effect<number, StoreUnavailable>
  /** Competing consumers (below): only on stores several processes share (EventStoreDB). */
  readonly consumerGroups?: ConsumerGroups
}

// Competing consumers on the log (EventStoreDB's persistent subscriptions): each event of a group goes to one member
// at a time, until that member acknowledges it; a message not settled in time, or held by a member that went away,
// goes to another member.
export interface GroupMessage {
  readonly event: RecordedEvent
  /** Deliveries of this message before this one (timeouts, retries, members gone). */
  readonly retryCount: number
}

export interface ConsumerGroupSpec {
  readonly group: string
  /** Only events of these types belong to the group. */
  readonly eventTypes: ReadonlyArray<string>
  /** Where the group starts if this join creates it: the event at this position (-1n: the start of the log). */
  readonly fromPosition: bigint
  /** How long a member may hold a message before the store gives it to another (used when creating the group). */
  readonly messageTimeoutMs: number
  /** Messages this member holds at most at once. */
  readonly window: number
}

export interface ConsumerGroupHandlers {
  readonly onMessage: (m: GroupMessage) => void
  /** The store dropped this member (server gone, group deleted): join again later. */
  readonly onDrop: (cause: unknown) => void
}

export interface ConsumerGroupMember {
  /** Done with it: no member gets it again. */
  readonly ack: (m: GroupMessage) => void
  /** Give it back now, to any member (counts as a retry). */
  readonly release: (m: GroupMessage, reason: string) => void
  readonly close: () => Promise<void>
}

export interface ConsumerGroups {
  /** Joins the group, creating it first when it does not exist. */
  readonly join: (spec: ConsumerGroupSpec, handlers: ConsumerGroupHandlers) => Promise<ConsumerGroupMember>
  /** Deletes the group (members are dropped); a group that does not exist is not an error. */
  readonly remove: (group: string) => Promise<void>
}

export interface TruncateOptions {
  /** Recorded with the cut, at once (src/snapshots/snapshots.ts: each revert starts a new epoch). */
  readonly epoch?: number
}

export class EventStore extends Context.Service<EventStore, EventStoreShape>()("custody-sim/store/EventStore") {}

/** Streams are `<category>-<id>`: the category is camelCase with no dash (EventStoreDB's $by_category rule). */
export const streamName = (category: string, id: string): StreamName => {
  if (!/^[a-z][A-Za-z0-9]*$/.test(category)) throw new Error(`bad stream category: ${category}`)
  return `${category}-${id}`
}
