// The whole log, page by page, in position order: what export and audit read.
import { Effect } from "effect"
import type { EventStoreShape, RecordedEvent } from "../store/event-store.js"

/**
 * Positions are opaque (EventStoreDB's are byte offsets: position + 1 is no event boundary), so each page after
 * the first starts at the last position read and skips that event.
 */
export async function* logPages(store: EventStoreShape, pageSize = 5_000): AsyncGenerator<ReadonlyArray<RecordedEvent>> {
  let from: bigint | undefined
  for (;;) {
    const page = await Effect.runPromise(
      store.readAll(from === undefined ? { maxCount: pageSize } : { fromPosition: from, maxCount: pageSize + 1 }),
    )
    const fresh = from !== undefined && page[0]?.position === from ? page.slice(1) : page
    if (fresh.length > 0) yield fresh
    const last = fresh[fresh.length - 1]
    if (last === undefined || fresh.length < pageSize) return
    from = last.position
  }
}
