// A memory store whose stream reads and appends wait for fast-check's scheduler when it is switched on: concurrent
// command handlers then interleave between reading a stream and appending to it in every order the scheduler picks.
import { Effect } from "effect"
import type fc from "fast-check"
import type { EventStoreShape } from "../../../src/store/event-store.js"
import { makeMemoryStore } from "../../../src/store/memory.js"

export interface ScheduledStore {
  readonly store: EventStoreShape
  /** Off while the world is set up and checked; on for the race. */
  scheduling: boolean
  /** Appends refused with WrongExpectedVersion: the interleavings that made handlers retry. */
  conflicts: number
}

export const scheduledStore = (s: fc.Scheduler): ScheduledStore => {
  const inner = makeMemoryStore()
  const gate = (label: string) =>
    Effect.promise(() => (handle.scheduling ? s.schedule(Promise.resolve(label), label) : Promise.resolve(label)))
  const handle: ScheduledStore = {
    scheduling: false,
    conflicts: 0,
    store: {
      ...inner,
      readStream: (stream, options) => Effect.flatMap(gate(`read ${stream}`), () => inner.readStream(stream, options)),
      append: (stream, events, expected) =>
        Effect.flatMap(gate(`append ${events.map((e) => e.type).join("+")} to ${stream} at ${expected}`), () =>
          inner
            .append(stream, events, expected)
            .pipe(Effect.tapError((e) => Effect.sync(() => void (e._tag === "WrongExpectedVersion" && handle.conflicts++)))),
        ),
    },
  }
  return handle
}
