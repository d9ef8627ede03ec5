// Catch-up-then-live subscriptions for the adapters that own their log in this process (memory, sqlite).
import { Effect, Option, Stream } from "effect"
import type { RecordedEvent, StoreUnavailable } from "./event-store.js"

export interface AppendSignal {
  /** Wakes every subscription waiting for events; called by the adapter after each committed append or truncation. */
  readonly notify: () => void
  /** Completes once the head of the log is beyond `position`, or before it (the log was truncated). */
  readonly awaitBeyond: (position: bigint) => Effect.Effect<void>
  readonly head: () => bigint
}

export const makeAppendSignal = (head: () => bigint): AppendSignal => {
  let waiters: Array<() => void> = []
  return {
    notify: () => {
      if (waiters.length === 0) return
      const woken = waiters
      waiters = []
      for (const wake of woken) wake()
    },
    head,
    awaitBeyond: (position) =>
      Effect.callback<void>((resume) => {
        // Checked at registration: an append between the last empty page and now must not be slept through.
        if (head() !== position) return resume(Effect.void)
        const wake = () => resume(Effect.void)
        waiters.push(wake)
        return Effect.sync(() => {
          waiters = waiters.filter((waiter) => waiter !== wake)
        })
      }),
  }
}

const pageSize = 1000

/**
 * Every event after `afterPosition`, forever: reads pages after the last delivered position and, when a page
 * comes back empty, waits for the head to move and reads again from that same position: no gap, no duplicate.
 * When the log was truncated before that position, it goes on after the new head (the events appended there are
 * new ones).
 */
export const catchUpThenLive = (
  readAfter: (position: bigint, maxCount: number) => Effect.Effect<ReadonlyArray<RecordedEvent>, StoreUnavailable>,
  signal: AppendSignal,
  afterPosition: bigint,
): Stream.Stream<RecordedEvent, StoreUnavailable> =>
  Stream.paginate(afterPosition, (after: bigint) =>
    Effect.flatMap(readAfter(after, pageSize), (page) =>
      page.length > 0
        ? Effect.succeed([page, Option.some(page[page.length - 1]!.position)] as const)
        : Effect.map(signal.awaitBeyond(after), () => {
            const head = signal.head()
            return [[] as ReadonlyArray<RecordedEvent>, Option.some(head < after ? head : after)] as const
          }),
    ),
  )
