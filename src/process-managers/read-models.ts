// Process managers act on what the log says so far: they wait for the read models to include a write first.
import { Context, Effect } from "effect"
import type { ReadModels } from "../projections/read-models.js"
import { EventStore, type StoreUnavailable } from "../store/event-store.js"

/** Read models for process managers, which act on what the log says so far. */
export class Models extends Context.Service<
  Models,
  {
    readonly models: ReadModels
    /** Waits until the models include the event at `position`. */
    readonly awaitPosition: (position: bigint) => Effect.Effect<void, StoreUnavailable>
    /** Per chain, how far the confirmation process manager has walked the mined deposits (not state: rebuilt on start). */
    readonly cursors: Map<string, number>
  }
>()("custody-sim/process-managers/Models") {}

/** Waits until the read models include the event at `position` (nothing was appended when it is -1). */
export const sync = (position: bigint) =>
  Effect.gen(function* () {
    if (position >= 0n) yield* (yield* Models).awaitPosition(position)
  })

/** Brings the read models up to everything the store holds. */
export const catchUp = Effect.gen(function* () {
  yield* sync(yield* (yield* EventStore).headPosition)
})
