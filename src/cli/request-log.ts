// The request log of `custody-sim serve`: one line per answered request (time, method, path, status, duration,
// API key, request id, error code when refused), as text or JSON. It lives in the HTTP server, so the app is
// unchanged: the request id and error code are read from the start of the answer's body. When a signature is
// refused, the line (never the answer) shows the string the server signed, for the integrator to diff with theirs.
import { ServerResponse, type IncomingMessage } from "node:http"
import { signatureMessage, signedQuery } from "../client/signing.js"
import { bodyTextOf } from "../api/request-body.js"

export type LogFormat = "text" | "json"

export interface RequestLogOptions {
  readonly format: LogFormat
  /** Where lines go, in batches (default: stdout). */
  readonly write?: (chunk: string) => void
}

/**
 * Lines are written together, at most this long after the first of them, or at once past FLUSH_BYTES: a busy
 * server makes a few dozen writes a second instead of one per event-loop turn (each a system call on a file, a
 * pipe or a terminal, where Node writes stdout synchronously). What is pending is written when the process exits.
 */
const FLUSH_MS = 25
const FLUSH_BYTES = 64 * 1024

/**
 * `new Date().toISOString()`, the same characters, with the date and the seconds made once per second and the whole
 * string once per millisecond: a busy server answers several requests in the same millisecond.
 */
let clockSecond = -1
let clockPrefix = ""
let clockMs = -1
let clockText = ""
const isoNow = (): string => {
  const now = Date.now()
  if (now === clockMs) return clockText
  const ms = now % 1000
  if (now - ms !== clockSecond) {
    clockSecond = now - ms
    clockPrefix = new Date(clockSecond).toISOString().slice(0, 20)
  }
  clockMs = now
  clockText = `${clockPrefix}${ms < 10 ? "00" : ms < 100 ? "0" : ""}${ms}Z`
  return clockText
}

const REFUSED_SIGNATURE = "invalid_api_sign"

/** How far into an answer's body its request id and error code are looked for (envelopes put both up front). */
const HEAD = 1024

/** A marker searched for in a body's bytes, and its length. */
interface Marker {
  readonly text: string
  readonly bytes: Buffer
}
const marker = (text: string): Marker => ({ text, bytes: Buffer.from(text, "latin1") })
const REQUEST_ID = marker('"requestId":"')
const CODE = marker('"code":"')

/**
 * The value of `"name":"…"` in the first KiB of an answer's body, found in its bytes without decoding them (the
 * values are ASCII: a request id, an error code).
 */
const field = (body: string | Uint8Array, m: Marker): string | undefined => {
  if (typeof body === "string") {
    const i = (body.length > HEAD ? body.slice(0, HEAD) : body).indexOf(m.text)
    if (i < 0) return undefined
    const start = i + m.text.length
    const end = body.indexOf('"', start)
    return end < 0 ? undefined : body.slice(start, end)
  }
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength)
  const i = (bytes.length > HEAD ? bytes.subarray(0, HEAD) : bytes).indexOf(m.bytes)
  if (i < 0) return undefined
  const start = i + m.bytes.length
  const end = bytes.indexOf(0x22, start)
  return end < 0 ? undefined : bytes.toString("latin1", start, end)
}

/** Query values named token (the audit report's link) are never written out. */
const redact = (url: string): string => (url.includes("token=") ? url.replace(/([?&]token=)[^&]*/g, "$1…") : url)

const header = (req: IncomingMessage, name: string): string | undefined => {
  const v = req.headers[name]
  return Array.isArray(v) ? v[0] : v
}

const signedString = (req: IncomingMessage): string => {
  const url = req.url ?? "/"
  const q = url.indexOf("?")
  return signatureMessage({
    timestamp: header(req, "x-api-timestamp") ?? "",
    method: req.method ?? "",
    path: q < 0 ? url : url.slice(0, q),
    body: bodyTextOf(req) ?? "",
    query: signedQuery(q < 0 ? "" : url.slice(q + 1)),
  })
}

/**
 * `JSON.stringify(s)`, the same bytes: most strings of a line (a method, a path, a key, a request id) are printable
 * ASCII without `"` or `\`, which JSON only quotes; the others go through `JSON.stringify`.
 */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/
