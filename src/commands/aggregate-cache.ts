// Keeps each stream's folded state and revision, so a command reads only the events appended since.
import { Context } from "effect"

export interface CachedAggregate {
  state: unknown
  /** Revision of the last event folded into `state`; -1n for none. */
  revision: bigint
}

/**
 * States are folded in place (see VaultAccounts), so an event must be folded exactly once: both the catch-up
 * read and the post-append fold apply only events beyond `revision`.
 */
export const AggregateCache = Context.Reference<{
  readonly get: (stream: string, init: () => unknown) => CachedAggregate
  readonly clear: () => void
}>("custody-sim/commands/AggregateCache", {
  // Without a cache provided, every command folds from scratch.
  defaultValue: () => ({ get: (_stream, init) => ({ state: init(), revision: -1n }), clear: () => {} }),
})

export const makeAggregateCache = () => {
  const entries = new Map<string, CachedAggregate>()
  return {
    get: (stream: string, init: () => unknown): CachedAggregate => {
      let e = entries.get(stream)
      if (e === undefined) entries.set(stream, (e = { state: init(), revision: -1n }))
      return e
    },
    clear: () => entries.clear(),
  }
}
