// The request log of `custody-sim serve`: one line per answered request (time, method, path, status, duration,
// API key, request id, error code when refused), as text or JSON. It lives in the HTTP server, so the app is
// unchanged: the request id and error code are read from the start of the answer's body. When a signature is
// refused, the line (never the answer) shows the string the server signed, for the integrator to diff with theirs.
// Most lines (no error, a plain request id) are written straight into the batch's bytes by request-log-line.ts; the
// rest are made here, as an entry and then a line (`entryOf`, `formatEntry`), which also define the bytes.
import { ServerResponse, type IncomingMessage } from "node:http"
import { signatureMessage, signedQuery } from "../client/signing.js"
import { faultOf } from "../api/fault-mark.js"
import { worldOf } from "../api/world-mark.js"
import { bodyTextOf } from "../api/request-body.js"
import {
  bufferOf,
  CODE,
  isoTime,
  LINE_ROOM,
  lineWriter,
  NOT_WRITTEN,
  quoted,
  redact,
  REQUEST_ID,
  valueStart,
  type Answer,
  type LogFormat,
  type Marker,
} from "./request-log-line.js"

export type { LogFormat }

export interface RequestLogOptions {
  readonly format: LogFormat
  /** Where lines go, in batches (default: stdout). */
  readonly write?: (chunk: string) => void
}

/**
 * Lines are written together, at most this long after the first of them, or as soon as the next one might not fit
 * in FLUSH_BYTES: a busy server makes a few dozen writes a second instead of one per event-loop turn (each a system
 * call on a file, a pipe or a terminal, where Node writes stdout synchronously). What is pending is written when the
 * process exits.
 */
const FLUSH_MS = 25
const FLUSH_BYTES = 64 * 1024

export interface RequestLogEntry {
  readonly time: string
  readonly method: string
  readonly path: string
  readonly status: number
  readonly durationMs: number
  readonly key?: string
  /** The world that answered (docs/worlds.md), when not the server's own. */
  readonly world?: string
  readonly requestId?: string
  readonly error?: string
  /** The string the server computed the signature over, when it refused the signature. */
  readonly signed?: string
  /** The fault (/_sim/faults) that hit the request; its status is 0 when the connection was dropped unanswered. */
  readonly fault?: string
}

const REFUSED_SIGNATURE = "invalid_api_sign"

/** The value of `"name":"…"` near the start of an answer's body (values are ASCII: a request id, an error code). */
const field = (body: string | Uint8Array, m: Marker): string | undefined => {
  const start = valueStart(body, m)
  if (start < 0) return undefined
  if (typeof body === "string") {
    const end = body.indexOf('"', start)
    return end < 0 ? undefined : body.slice(start, end)
  }
  const bytes = bufferOf(body)
  const end = bytes.indexOf(0x22, start)
  return end < 0 ? undefined : bytes.toString("latin1", start, end)
}

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

/** `JSON.stringify(e)`, the same bytes, built without walking an object: only its strings can need escaping. */
const jsonLine = (e: RequestLogEntry): string => {
  let line = `{"time":"${e.time}","method":${quoted(e.method)},"path":${quoted(e.path)},"status":${e.status},"durationMs":${e.durationMs}`
  if (e.key !== undefined) line += `,"key":${quoted(e.key)}`
  if (e.world !== undefined) line += `,"world":${quoted(e.world)}`
  if (e.requestId !== undefined) line += `,"requestId":${quoted(e.requestId)}`
  if (e.error !== undefined) line += `,"error":${quoted(e.error)}`
  if (e.signed !== undefined) line += `,"signed":${JSON.stringify(e.signed)}`
  if (e.fault !== undefined) line += `,"fault":${quoted(e.fault)}`
  return `${line}}`
}

export const formatEntry = (e: RequestLogEntry, format: LogFormat): string => {
  if (format === "json") return jsonLine(e)
  let line = `${e.time} ${e.method} ${e.path} ${e.status} ${e.durationMs.toFixed(1)}ms`
  if (e.key !== undefined) line += ` key=${e.key}`
  if (e.world !== undefined) line += ` world=${e.world}`
  if (e.requestId !== undefined) line += ` request=${e.requestId}`
  if (e.error !== undefined) line += ` error=${e.error}`
  if (e.signed !== undefined) line += ` signed=${JSON.stringify(e.signed)}`
  if (e.fault !== undefined) line += ` fault=${e.fault}`
  return line
}

