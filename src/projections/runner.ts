// Projection runner: folds the store's log into the read models; commands wait for their own writes.
import { Effect, Fiber, Schedule, Stream } from "effect"
import { StoreUnavailable, type EventStoreShape, type RecordedEvent } from "../store/event-store.js"
import type { ReadModels } from "./read-models.js"

/**
 * Events per page of a pull. A page is alive until its last event is applied, so a scavenge during it copies all of
 * it: with pages of 1,000 events read from SQLite (some 2 MB of rows and parsed data each), a rebuild of 200,000 events
 * had its scavenges copy 70 MB, of which the models keep 23 MB; with 250, 32 MB. EventStoreDB pays a round trip per
 * page and keeps the larger one.
 */
const pageSize = (store: EventStoreShape): number => (store.kind === "esdb" ? 1_000 : 250)

/** The event a fold could not apply: the models stop before it and stay as they were (reads keep working). */
export interface FoldHalt {
  readonly position: bigint
  readonly stream: string
  readonly type: string
  readonly reason: string
}

const halts = new WeakSet<object>()
/** A StoreUnavailable's cause when the store is fine but this node's read models stopped. */
export const isFoldHalt = (cause: unknown): cause is FoldHalt => typeof cause === "object" && cause !== null && halts.has(cause)

export const haltMessage = (h: FoldHalt): string =>
  `the read models stopped at position ${h.position}: its ${h.type} event (stream ${h.stream}) cannot be applied: ${h.reason}`

export interface ProjectionRunner {
  readonly models: ReadModels
  /** Set once a fold met an event it cannot apply; nothing after it is applied. */
  readonly halted: FoldHalt | undefined
  /** Applies every event the store has beyond the models' position. */
  readonly pull: Effect.Effect<void, StoreUnavailable>
  /** Returns once the models have applied the event at `position` (pulling if needed). */
  readonly awaitPosition: (position: bigint) => Effect.Effect<void, StoreUnavailable>
  /** Follows the store's live subscription (for stores other processes write to); returns a stopper. */
  readonly follow: Effect.Effect<{ readonly stop: Effect.Effect<void> }>
  /** The log was cut back to the models' position (a revert): a halt at an event beyond it no longer holds. */
  readonly rewound: () => void
}

export const makeProjectionRunner = (
  store: EventStoreShape,
  models: ReadModels,
  onEvent?: () => void,
  onHalt?: (h: FoldHalt) => void,
): ProjectionRunner => {
  let halted: FoldHalt | undefined
  // Both paths apply an event only when it is beyond the models' position; each path's events are
  // contiguous in the log, so interleaving them can neither skip nor repeat an event.
  // A batch is in position order, so only its head can be at or before the models' position: once one event is
  // applied, the rest follow without a comparison each.
  const applyBatch = (events: ReadonlyArray<RecordedEvent>) => {
    if (halted !== undefined) return
    const n = events.length
    let i = 0
    while (i < n && events[i]!.position <= models.position) i++
    // One try around the loop, not one per event: the index says which event failed.
    try {
      for (; i < n; i++) models.apply(events[i]!)
    } catch (error) {
      const e = events[i]!
      halted = { position: e.position, stream: e.stream, type: e.type, reason: error instanceof Error ? error.message : String(error) }
      halts.add(halted)
      onHalt?.(halted)
      return
    }
    if (n > 0) onEvent?.()
  }
  // Positions are opaque (EventStoreDB's are byte offsets: position + 1 is no record boundary), so a pull reads
  // from the last applied position itself and skips that one event.
  const PAGE = pageSize(store)
  const pull: Effect.Effect<void, StoreUnavailable> = Effect.gen(function* () {
    for (;;) {
      if (halted !== undefined) return
      const from = models.position
      const page = yield* store.readAll(
        from < 0n ? { maxCount: PAGE, forFolding: true } : { fromPosition: from, maxCount: PAGE + 1, forFolding: true },
      )
      applyBatch(page)
      if (page.length < (from < 0n ? PAGE : PAGE + 1)) return
    }
  })
  const stopped = Effect.suspend(() => Effect.fail(new StoreUnavailable({ reason: haltMessage(halted!), cause: halted })))
  return {
    models,
    get halted() {
      return halted
    },
    pull,
    rewound: () => {
      if (halted !== undefined && halted.position > models.position) halted = undefined
    },
    awaitPosition: (position) =>
      halted !== undefined
        ? position < halted.position
          ? Effect.void
          : stopped
        : models.position >= position
          ? Effect.void
          : Effect.andThen(pull, () => (halted !== undefined && position >= halted.position ? stopped : Effect.void)),
    follow: Effect.gen(function* () {
      const fiber = yield* store.subscribeAll({ afterPosition: models.position }).pipe(
        Stream.runForEach((e) => Effect.sync(() => applyBatch([e]))),
        Effect.retry(Schedule.spaced("500 millis")),
        Effect.ignore,
        Effect.forkDetach,
      )
      return { stop: Fiber.interrupt(fiber).pipe(Effect.asVoid) }
    }),
  }
}
