// Projection runner: folds the store's log into the read models; commands wait for their own writes.
import { Effect, Fiber, Schedule, Stream } from "effect"
import type { EventStoreShape, RecordedEvent, StoreUnavailable } from "../store/event-store.js"
import type { ReadModels } from "./read-models.js"

const PAGE = 1_000

export interface ProjectionRunner {
  readonly models: ReadModels
  /** Applies every event the store has beyond the models' position. */
  readonly pull: Effect.Effect<void, StoreUnavailable>
  /** Returns once the models have applied the event at `position` (pulling if needed). */
  readonly awaitPosition: (position: bigint) => Effect.Effect<void, StoreUnavailable>
  /** Follows the store's live subscription (for stores other processes write to); returns a stopper. */
  readonly follow: Effect.Effect<{ readonly stop: Effect.Effect<void> }>
}

export const makeProjectionRunner = (store: EventStoreShape, models: ReadModels, onEvent?: () => void): ProjectionRunner => {
  // Both paths apply an event only when it is beyond the models' position; each path's events are
  // contiguous in the log, so interleaving them can neither skip nor repeat an event.
  // A batch is in position order, so only its head can be at or before the models' position: once one event is
  // applied, the rest follow without a comparison each.
  const applyBatch = (events: ReadonlyArray<RecordedEvent>) => {
    const n = events.length
    let i = 0
    while (i < n && events[i]!.position <= models.position) i++
    for (; i < n; i++) models.apply(events[i]!)
    if (n > 0) onEvent?.()
  }
  // Positions are opaque (EventStoreDB's are byte offsets: position + 1 is no record boundary), so a pull reads
  // from the last applied position itself and skips that one event.
  const pull: Effect.Effect<void, StoreUnavailable> = Effect.gen(function* () {
    for (;;) {
      const from = models.position
      const page = yield* store.readAll(from < 0n ? { maxCount: PAGE } : { fromPosition: from, maxCount: PAGE + 1 })
      applyBatch(page)
      if (page.length < (from < 0n ? PAGE : PAGE + 1)) return
    }
  })
  return {
    models,
    pull,
    awaitPosition: (position) => (models.position >= position ? Effect.void : pull),
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
