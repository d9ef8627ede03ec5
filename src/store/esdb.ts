// EventStore port on EventStoreDB/KurrentDB through @eventstore/db-client: the only module importing the driver.
import {
  ANY,
  BACKWARDS,
  END,
  EventStoreDBClient,
  FORWARDS,
  NO_STREAM,
  PersistentSubscriptionDoesNotExistError,
  PersistentSubscriptionExistsError,
  ROUND_ROBIN,
  START,
  STREAM_EXISTS,
  StreamNotFoundError,
  WrongExpectedVersionError,
  convertToCommandError,
  eventTypeFilter,
  excludeSystemEvents,
  isCommandError,
  jsonEvent,
  persistentSubscriptionToAllSettingsFromDefaults,
} from "@eventstore/db-client"
import type { AllStreamResolvedEvent, AppendExpectedRevision, JSONType, Position, ReadPosition, ResolvedEvent } from "@eventstore/db-client"
import { Effect, Stream } from "effect"
import { StoreUnavailable, WrongExpectedVersion } from "./event-store.js"
import type { ConsumerGroups, GroupMessage } from "./event-store.js"
import type {
  AppendResult,
  EventMetadata,
  EventStoreShape,
  ExpectedRevision,
  JsonValue,
  NewEvent,
  ReadAllOptions,
  ReadStreamOptions,
  ReadStreamResult,
  RecordedEvent,
  StreamName,
  SubscribeAllOptions,
} from "./event-store.js"

type Resolved = Pick<ResolvedEvent, "event" | "link">

/** Events read per round trip from $all; system events are dropped client-side, so pages are re-requested. */
const PAGE = 1_000
/** What servers before 22.6 put in a stream read's positions: the $all position was unknown there. */
const NO_POSITION = 2n ** 64n - 1n

// $all positions: every event the gRPC API writes is an implicitly committed prepare, for which the server
// reports commit == prepare == the record's log position (only legacy TCP explicit transactions differ).
// So the commit position alone identifies an event, and {commit: p, prepare: p} rebuilds the exact
// position readAll and subscribeToAll need: the server compares (commit, prepare) pairs and refuses
// positions that are not record boundaries, which ours always are.
const toPosition = (position: bigint): Position => ({ commit: position, prepare: position })

const toExpected = (expected: ExpectedRevision): AppendExpectedRevision =>
  expected === "no_stream" ? NO_STREAM : expected === "any" ? ANY : expected === "stream_exists" ? STREAM_EXISTS : expected

/** Events of the simulator's log: system events, `$`-streams (links, stats, metadata) and binary events are not. */
const isOurs = (e: NonNullable<Resolved["event"]>) => !e.type.startsWith("$") && !e.streamId.startsWith("$") && e.isJson

const toRecorded = (e: NonNullable<Resolved["event"]>): RecordedEvent => {
  const commit = e.position?.commit
  return {
    id: e.id,
    type: e.type,
    data: e.data as JsonValue,
    metadata: (e.metadata ?? {}) as EventMetadata,
    stream: e.streamId,
    revision: e.revision,
    position: commit === undefined || commit === NO_POSITION ? -1n : commit,
  }
}

const recordedIfOurs = (resolved: Resolved): RecordedEvent | undefined =>
  resolved.event !== undefined && resolved.link === undefined && isOurs(resolved.event) ? toRecorded(resolved.event) : undefined

const toEventData = (e: NewEvent) => jsonEvent({ id: e.id, type: e.type, data: e.data as JSONType, metadata: e.metadata })

/** The client's deadline (connection string `defaultDeadline`, 10 s by default), which also bounds reads here. */
const deadlineOf = (connectionString: string): number => {
  const match = /[?&]defaultDeadline=(\d+)/i.exec(connectionString)
  return match === null ? 10_000 : Number(match[1])
}

const unavailable = (operation: string, cause: unknown) =>
  new StoreUnavailable({ reason: `esdb ${operation}: ${cause instanceof Error ? cause.message : String(cause)}`, cause })

interface Cancellable<A> extends AsyncIterable<A> {
  cancel(): Promise<void>
}

