// A projection folds the global log in position order into a read model. No I/O, no clock.
import type { RecordedEvent } from "../store/event-store.js"

/**
 * Read models are mutated in place (O(1) per event on million-event logs) and keep per-key
 * histories, so answering "as of" an earlier position never re-folds the log.
 */
export interface Projection<S> {
  readonly name: string
  readonly init: () => S
  readonly evolve: (state: S, event: RecordedEvent) => void
}

/** Position of the event in force at a point of the log: undefined means "now". */
export type AsOf = bigint | undefined
