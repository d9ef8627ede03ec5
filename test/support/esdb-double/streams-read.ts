// Streams.Read: one-shot reads of a stream or of $all (directions, start/end/exact, counts, filters); subscriptions next door.
import { status } from "@grpc/grpc-js"
import { ReadReq, ReadResp } from "./proto.js"
import { badRequestError, grpcError, readEventResponse, streamIdentifier, streamName } from "./codec.js"
import type { EsdbDoubleState, StoredEvent } from "./state.js"
import { allPosition, atOrAfter, before, readSettings, send } from "./read-options.js"
import type { AllPosition, ReadCall, ReadOptions } from "./read-options.js"
import { subscribe } from "./streams-subscribe.js"

export const read = (state: EsdbDoubleState) => (call: ReadCall) => {
  const options = call.request.getOptions()
  if (options === undefined) return void call.emit("error", grpcError(status.INVALID_ARGUMENT, "Read options are missing"))
  const run = options.hasSubscription() ? subscribe(state, call, options) : oneShotRead(state, call, options)
  run.catch((error: unknown) => call.emit("error", error instanceof Error && "code" in error ? error : badRequestError(error)))
}

async function oneShotRead(state: EsdbDoubleState, call: ReadCall, options: ReadOptions): Promise<void> {
  const settings = readSettings(state, options)
  const forwards = options.getReadDirection() === ReadReq.Options.ReadDirection.FORWARDS
  const count = Math.min(Number(options.getCount() || "0"), Number.MAX_SAFE_INTEGER)
  let events: Iterable<StoredEvent>
  if (options.hasAll()) {
    events = allEvents(state, allPosition(state, options.getAll()!), forwards)
  } else {
    const stream = options.getStream()!
    const found = state.stream(streamName(stream.getStreamIdentifier()))
    if (found === undefined) {
      const notFound = new ReadResp.StreamNotFound().setStreamIdentifier(streamIdentifier(streamName(stream.getStreamIdentifier())))
      await send(call, new ReadResp().setStreamNotFound(notFound))
      return void call.end()
    }
    const last = found.length - 1
    const from = stream.hasStart() ? 0 : stream.hasEnd() ? (forwards ? found.length : last) : Number(stream.getRevision())
    events = streamEvents(found, forwards ? from : Math.min(from, last), forwards)
  }
  let sent = 0
  for (const e of events) {
    if (sent >= count) break
    if (settings.filter !== undefined && !settings.filter.matches(e)) continue
    if (!(await send(call, readEventResponse(e, settings)))) return
    sent += 1
  }
  call.end()
}

function* allEvents(state: EsdbDoubleState, from: AllPosition | "start" | "end", forwards: boolean): Iterable<StoredEvent> {
  const log = state.log
  if (forwards) {
    if (from === "end") return
    for (let i = from === "start" ? 0 : state.indexAtOrAfter(from.commit); i < log.length; i++) {
      if (from === "start" || atOrAfter(log[i]!, from)) yield log[i]!
    }
  } else {
    if (from === "start") return
    for (let i = from === "end" ? log.length - 1 : state.indexAtOrAfter(from.commit); i >= 0; i--) {
      if (i < log.length && (from === "end" || before(log[i]!, from))) yield log[i]!
    }
  }
}

function* streamEvents(events: ReadonlyArray<StoredEvent>, from: number, forwards: boolean): Iterable<StoredEvent> {
  if (forwards) for (let i = from; i < events.length; i++) yield events[i]!
  else for (let i = from; i >= 0; i--) yield events[i]!
}
