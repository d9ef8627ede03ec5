// What a Streams.Read request asks for (uuid form, link resolution, filter, $all position) and backpressured sends.
import { status } from "@grpc/grpc-js"
import type { ServerWritableStream } from "@grpc/grpc-js"
import type { ReadReq, ReadResp } from "./proto.js"
import { grpcError } from "./codec.js"
import type { EsdbDoubleState, StoredEvent } from "./state.js"

export type ReadCall = ServerWritableStream<ReadReq, ReadResp>
export type ReadOptions = InstanceType<typeof ReadReq.Options>

export interface EventFilter {
  readonly matches: (e: StoredEvent) => boolean
  /** Events considered between two checkpoints of a filtered subscription. */
  readonly checkpointEvery: number
}

export interface ReadSettings {
  readonly structuredIds: boolean
  readonly resolve: ((stream: string, revision: bigint) => StoredEvent | undefined) | undefined
  readonly filter: EventFilter | undefined
}

/** A $all position as the server compares them: (commit, prepare) pairs, ordered by commit then prepare. */
export interface AllPosition {
  readonly commit: bigint
  readonly prepare: bigint
}

export const readSettings = (state: EsdbDoubleState, options: ReadOptions): ReadSettings => ({
  structuredIds: options.getUuidOption()?.hasStructured() ?? false,
  resolve: options.getResolveLinks() ? (stream, revision) => state.stream(stream)?.[Number(revision)] : undefined,
  filter: eventFilter(options),
})

const eventFilter = (options: ReadOptions): EventFilter | undefined => {
  const filter = options.hasFilter() ? options.getFilter() : undefined
  if (filter === undefined) return undefined
  const onStream = filter.hasStreamIdentifier()
  const expression = onStream ? filter.getStreamIdentifier() : filter.getEventType()
  const regex = expression?.getRegex() ? new RegExp(expression.getRegex()) : undefined
  const prefixes = expression?.getPrefixList() ?? []
  const window = filter.hasMax() ? filter.getMax() : 32
  return {
    matches: (e) => {
      const key = onStream ? e.stream : e.type
      if (regex !== undefined) return regex.test(key)
      return prefixes.length === 0 || prefixes.some((p) => key.startsWith(p))
    },
    checkpointEvery: Math.max(1, filter.getCheckpointintervalmultiplier()) * window,
  }
}

/** The requested $all position, or an INVALID_ARGUMENT error when it points inside a record, as ESDB answers. */
export const allPosition = (
  state: EsdbDoubleState,
  all: InstanceType<typeof ReadReq.Options.AllOptions>,
): AllPosition | "start" | "end" => {
  if (all.hasStart()) return "start"
  if (all.hasEnd()) return "end"
  const p = all.getPosition()
  const position = { commit: BigInt(p?.getCommitPosition() ?? "0"), prepare: BigInt(p?.getPreparePosition() ?? "0") }
  if (!state.isValidPosition(position.commit)) throw grpcError(status.INVALID_ARGUMENT, "Invalid position.")
  return position
}

export const atOrAfter = (e: StoredEvent, p: AllPosition) => e.position > p.commit || (e.position === p.commit && e.position >= p.prepare)
export const after = (e: StoredEvent, p: AllPosition) => e.position > p.commit || (e.position === p.commit && e.position > p.prepare)
export const before = (e: StoredEvent, p: AllPosition) => e.position < p.commit || (e.position === p.commit && e.position < p.prepare)

/** Writes with backpressure; false once the client has gone (cancelled, deadline, server stopping). */
export const send = async (call: ReadCall, resp: ReadResp): Promise<boolean> => {
  if (call.cancelled || call.destroyed) return false
  if (call.write(resp)) return true
  return new Promise((resolve) => {
    const done = (ok: boolean) => () => {
      call.off("drain", drained)
      call.off("cancelled", gone)
      call.off("close", gone)
      resolve(ok)
    }
    const drained = done(true)
    const gone = done(false)
    call.once("drain", drained)
    call.once("cancelled", gone)
    call.once("close", gone)
  })
}
