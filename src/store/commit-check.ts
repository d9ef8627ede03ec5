// EventStoreDB's commit check (expected revision + idempotency), shared by the in-process adapters.
import type { ExpectedRevision, NewEvent } from "./event-store.js"

/** What the adapter can tell about the events already in the stream (only asked off the fast path). */
export interface StreamIds {
  /** Ids of the events at revisions `revision + 1` … `revision + count` (fewer when the stream ends sooner). */
  readonly idsAfter: (revision: number, count: number) => ReadonlyArray<string>
  /** Revision of an event with this id in the stream, if there is one. */
  readonly revisionOf: (id: string) => number | undefined
}

/** "write" the batch, reject it as a "mismatch", or a number: the batch is a repeat ending at that revision. */
export type CommitVerdict = "write" | "mismatch" | number

/**
 * Mirrors EventStoreDB's IndexWriter.CheckCommit. `current` is the stream's last revision, -1 when absent.
 * With any/stream_exists a batch whose first id is new is written, one whose ids are all in the stream is a
 * repeat, anything in between is a mismatch; with an exact revision the ids must sit right after it.
 */
export const checkCommit = (
  current: number,
  expected: ExpectedRevision,
  events: ReadonlyArray<NewEvent>,
  stream: StreamIds,
): CommitVerdict => {
  if (expected === "any" || expected === "stream_exists") {
    if (expected === "stream_exists" && current < 0) return "mismatch"
    if (events.length === 0 || current < 0) return "write"
    let last = stream.revisionOf(events[0]!.id)
    if (last === undefined) return "write"
    for (let i = 1; i < events.length; i++) {
      const revision = stream.revisionOf(events[i]!.id)
      if (revision === undefined) return "mismatch"
      last = revision
    }
    return last
  }
  const revision = expected === "no_stream" ? -1 : Number(expected)
  if (revision === current) return "write"
  if (revision > current || revision < -1 || events.length === 0) return "mismatch"
  const ids = stream.idsAfter(revision, events.length)
  for (let i = 0; i < events.length; i++) {
    if (ids[i] !== events[i]!.id) return "mismatch"
  }
  return revision + events.length
}
