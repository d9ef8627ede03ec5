// Conversions between the double's log and the wire messages: uuids, stream names, proposed and recorded events.
import { Metadata, status } from "@grpc/grpc-js"
import type { ServerErrorResponse } from "@grpc/grpc-js"
import { ReadResp, StreamIdentifier, UUID } from "./proto.js"
import type { ProposedEvent, StoredEvent } from "./state.js"

const decoder = new TextDecoder()
const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

interface ProposedMessage {
  getId(): UUID | undefined
  getMetadataMap(): { get(key: string): string | undefined }
  getData_asU8(): Uint8Array
  getCustomMetadata_asU8(): Uint8Array
}

export const streamName = (id: StreamIdentifier | undefined): string => (id === undefined ? "" : decoder.decode(id.getStreamName_asU8()))

export const streamIdentifier = (name: string): StreamIdentifier => {
  const id = new StreamIdentifier()
  id.setStreamName(new TextEncoder().encode(name))
  return id
}

/** Reads either uuid form; .NET formats Guids in lower case, so ids come back lower-cased as from ESDB. */
export const uuidText = (uuid: UUID | undefined): string | undefined => {
  if (uuid === undefined) return undefined
  if (uuid.hasStructured()) {
    const s = uuid.getStructured()!
    const hex =
      BigInt.asUintN(64, BigInt(s.getMostSignificantBits())).toString(16).padStart(16, "0") +
      BigInt.asUintN(64, BigInt(s.getLeastSignificantBits())).toString(16).padStart(16, "0")
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
  }
  const text = uuid.getString().toLowerCase()
  return UUID_TEXT.test(text) ? text : undefined
}

export const uuidMessage = (text: string, structured: boolean): UUID => {
  const uuid = new UUID()
  if (!structured) return uuid.setString(text)
  const hex = text.replaceAll("-", "")
  const s = new UUID.Structured()
  s.setMostSignificantBits(BigInt.asIntN(64, BigInt(`0x${hex.slice(0, 16)}`)).toString())
  s.setLeastSignificantBits(BigInt.asIntN(64, BigInt(`0x${hex.slice(16)}`)).toString())
  return uuid.setStructured(s)
}

export class BadRequest extends Error {
  constructor(
    message: string,
    readonly exception?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message)
  }
}

/** ESDB rejects proposals without an id, `type` or `content-type` before writing anything. */
export const proposedEvent = (message: ProposedMessage): ProposedEvent => {
  const id = uuidText(message.getId())
  if (id === undefined) throw new BadRequest("Invalid event id")
  const metadata = message.getMetadataMap()
  const type = metadata.get("type")
  const contentType = metadata.get("content-type")
  if (type === undefined || contentType === undefined) {
    throw new BadRequest("Required metadata properties are missing", "missing-required-metadata-property", {
      "required-metadata-properties": "type,content-type",
    })
  }
  return { id, type, contentType, data: message.getData_asU8(), metadata: message.getCustomMetadata_asU8() }
}

export const grpcError = (code: status, details: string, exception?: string, headers: Record<string, string> = {}): ServerErrorResponse => {
  const metadata = new Metadata()
  if (exception !== undefined) metadata.set("exception", exception)
  for (const [key, value] of Object.entries(headers)) metadata.set(key, value)
  return Object.assign(new Error(details), { code, details, metadata })
}

export const badRequestError = (error: unknown): ServerErrorResponse =>
  error instanceof BadRequest
    ? grpcError(status.INVALID_ARGUMENT, error.message, error.exception, error.headers)
    : grpcError(status.INTERNAL, error instanceof Error ? error.message : String(error))

const recordedEvent = (e: StoredEvent, structuredIds: boolean) => {
  const record = new ReadResp.ReadEvent.RecordedEvent()
  record.setId(uuidMessage(e.id, structuredIds))
  record.setStreamIdentifier(streamIdentifier(e.stream))
  record.setStreamRevision(e.revision.toString())
  record.setCommitPosition(e.position.toString())
  record.setPreparePosition(e.position.toString())
  record.getMetadataMap().set("type", e.type).set("content-type", e.contentType).set("created", e.created.toString())
  record.setData(e.data)
  record.setCustomMetadata(e.metadata)
  return record
}

const LINK = /^(\d+)@(.+)$/s

/** One event of a read or subscription; with `resolveLinks`, a `$>` link carries its target as the event. */
export const readEventResponse = (
  e: StoredEvent,
  options: { structuredIds: boolean; resolve?: (stream: string, revision: bigint) => StoredEvent | undefined },
): ReadResp => {
  const event = new ReadResp.ReadEvent()
  const link = e.type === "$>" && options.resolve !== undefined ? LINK.exec(decoder.decode(e.data)) : null
  const target = link === null ? undefined : options.resolve?.(link[2]!, BigInt(link[1]!))
  if (target === undefined) {
    event.setEvent(recordedEvent(e, options.structuredIds))
  } else {
    event.setEvent(recordedEvent(target, options.structuredIds))
    event.setLink(recordedEvent(e, options.structuredIds))
  }
  // Since 22.6 the $all position is also populated on stream reads (for events outside explicit transactions).
  event.setCommitPosition(e.position.toString())
  return new ReadResp().setEvent(event)
}
