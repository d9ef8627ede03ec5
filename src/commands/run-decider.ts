// Runs a decider against its stream: read, fold, decide, append with the revision read.
import { Context, Effect } from "effect"
import { fold, type Decider } from "../domain/shared/decider.js"
import { storedOfStream } from "../events/stored-event.js"
import { EventStore, type AppendResult, type JsonValue, type NewEvent, type RecordedEvent, type StreamName } from "../store/event-store.js"
import { AggregateCache } from "./aggregate-cache.js"
import { retryOnConflict } from "./retry.js"
import { Ids, SimClock } from "./services.js"

/** Correlation data of the request being served, written into every event's metadata. */
export interface CommandMetaShape {
  readonly requestId?: string
  readonly correlationId?: string
  readonly causationId?: string
}
export const CommandMeta = Context.Reference<CommandMetaShape>("custody-sim/commands/CommandMeta", { defaultValue: () => ({}) })

/** Hands the Ids sequence to metadata so a restarted simulator continues where it stopped. */
export const IdSequence = Context.Reference<{ readonly current: () => number; readonly epoch?: () => number }>(
  "custody-sim/commands/IdSequence",
  {
    defaultValue: () => ({ current: () => 0 }),
  },
)

export const SCHEMA_VERSION = 1

/** The shape of what a decider decides: its events, before the store gives them an envelope. */
export interface DecidedEvent {
  readonly type: string
  readonly data: unknown
}

export const toNewEvents = <E extends DecidedEvent>(events: ReadonlyArray<E>) =>
  Effect.gen(function* () {
    const ids = yield* Ids
    const meta = yield* CommandMeta
    const seq = yield* IdSequence
    const at = yield* (yield* SimClock).now
    const eventIds: Array<string> = []
    for (let i = 0; i < events.length; i++) eventIds.push(yield* ids.eventId)
    // The sequence after all ids of the batch: a restarted simulator continues past every id handed out.
    const last = seq.current()
    // The epoch after a revert (none before the first: those events are as they always were).
    const epoch = seq.epoch?.() ?? 0
    const out: Array<NewEvent> = []
    for (let i = 0; i < events.length; i++) {
      const e = events[i]!
      const metadata =
        epoch === 0
          ? { at, schemaVersion: SCHEMA_VERSION, ...meta, seq: last }
          : { at, schemaVersion: SCHEMA_VERSION, ...meta, seq: last, epoch }
      out.push({ id: eventIds[i]!, type: e.type, data: e.data as JsonValue, metadata })
    }
    return out
  })

export interface DecidedResult<E, S> {
  readonly events: ReadonlyArray<E>
  readonly state: S
  readonly position: bigint
}

/** The stream's cached state folded up to the store's last event. */
const caughtUp = <C, E extends DecidedEvent, S, X>(decider: Decider<C, E, S, X>, stream: StreamName) =>
  Effect.gen(function* () {
    const store = yield* EventStore
    const cached = (yield* AggregateCache).get(stream, () => decider.initialState)
    for (;;) {
      // The cache is shared by every fiber deciding on this stream, and a fiber may fold its own append into it
      // while this read is in flight: only the revision the cache had when the read began says whether the store
      // is behind it.
      const start = cached.revision
      const read = yield* store.readStream(stream, start >= 0n ? { fromRevision: start + 1n } : {})
      if (start < 0n || (read.revision !== "no_stream" && read.revision >= start)) {
        const events = storedOfStream<E & RecordedEvent>(read.events)
        for (const e of events) {
          if (e.revision <= cached.revision) continue
          cached.state = decider.evolve(cached.state as S, e)
          cached.revision = e.revision
        }
        return cached
      }
      // The store is behind the cache: it folded events that were never written (their batch of appends failed, see
      // store/sqlite.ts) or that were cut off. Fold the stream again from its start, aside, and put the result in
      // at once, so no fiber ever sees an emptied state; if the cache moved meanwhile, look again.
      const whole = yield* store.readStream(stream)
      if (cached.revision !== start) continue
      let state = decider.initialState
      for (const e of storedOfStream<E>(whole.events)) state = decider.evolve(state, e)
      cached.state = state
      cached.revision = whole.events[whole.events.length - 1]?.revision ?? -1n
      return cached
    }
  })

/** The aggregate's current state, for a dry run: read and folded, nothing decided or appended. Read it, do not keep it. */
export const readAggregate = <C, E extends DecidedEvent, S, X>(decider: Decider<C, E, S, X>, stream: StreamName) =>
  Effect.map(caughtUp(decider, stream), (cached) => cached.state as S)

export const runDecider = <C, E extends DecidedEvent, S, X>(decider: Decider<C, E, S, X>, stream: StreamName, command: C) =>
  runDeciderWith(decider, stream, () => Effect.succeed(command))

/**
 * Like runDecider, for commands that need the current state to be built (e.g. the next derivation index). A lost
 * race (another append at the revision read) starts over from the stream: every decider retries by default.
 */
export const runDeciderWith = <C, E extends DecidedEvent, S, X, X2, R>(
  decider: Decider<C, E, S, X>,
  stream: StreamName,
  makeCommand: (state: S) => Effect.Effect<C, X2, R>,
) =>
  Effect.gen(function* () {
    const store = yield* EventStore
    const cached = yield* caughtUp(decider, stream)
    const state = cached.state as S
    const expected = cached.revision >= 0n ? cached.revision : ("no_stream" as const)
    const decision = decider.decide(yield* makeCommand(state), state)
    if (decision._tag === "Rejected") return yield* Effect.fail(decision.error)
    if (decision.events.length === 0) {
      const unchanged: DecidedResult<E, S> = { events: [], state, position: -1n }
      return unchanged
    }
    // Folded into the cache as soon as the store has accepted them, so that the next command on the stream (in the
    // same group of appends, store/sqlite.ts) decides on them without reading them back; or else once the append is
    // done, unless another fiber has folded them from the store meanwhile.
    const read = cached.revision
    const foldOwn = (appended: AppendResult) => {
      if (cached.revision !== read) return
      cached.state = fold(decider.evolve, cached.state as S, decision.events)
      cached.revision = appended.nextExpectedRevision
    }
    const appended = yield* store.append(stream, yield* toNewEvents(decision.events), expected, { accepted: foldOwn })
    foldOwn(appended)
    const result: DecidedResult<E, S> = { events: decision.events, state: cached.state as S, position: appended.position }
    return result
  }).pipe(Effect.retry(retryOnConflict))