/**
 * The store over one EventStoreDB client. Over 100 lines because it is one closure over the client and its
 * deadline, which every operation (append, the reads, the subscription, the consumer groups) uses: each is a named
 * function of its own within it.
 */
export const makeEsdbStore = (connectionString: string): EventStoreShape & { close(): Promise<void>; consumerGroups: ConsumerGroups } => {
  const client = EventStoreDBClient.connectionString(connectionString)
  const deadline = deadlineOf(connectionString)

  // The client's own deadlines leave holes: a batch append sends its deadline to the server only, the
  // ServerFeatures probe before the first append has none, and reads run with an infinite one. A server that
  // accepts connections but never answers would hang us, so every call gets a local bound on top.
  const attempt = <A>(operation: string, run: (signal: AbortSignal) => Promise<A>) =>
    Effect.tryPromise({ try: run, catch: (cause) => cause }).pipe(
      Effect.timeoutOrElse({
        duration: deadline + 1_000,
        orElse: () => Effect.fail(new StoreUnavailable({ reason: `esdb ${operation}: no answer within ${deadline + 1_000} ms` })),
      }),
    )
  // Every driver error the port cannot name (unavailable, deadline, not leader, access denied...) means the
  // store cannot serve us now; anything else is a bug and stays a defect. Some paths (the ServerFeatures
  // probe before an append) reject with raw gRPC errors, hence the conversion first.
  const storeFailure =
    (operation: string) =>
    (cause: unknown): Effect.Effect<never, StoreUnavailable> => {
      if (cause instanceof StoreUnavailable) return Effect.fail(cause)
      const error = cause instanceof Error ? convertToCommandError(cause) : cause
      return error instanceof Error && isCommandError(error) ? Effect.fail(unavailable(operation, error)) : Effect.die(cause)
    }

  const collect = async <A>(read: Cancellable<A>, signal: AbortSignal): Promise<A[]> => {
    signal.addEventListener("abort", () => void read.cancel(), { once: true })
    const out: A[] = []
    for await (const item of read) out.push(item)
    return out
  }

  /** The stream's events (or undefined when it does not exist), as one server-side read. */
  const readRaw = (
    stream: StreamName,
    fromRevision: bigint | typeof START | typeof END,
    direction: "forwards" | "backwards",
    maxCount: number,
  ) =>
    attempt("readStream", async (signal) => {
      try {
        const read = client.readStream(stream, { fromRevision, direction: direction === "forwards" ? FORWARDS : BACKWARDS, maxCount })
        return await collect(read, signal)
      } catch (error) {
        if (error instanceof StreamNotFoundError) return undefined
        throw error
      }
    }).pipe(Effect.catch(storeFailure("readStream")))

  const headRevision = (stream: StreamName) =>
    Effect.map(readRaw(stream, END, "backwards", 1), (events): bigint | "no_stream" => events?.[0]?.event?.revision ?? "no_stream")

  // An empty append writes nothing, so it is answered here; the client would also misreport a missing stream as
  // revision 0 from the server's `no_stream` success.
  const appendNothing = (stream: StreamName, expected: ExpectedRevision) =>
    Effect.flatMap(
      headRevision(stream),
      (current): Effect.Effect<AppendResult, WrongExpectedVersion | StoreUnavailable> =>
        expected === "any" || (expected === "stream_exists" ? current !== "no_stream" : expected === current)
          ? Effect.succeed({ nextExpectedRevision: current === "no_stream" ? -1n : current, position: -1n })
          : Effect.fail(new WrongExpectedVersion({ stream, expected, actual: current })),
    )

  const append = (
    stream: StreamName,
    events: ReadonlyArray<NewEvent>,
    expected: ExpectedRevision,
  ): Effect.Effect<AppendResult, WrongExpectedVersion | StoreUnavailable> =>
    events.length === 0
      ? appendNothing(stream, expected)
      : attempt("append", () => client.appendToStream(stream, events.map(toEventData), { expectedRevision: toExpected(expected) })).pipe(
          Effect.map((result) => ({ nextExpectedRevision: result.nextExpectedRevision, position: result.position?.commit ?? -1n })),
          Effect.catch(
            (cause): Effect.Effect<never, WrongExpectedVersion | StoreUnavailable> =>
              cause instanceof WrongExpectedVersionError
                ? Effect.fail(new WrongExpectedVersion({ stream, expected, actual: cause.actualVersion }))
                : storeFailure("append")(cause),
          ),
        )

  const readStream = (stream: StreamName, options: ReadStreamOptions = {}): Effect.Effect<ReadStreamResult, StoreUnavailable> =>
    Effect.gen(function* () {
      const direction = options.direction ?? "forwards"
      const toEnd = direction === "forwards" && options.maxCount === undefined
      const fromEnd = direction === "backwards" && options.fromRevision === undefined
      // gRPC reads do not report the stream's last revision. When this read cannot show it, ask first: a
      // revision older than the events read makes the caller's append fail and retry, a newer one would lose updates.
      const head = (toEnd && options.fromRevision === undefined) || fromEnd ? undefined : yield* headRevision(stream)
      const from =
        options.fromRevision === undefined
          ? direction === "forwards"
            ? START
            : END
          : options.fromRevision < 0n
            ? direction === "forwards"
              ? START
              : undefined
            : options.fromRevision
      const raw =
        options.maxCount === 0 || from === undefined
          ? []
          : yield* readRaw(stream, from, direction, options.maxCount ?? Number.MAX_SAFE_INTEGER)
      // Not found can also mean "nothing at or after that revision" (a read past the end): the head says which.
      if (raw === undefined) return { events: [], revision: head ?? "no_stream" } satisfies ReadStreamResult
      const events = raw.flatMap((r) => (r.event === undefined ? [] : [toRecorded(r.event)]))
      const seen = toEnd ? events[events.length - 1] : fromEnd ? events[0] : undefined
      const revision = seen?.revision ?? head ?? (yield* headRevision(stream))
      return { events, revision } satisfies ReadStreamResult
    })

  const readAll = (options: ReadAllOptions = {}): Effect.Effect<ReadonlyArray<RecordedEvent>, StoreUnavailable> =>
    Effect.gen(function* () {
      const limit = options.maxCount ?? Number.POSITIVE_INFINITY
      const out: RecordedEvent[] = []
      let from: ReadPosition = options.fromPosition === undefined || options.fromPosition <= 0n ? START : toPosition(options.fromPosition)
      let last: bigint | undefined
      // maxCount applies server-side before system events are dropped: page until enough of ours or the end.
      while (out.length < limit) {
        const pageSize = Math.min(PAGE, limit - out.length + 16)
        const fromHere = from
        const page = yield* attempt("readAll", (signal) => collect(client.readAll({ fromPosition: fromHere, maxCount: pageSize }), signal))
        for (const resolved of page) {
          const commit = resolved.event?.position.commit
          if (commit === undefined || (last !== undefined && commit <= last)) continue
          last = commit
          const recorded = recordedIfOurs(resolved)
          if (recorded !== undefined && out.length < limit) out.push(recorded)
        }
        if (page.length < pageSize || last === undefined) break
        from = toPosition(last) // inclusive: the event at `last` comes again and is skipped above
      }
      return out
    }).pipe(Effect.catch(storeFailure("readAll")))

  const headPosition: Effect.Effect<bigint, StoreUnavailable> = Effect.gen(function* () {
    let from: ReadPosition = END
    for (;;) {
      const fromHere: ReadPosition = from
      const page: ReadonlyArray<AllStreamResolvedEvent> = yield* attempt("headPosition", (signal) =>
        collect(client.readAll({ fromPosition: fromHere, direction: BACKWARDS, maxCount: 64 }), signal),
      )
      const ours = page.find((r) => recordedIfOurs(r) !== undefined)
      if (ours?.event !== undefined) return ours.event.position.commit
      const oldest: Position | undefined = page[page.length - 1]?.event?.position
      if (page.length < 64 || oldest === undefined) return -1n
      from = oldest // backwards reads exclude their starting position
    }
  }).pipe(Effect.catch(storeFailure("headPosition")))

  const subscribeAll = (options: SubscribeAllOptions = {}): Stream.Stream<RecordedEvent, StoreUnavailable> =>
    Stream.unwrap(
      Effect.gen(function* () {
        const after = options.afterPosition
        const subscription = yield* Effect.acquireRelease(
          Effect.sync(() =>
            client.subscribeToAll({
              fromPosition: after === undefined || after < 0n ? START : toPosition(after),
              filter: excludeSystemEvents(),
            }),
          ),
          (s) => Effect.promise(() => s.unsubscribe()),
        )
        return Stream.fromAsyncIterable(subscription, (cause) => unavailable("subscribeAll", cause)).pipe(
          Stream.map(recordedIfOurs),
          Stream.filter((e): e is RecordedEvent => e !== undefined),
          // A live subscription only ends when the server drops it: say so rather than end quietly.
          Stream.concat(Stream.fail(new StoreUnavailable({ reason: "esdb subscribeAll: the server ended the subscription" }))),
        )
      }),
    )

  // Persistent subscriptions to $all filtered by event type. A retry count high enough never to park: a member that
  // holds a message it cannot act on yet gives it back, and that counts as a retry.
  const consumerGroups: ConsumerGroups = {
    join: async (spec, handlers) => {
      const settings = persistentSubscriptionToAllSettingsFromDefaults({
        startFrom: spec.fromPosition < 0n ? START : toPosition(spec.fromPosition),
        messageTimeout: spec.messageTimeoutMs,
        maxRetryCount: 2_000_000_000,
        consumerStrategyName: ROUND_ROBIN,
        checkPointAfter: 1_000,
        checkPointLowerBound: 1,
      })
      const filter = eventTypeFilter({ regex: `^(${spec.eventTypes.join("|")})$` })
      try {
        await client.createPersistentSubscriptionToAll(spec.group, settings, { filter })
      } catch (error) {
        if (!(error instanceof PersistentSubscriptionExistsError)) throw error
      }
      const subscription = client.subscribeToPersistentSubscriptionToAll(spec.group, { bufferSize: spec.window })
      const held = new Map<string, ResolvedEvent>()
      // Acks made in one turn of the event loop go in one message (a worker settles a whole batch of attempts at
      // once); nacks carry a reason each and stay single.
      let acks: Array<ResolvedEvent> = []
      const flushAcks = () => {
        const batch = acks
        acks = []
        // A settlement lost with the connection is harmless: the server gives the message again.
        subscription.ack(...batch).catch(() => {})
      }
      const ack = (resolved: ResolvedEvent) => {
        if (acks.push(resolved) === 1) setImmediate(flushAcks)
      }
      const settle = (m: GroupMessage, f: (resolved: ResolvedEvent) => void) => {
        const resolved = held.get(m.event.id)
        if (resolved === undefined) return
        held.delete(m.event.id)
        f(resolved)
      }
      subscription.on("data", (resolved: ResolvedEvent & { retryCount: number }) => {
        const recorded = recordedIfOurs(resolved)
        if (recorded === undefined) return ack(resolved)
        held.set(recorded.id, resolved)
        handlers.onMessage({ event: recorded, retryCount: resolved.retryCount })
      })
      let dropped = false
      const drop = (cause: unknown) => {
        if (dropped) return
        dropped = true
        handlers.onDrop(cause)
      }
      subscription.on("error", drop)
      subscription.on("end", () => drop(new Error("the server ended the persistent subscription")))
      return {
        ack: (m) => settle(m, ack),
        release: (m, reason) => settle(m, (r) => void subscription.nack("retry", reason, r).catch(() => {})),
        close: async () => {
          dropped = true
          if (acks.length > 0) flushAcks()
          await subscription.unsubscribe()
        },
      }
    },
    remove: async (group) => {
      try {
        await client.deletePersistentSubscriptionToAll(group)
      } catch (error) {
        if (!(error instanceof PersistentSubscriptionDoesNotExistError)) throw error
      }
    },
  }

  return {
    kind: "esdb",
    consumerGroups,
    append,
    readStream,
    readAll,
    subscribeAll,
    headPosition,
    close: () => client.dispose(),
  }
}