const quoted = (s: string): string => (PLAIN.test(s) ? `"${s}"` : JSON.stringify(s))

/** The logs with lines not yet written; one exit listener writes them all. */
const unwritten = new Set<() => void>()
let flushesAtExit = false
const flushAll = () => {
  for (const flush of unwritten) flush()
}

/**
 * A ServerResponse class that logs each answer as it is ended: pass it as `createServer({ ServerResponse })`.
 * A subclass rather than a wrapper per request: patching each response object would slow Node's own code on it.
 * Not a `finish` listener: one per response cost 2–3 µs more than this override (which, with its whole
 * line, costs about 1 µs), and it would not see the body, where the request id and the error code are.
 */
export const loggedResponse = (options: RequestLogOptions): typeof ServerResponse => {
  const write = options.write ?? ((chunk: string) => void process.stdout.write(chunk))
  const json = options.format === "json"
  let pending = ""
  let timer: ReturnType<typeof setTimeout> | undefined
  const flush = () => {
    if (timer !== undefined) clearTimeout(timer)
    timer = undefined
    unwritten.delete(flush)
    if (pending.length === 0) return
    const out = pending
    pending = ""
    write(out)
  }
  if (!flushesAtExit) {
    flushesAtExit = true
    process.on("exit", flushAll)
  }
  // One line per answer; the optional fields (key, request id, error code, signed string) only when present, in
  // this order (a JSON line names no absent field). Built as one string, without an entry object in between.
  const log = (req: IncomingMessage, status: number, started: number, body: string | Uint8Array | undefined) => {
    const durationMs = Math.round((performance.now() - started) * 1000) / 1000
    const time = isoNow()
    const method = req.method ?? ""
    const path = redact(req.url ?? "/")
    const key = header(req, "x-api-key")
    const requestId = body !== undefined ? field(body, REQUEST_ID) : undefined
    const error = status >= 400 && body !== undefined ? field(body, CODE) : undefined
    const signed = error === REFUSED_SIGNATURE ? JSON.stringify(signedString(req)) : undefined
    let line: string
    if (json) {
      line = `{"time":"${time}","method":${quoted(method)},"path":${quoted(path)},"status":${status},"durationMs":${durationMs}`
      if (key !== undefined && key !== "") line += `,"key":${quoted(key)}`
      if (requestId !== undefined) line += `,"requestId":${quoted(requestId)}`
      if (error !== undefined) line += `,"error":${quoted(error)}`
      if (signed !== undefined) line += `,"signed":${signed}`
      line += "}\n"
    } else {
      line = `${time} ${method} ${path} ${status} ${durationMs.toFixed(1)}ms`
      if (key !== undefined && key !== "") line += ` key=${key}`
      if (requestId !== undefined) line += ` request=${requestId}`
      if (error !== undefined) line += ` error=${error}`
      if (signed !== undefined) line += ` signed=${signed}`
      line += "\n"
    }
    if (pending.length === 0) {
      unwritten.add(flush)
      timer = setTimeout(flush, FLUSH_MS).unref()
    }
    pending += line
    if (pending.length >= FLUSH_BYTES) flush()
  }
  class LoggedResponse extends (ServerResponse as new (req: IncomingMessage, options?: unknown) => ServerResponse) {
    declare readonly started: number

    // Node constructs it as (req, options); the field is set here rather than declared with an initializer, which
    // would define it as a property after a spread call of the implicit constructor.
    constructor(req: IncomingMessage, options?: unknown) {
      super(req, options)
      this.started = performance.now()
    }

    // Three named parameters, not a rest array spread again: Node's end(chunk, encoding, callback) reads them by
    // type. Logged at the first end: a later one (after `writableEnded`) answers nothing new.
    override end(chunk?: unknown, encoding?: unknown, callback?: unknown): this {
      if (!this.writableEnded) log(this.req, this.statusCode, this.started, typeof chunk === "string" || chunk instanceof Uint8Array ? chunk : undefined)
      return (super.end as (c: unknown, e: unknown, cb: unknown) => this)(chunk, encoding, callback)
    }
  }
  return LoggedResponse as unknown as typeof ServerResponse
}