/** An answer's entry; `signed` gives the string the server signed, asked for only when it refused the signature. */
export const entryOf = (signed: () => string, ...[now, method, url, status, micros, key, body]: Answer): RequestLogEntry => {
  const error = status >= 400 && body !== undefined ? field(body, CODE) : undefined
  const requestId = body !== undefined ? field(body, REQUEST_ID) : undefined
  // Fields in this order, the optional ones only when present (a JSON line names no undefined field).
  const entry: { -readonly [K in keyof RequestLogEntry]: RequestLogEntry[K] } = {
    time: isoTime(now),
    method,
    path: redact(url),
    status,
    durationMs: micros / 1000,
  }
  if (key !== undefined && key !== "") entry.key = key
  if (requestId !== undefined) entry.requestId = requestId
  if (error !== undefined) entry.error = error
  if (error === REFUSED_SIGNATURE) entry.signed = signed()
  return entry
}

/** The logs with lines not yet written; one exit listener writes them all. */
const unwritten = new Set<() => void>()
let flushesAtExit = false
const flushAll = () => {
  for (const flush of unwritten) flush()
}

/**
 * A ServerResponse class that logs each answer as it is ended: pass it as `createServer({ ServerResponse })`.
 * A subclass rather than a wrapper per request: patching each response object would slow Node's own code on it.
 *
 * Each line is encoded into the batch's buffer as soon as it is made. Lines kept as strings until their batch was
 * written lived through the collector's young-generation passes, and with them what they were cut from (a request
 * id sliced out of a body is a view that keeps the whole body): each pass of a busy logged server took 1.4-2.0 ms
 * against 0.85-1.0 ms unlogged. Now nothing of a request outlives its `end()`.
 */
export const loggedResponse = (options: RequestLogOptions): typeof ServerResponse => {
  const custom = options.write
  const writeOut = (bytes: Buffer) => {
    // process.stdout may keep what it is given until it is written: a copy, as the buffer is reused.
    if (custom === undefined) process.stdout.write(Buffer.from(bytes))
    else custom(bytes.toString("utf8"))
  }
  const batch = Buffer.allocUnsafe(FLUSH_BYTES)
  let used = 0
  let timer: ReturnType<typeof setTimeout> | undefined
  const flush = () => {
    if (timer !== undefined) clearTimeout(timer)
    timer = undefined
    unwritten.delete(flush)
    if (used === 0) return
    const bytes = batch.subarray(0, used)
    used = 0
    writeOut(bytes)
  }
  if (!flushesAtExit) {
    flushesAtExit = true
    process.on("exit", flushAll)
  }
  const append = (line: string) => {
    // A UTF-16 code unit takes at most 3 bytes in UTF-8.
    if (line.length * 3 > FLUSH_BYTES - used) {
      flush()
      // A line longer than a batch (a refused signature over a large body) is written alone.
      if (line.length * 3 > FLUSH_BYTES) return writeOut(Buffer.from(line, "utf8"))
    }
    used += batch.write(line, used, "utf8")
    armTimer()
  }
  const armTimer = () => {
    if (timer === undefined) {
      timer = setTimeout(flush, FLUSH_MS).unref()
      unwritten.add(flush)
    }
  }
  const lines = lineWriter(options.format)
  const log = (req: IncomingMessage, status: number, started: number, body: string | Uint8Array | undefined) => {
    const now = Date.now()
    const micros = Math.round((performance.now() - started) * 1000)
    const method = req.method ?? ""
    const url = req.url ?? "/"
    const key = header(req, "x-api-key")
    if (FLUSH_BYTES - used < LINE_ROOM) flush()
    const fault = faultOf(req)
    const world = worldOf(req)
    if (fault === undefined && world === undefined) {
      const end = lines.write(batch, used, now, method, url, status, micros, key, body)
      if (end !== NOT_WRITTEN) {
        used = end
        return armTimer()
      }
    }
    const entry = entryOf(() => signedString(req), now, method, url, status, micros, key, body)
    const marked = { ...entry, ...(world !== undefined ? { world } : {}), ...(fault !== undefined ? { fault } : {}) }
    append(`${formatEntry(marked, options.format)}\n`)
  }
  class LoggedResponse extends ServerResponse {
    private readonly started = performance.now()
    private logged = false

    // Three named parameters, not a rest array spread again: Node's end(chunk, encoding, callback) reads them by type.
    override end(chunk?: unknown, encoding?: unknown, callback?: unknown): this {
      if (!this.logged) {
        this.logged = true
        log(this.req, this.statusCode, this.started, typeof chunk === "string" || chunk instanceof Uint8Array ? chunk : undefined)
      }
      return (super.end as (c: unknown, e: unknown, cb: unknown) => this)(chunk, encoding, callback)
    }

    // A fault's dropped connection (reset, lost-answer, a timeout's end) is logged with status 0 and the fault's id.
    override destroy(error?: Error): this {
      if (!this.logged && faultOf(this.req) !== undefined) {
        this.logged = true
        log(this.req, 0, this.started, undefined)
      }
      return super.destroy(error)
    }
  }
  return LoggedResponse as typeof ServerResponse
}
