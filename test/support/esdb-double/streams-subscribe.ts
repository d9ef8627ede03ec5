// Catch-up subscriptions (Streams.Read with subscription options): confirmation, catch-up, caught_up, live, checkpoints.
import { randomUUID } from "node:crypto"
import { ReadResp } from "./proto.js"
import { readEventResponse, streamName } from "./codec.js"
import type { EsdbDoubleState, StoredEvent } from "./state.js"
import { after, allPosition, readSettings, send } from "./read-options.js"
import type { ReadCall, ReadOptions } from "./read-options.js"

/** Where a subscription starts: the source it follows and the index of the first event it may deliver. */
const origin = (state: EsdbDoubleState, options: ReadOptions): { source: () => ReadonlyArray<StoredEvent>; cursor: number } => {
  if (options.hasAll()) {
    const from = allPosition(state, options.getAll()!)
    const log = () => state.log
    if (from === "start") return { source: log, cursor: 0 }
    if (from === "end") return { source: log, cursor: state.log.length }
    // Subscription positions are exclusive: the event at `from` was already seen by the subscriber.
    let cursor = state.indexAtOrAfter(from.commit)
    while (cursor < state.log.length && !after(state.log[cursor]!, from)) cursor++
    return { source: log, cursor }
  }
  const stream = options.getStream()!
  const name = streamName(stream.getStreamIdentifier())
  const source = () => state.stream(name) ?? []
  const cursor = stream.hasStart() ? 0 : stream.hasEnd() ? source().length : Number(stream.getRevision()) + 1
  return { source, cursor }
}

const checkpoint = (e: StoredEvent) =>
  new ReadResp().setCheckpoint(new ReadResp.Checkpoint().setCommitPosition(e.position.toString()).setPreparePosition(e.position.toString()))

export async function subscribe(state: EsdbDoubleState, call: ReadCall, options: ReadOptions): Promise<void> {
  const settings = readSettings(state, options)
  const filter = settings.filter
  let { source, cursor } = origin(state, options)
  let pumping = false
  let again = false
  let caughtUp = false
  let sinceCheckpoint = 0
  let lastConsidered: StoredEvent | undefined

  // The log only grows and JS runs one pump at a time, so a cursor over it gives no gap and no duplicate
  // across the catch-up/live boundary.
  const pump = async (): Promise<void> => {
    if (pumping) return void (again = true)
    pumping = true
    try {
      do {
        again = false
        for (let events = source(); cursor < events.length; events = source()) {
          const e = events[cursor++]!
          lastConsidered = e
          if ((filter === undefined || filter.matches(e)) && !(await send(call, readEventResponse(e, settings)))) return stop()
          if (filter !== undefined && ++sinceCheckpoint >= filter.checkpointEvery) {
            sinceCheckpoint = 0
            if (!(await send(call, checkpoint(e)))) return stop()
          }
        }
        if (!caughtUp) {
          caughtUp = true
          if (filter !== undefined && lastConsidered !== undefined && sinceCheckpoint > 0) {
            sinceCheckpoint = 0
            if (!(await send(call, checkpoint(lastConsidered)))) return stop()
          }
          if (!(await send(call, new ReadResp().setCaughtUp(new ReadResp.CaughtUp())))) return stop()
        }
      } while (again)
    } finally {
      pumping = false
    }
  }
  const off = state.onAppend(() => void pump().catch(() => stop()))
  const stop = () => {
    off()
    source = () => []
  }
  call.once("cancelled", stop)
  call.once("close", stop)

  const confirmation = new ReadResp.SubscriptionConfirmation().setSubscriptionId(randomUUID())
  if (!(await send(call, new ReadResp().setConfirmation(confirmation)))) return stop()
  await pump()
}
