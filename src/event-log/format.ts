// The scenario file: JSON lines, a header then one event per line in log order; written and checked here.
import { Data, Result, Schema } from "effect"
import type { EventMetadata, JsonValue, NewEvent, RecordedEvent } from "../store/event-store.js"
import { knownEventTypes } from "../events/event-types.js"

export const LOG_FORMAT = "custody-sim/events@1"

export interface LogHeader {
  readonly format: typeof LOG_FORMAT
  /** Workspace seed the log was recorded with (ids and addresses derive from it); null when unknown. */
  readonly seed: string | null
  readonly apiVersion: string
}

export interface LoggedEvent extends NewEvent {
  readonly stream: string
  readonly revision: bigint
  /** 1-based line of the file it came from. */
  readonly line: number
  /** Its recorded position, or (when the line has none) its place among the file's events, counted from 1 like the stores' positions. */
  readonly position: bigint
}

export class LogRejected extends Data.TaggedError("LogRejected")<{ readonly line: number; readonly reason: string }> {
  override get message(): string {
    return `line ${this.line}: ${this.reason}`
  }
}

export const headerLine = (h: Omit<LogHeader, "format">): string =>
  JSON.stringify({ format: LOG_FORMAT, seed: h.seed, apiVersion: h.apiVersion })

/** Positions are store-specific: written for information, never read back. */
export const eventLine = (e: RecordedEvent): string =>
  JSON.stringify({
    stream: e.stream,
    revision: Number(e.revision),
    id: e.id,
    type: e.type,
    data: e.data,
    metadata: e.metadata,
    position: Number(e.position),
  })

const Header = Schema.Struct({
  format: Schema.Literal(LOG_FORMAT),
  seed: Schema.NullOr(Schema.String),
  apiVersion: Schema.String,
})

/** The largest time a JavaScript Date holds. */
const MAX_TIME_MS = 8.64e15

const Envelope = Schema.Struct({
  stream: Schema.String.check(
    Schema.isPattern(/^[a-z][A-Za-z0-9]*-.+$/, { message: "stream must be <camelCaseCategory>-<id> (a camelCase category, then a dash)" }),
  ),
  revision: Schema.Number.check(Schema.isInt(), Schema.isGreaterThanOrEqualTo(0)),
  id: Schema.String.check(
    Schema.isPattern(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, { message: "id must be a uuid" }),
  ),
  type: Schema.String,
  data: Schema.Record(Schema.String, Schema.Unknown),
  // A simulated time a Date can hold (UNIX ms, 0 to 8.64e15): every time shown, in answers and the audit, is one.
  metadata: Schema.Struct({
    at: Schema.Number.check(Schema.isFinite(), Schema.isBetween({ minimum: 0, maximum: MAX_TIME_MS })),
    schemaVersion: Schema.Number.check(Schema.isInt()),
    seq: Schema.optionalKey(Schema.Number.check(Schema.isInt(), Schema.isGreaterThanOrEqualTo(0))),
    epoch: Schema.optionalKey(Schema.Number.check(Schema.isInt(), Schema.isGreaterThanOrEqualTo(1))),
  }),
  position: Schema.optionalKey(Schema.Number.check(Schema.isInt(), Schema.isGreaterThanOrEqualTo(0))),
})

const decodeHeader = Schema.decodeUnknownResult(Header)
const decodeEnvelope = Schema.decodeUnknownResult(Envelope)

const issue = (message: string) => message.replace(/\n\s*/g, " ")

/**
 * Checks a log line by line (files may exceed what one string holds): the header first, then each event's
 * envelope, a known type, revisions contiguous from 0 in every stream, unique ids, increasing positions.
 */
export class LogReader {
  private lineNo = 0
  private head: LogHeader | undefined
  private readonly revisions = new Map<string, number>()
  private readonly ids = new Set<string>()
  private lastPosition = -1
  private events = 0
  private blankAt = 0

  constructor(private readonly types: ReadonlySet<string> = knownEventTypes) {}

  get header(): LogHeader | undefined {
    return this.head
  }

  get lines(): number {
    return this.lineNo
  }

  /** The event on this line, or undefined for the header; fails with the line number and what is wrong. */
  read(text: string): Result.Result<LoggedEvent | undefined, LogRejected> {
    const line = ++this.lineNo
    const reject = (reason: string) => Result.fail(new LogRejected({ line, reason }))
    if (this.blankAt > 0) return Result.fail(new LogRejected({ line: this.blankAt, reason: "empty line inside the log" }))
    if (text.trim().length === 0) {
      this.blankAt = line
      return Result.succeed(undefined)
    }
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch {
      return reject("not valid JSON")
    }
    if (this.head === undefined) {
      const h = decodeHeader(json)
      if (Result.isFailure(h)) return reject(`not a ${LOG_FORMAT} header: ${issue(h.failure.message)}`)
      this.head = h.success
      return Result.succeed(undefined)
    }
    const e = decodeEnvelope(json, { errors: "all" })
    if (Result.isFailure(e)) return reject(issue(e.failure.message))
    const { stream, revision, id, type, position } = e.success
    if (!this.types.has(type)) return reject(`unknown event type "${type}"`)
    const expected = this.revisions.get(stream) ?? 0
    if (revision !== expected) return reject(`stream ${stream} expects revision ${expected} here, not ${revision}`)
    if (this.ids.has(id)) return reject(`event id ${id} appears twice`)
    if (position !== undefined) {
      if (position <= this.lastPosition) return reject(`position ${position} does not follow ${this.lastPosition}: events out of order`)
      this.lastPosition = position
    }
    this.revisions.set(stream, expected + 1)
    this.ids.add(id)
    const index = this.events++
    // The original objects, not the decoded ones: decoding drops metadata keys the envelope does not name.
    const raw = json as { data: JsonValue; metadata: EventMetadata }
    return Result.succeed({
      stream,
      revision: BigInt(revision),
      id,
      type,
      data: raw.data,
      metadata: raw.metadata,
      line,
      position: BigInt(position ?? index + 1),
    })
  }

  /** Checks the end of the file: a header was there. */
  finish(): Result.Result<LogHeader, LogRejected> {
    if (this.head === undefined)
      return Result.fail(new LogRejected({ line: Math.max(1, this.lineNo), reason: `the file has no ${LOG_FORMAT} header` }))
    return Result.succeed(this.head)
  }
}
