// Loading a checked log into a store: runs of one stream's events become one append at the exact revision.
import { Effect } from "effect"
import type { EventStoreShape, NewEvent, StoreUnavailable, WrongExpectedVersion } from "../store/event-store.js"
import type { LoggedEvent } from "./format.js"

const RUN = 500
/** Appends started before the loader waits for them: the store commits the appends of one turn together. */
const IN_FLIGHT = 64

export interface Loader {
  /** Queues an event; appends the run of its stream before it when the stream changes. */
  readonly add: (e: LoggedEvent) => Promise<void>
  /** Appends what is queued; returns the number of events appended in all. */
  readonly flush: () => Promise<number>
}

export const makeLoader = (store: EventStoreShape, onAppended?: (count: number) => void): Loader => {
  let run: Array<LoggedEvent> = []
  let appended = 0
  let inFlight: Array<Promise<void>> = []
  const settle = async () => {
    const started = inFlight
    inFlight = []
    // Every one is waited for before the first failure is thrown, so that none is left running.
    const outcomes = await Promise.allSettled(started)
    const failed = outcomes.find((o) => o.status === "rejected")
    if (failed !== undefined) throw (failed as PromiseRejectedResult).reason
  }
  const write = async () => {
    const first = run[0]
    if (first === undefined) return
    const events: Array<NewEvent> = run.map((e) => ({ id: e.id, type: e.type, data: e.data, metadata: e.metadata }))
    const expected = first.revision === 0n ? ("no_stream" as const) : first.revision - 1n
    const batch = run
    run = []
    const appending = Effect.runPromise(
      store
        .append(first.stream, events, expected)
        .pipe(
          Effect.mapError((e: WrongExpectedVersion | StoreUnavailable) =>
            e._tag === "WrongExpectedVersion"
              ? new Error(`line ${batch[0]!.line}: stream ${first.stream} already holds events in this store (the store is not fresh)`)
              : new Error(`line ${batch[0]!.line}: the store failed: ${e.reason}`),
          ),
        ),
    ).then(() => {
      appended += events.length
      onAppended?.(appended)
    })
    // Started in order, so they take their positions in order; waited for in groups (they are committed together).
    appending.catch(() => undefined) // handled in settle(); not an unhandled rejection meanwhile
    inFlight.push(appending)
    if (inFlight.length >= IN_FLIGHT) await settle()
  }
  return {
    add: async (e) => {
      const last = run[run.length - 1]
      if (last !== undefined && (last.stream !== e.stream || run.length >= RUN)) await write()
      run.push(e)
    },
    flush: async () => {
      await write()
      await settle()
      return appended
    },
  }
}
