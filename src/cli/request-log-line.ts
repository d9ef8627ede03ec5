// A request-log line written straight into the batch's bytes, for the answers most requests get: no error, a
// request id of plain ASCII. The same bytes as `formatEntry` (request-log.ts) followed by "\n", without building the
// entry, its line or its UTF-8 copy: a served `--log-format json` process spent about 5% of its CPU making the entry
// and its line and 3.5% writing it, against the 10% the whole log may cost (docs/benchmarks.md). What a busy server
// repeats from one request to the next (method, path and status; the API key) is encoded once and copied while it
// stays the same; the time's date and seconds once per second. Anything else (an error, a refused signature, a
// request id that would need escaping, a long path) returns NOT_WRITTEN and goes the general way. What both ways use
// is here too: the clock, quoting, redaction, and the search of an answer's body for a field.

export type LogFormat = "text" | "json"

/** What `write` returns when the line is not for it: the caller formats the entry instead. */
export const NOT_WRITTEN = -1

/** The most `write` adds to a batch: room the caller leaves before calling it. */
export const LINE_ROOM = 2048

/** Longer repeated parts (a long path or key) go the general way, so a line stays within LINE_ROOM. */
const SEGMENTS_MAX = 1536
/** So do request ids longer than this. */
const ID_MAX = 256
/** How far into an answer's body its request id and error code are looked for (envelopes put both up front). */
const HEAD = 1024
/** Past this many µs (31 years) a duration's digits are left to the general way. */
const MICROS_MAX = 1e15

/**
 * `new Date().toISOString()`, the same characters, with the date and the seconds made once per second: only the
 * milliseconds change from one request to the next.
 */
let clockSecond = -1
let clockPrefix = ""
let clockPrefixBytes: Uint8Array = new Uint8Array(0)
const setSecond = (second: number) => {
  clockSecond = second
  clockPrefix = new Date(second).toISOString().slice(0, 20)
  clockPrefixBytes = Buffer.from(clockPrefix, "latin1")
}
/** The milliseconds of `now`, with the date and seconds above made for its second. */
const millisOf = (now: number): number => {
  const ms = now % 1000
  if (now - ms !== clockSecond) setSecond(now - ms)
  return ms
}
export const isoTime = (now: number): string => {
  const ms = millisOf(now)
  return `${clockPrefix}${ms < 10 ? "00" : ms < 100 ? "0" : ""}${ms}Z`
}

/** What `JSON.stringify` escapes in a string: the quote, the backslash, control characters, and surrogates. */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/
/** `JSON.stringify(s)`, the same characters: a line's strings (method, path, key) rarely need escaping. */
export const quoted = (s: string): string => (NEEDS_ESCAPE.test(s) ? JSON.stringify(s) : `"${s}"`)

/** Query values named token (the audit report's link) are never written out. */
export const redact = (url: string): string => (url.includes("token=") ? url.replace(/([?&]token=)[^&]*/g, "$1…") : url)

/** A marker searched for in an answer's body: `"name":"`, as text and as bytes. */
export interface Marker {
  readonly text: string
  readonly bytes: Buffer
}
const marker = (text: string): Marker => ({ text, bytes: Buffer.from(text, "latin1") })
export const REQUEST_ID = marker('"requestId":"')
export const CODE = marker('"code":"')

/** A body's bytes as a Buffer (a view, not a copy), for its searches. */
export const bufferOf = (body: Uint8Array): Buffer =>
  Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength)

/**
 * Where the value of `"name":"…"` starts in an answer's body, found in the body's first HEAD characters (or bytes,
 * without decoding them: the values looked for are ASCII), or -1.
 */
export const valueStart = (body: string | Uint8Array, m: Marker): number => {
  const i =
    typeof body === "string"
      ? (body.length > HEAD ? body.slice(0, HEAD) : body).indexOf(m.text)
      : (body.length > HEAD ? bufferOf(body).subarray(0, HEAD) : bufferOf(body)).indexOf(m.bytes)
  return i < 0 ? -1 : i + m.text.length
}

const QUOTE = 0x22
const BACKSLASH = 0x5c
/** A byte copied as it is: printable ASCII that neither format escapes (not the quote, not the backslash). */
const plain = (c: number) => c >= 0x20 && c <= 0x7e && c !== BACKSLASH

/** `set`, a memmove: three times a loop's speed on a line's pieces. */
const copy = (to: Uint8Array, at: number, from: Uint8Array): number => {
  to.set(from, at)
  return at + from.length
}

/** A string of ASCII characters. */
const ascii = (to: Uint8Array, at: number, s: string): number => {
  for (let i = 0; i < s.length; i++) to[at + i] = s.charCodeAt(i)
  return at + s.length
}

/** The digits of a natural number below 2^53. */
const digits = (to: Uint8Array, at: number, n: number): number => {
  let end = at
  for (let m = n; m >= 10; m = Math.floor(m / 10)) end++
  for (let i = end, m = n; i >= at; i--, m = Math.floor(m / 10)) to[i] = 0x30 + (m % 10)
  return end + 1
}

/** `String(micros / 1000)`: the milliseconds and, when not whole, their decimals without trailing zeros. */
const jsonMillis = (to: Uint8Array, at: number, micros: number): number => {
  let p = digits(to, at, Math.floor(micros / 1000))
  let frac = micros % 1000
  if (frac === 0) return p
  to[p++] = 0x2e
  to[p++] = 0x30 + Math.floor(frac / 100)
  frac %= 100
  if (frac === 0) return p
  to[p++] = 0x30 + Math.floor(frac / 10)
  if (frac % 10 === 0) return p
  to[p++] = 0x30 + (frac % 10)
  return p
}

/**
 * `(micros / 1000).toFixed(1)`: the nearest tenth. A remainder of exactly 50 µs is a tie only if the double is, so
 * those few go through `toFixed` itself; any other remainder is at least 1 µs from the midpoint, far beyond the
 * double's error.
 */
const textMillis = (to: Uint8Array, at: number, micros: number): number => {
  const rest = micros % 100
  if (rest === 50) return ascii(to, at, (micros / 1000).toFixed(1))
  const tenths = Math.floor(micros / 100) + (rest > 50 ? 1 : 0)
  const p = digits(to, at, Math.floor(tenths / 10))
  to[p] = 0x2e
  to[p + 1] = 0x30 + (tenths % 10)
  return p + 2
}

/** A body without a request id in its head. */
const ABSENT = -2

/**
 * The request id's characters, copied from the answer's body to `at`: where they end, ABSENT, or NOT_WRITTEN when
 * one would need escaping or the id is longer than ID_MAX.
 */
const requestIdAt = (to: Uint8Array, at: number, body: string | Uint8Array): number => {
  const start = valueStart(body, REQUEST_ID)
  if (start < 0) return ABSENT
  const end = Math.min(body.length, start + ID_MAX + 1)
  for (let k = start; k < end; k++) {
    const c = typeof body === "string" ? body.charCodeAt(k) : body[k]!
    if (c === QUOTE) return at + k - start
    if (!plain(c)) return NOT_WRITTEN
    to[at + k - start] = c
  }
  return NOT_WRITTEN
}

/** A format's constant pieces and how it writes the repeated ones. */
interface Shape {
  readonly open: Uint8Array
  /** After the time, up to the duration: method, path, status. */
  readonly head: (method: string, path: string, status: number) => string
  readonly millis: (to: Uint8Array, at: number, micros: number) => number
  /** After the duration: the key, when there is one. */
  readonly key: (key: string | undefined) => string
  /** Before the request id, and after it to the line's end. */
  readonly requestId: Uint8Array
  readonly requestIdEnd: Uint8Array
  readonly close: Uint8Array
}
const latin1 = (s: string) => Buffer.from(s, "latin1")
const SHAPES: Record<LogFormat, Shape> = {
  json: {
    open: latin1('{"time":"'),
    head: (method, path, status) => `Z","method":${quoted(method)},"path":${quoted(path)},"status":${status},"durationMs":`,
    millis: jsonMillis,
    key: (key) => (key === undefined ? "" : `,"key":${quoted(key)}`),
    requestId: latin1(',"requestId":"'),
    requestIdEnd: latin1('"'),
    close: latin1("}\n"),
  },
  text: {
    open: latin1(""),
    head: (method, path, status) => `Z ${method} ${path} ${status} `,
    millis: textMillis,
    key: (key) => (key === undefined ? "ms" : `ms key=${key}`),
    requestId: latin1(" request="),
    requestIdEnd: latin1(""),
    close: latin1("\n"),
  },
}

/**
 * What a line is made of, as the server has it when an answer ends: `now` from Date.now(), the request's method and
 * URL, the status, the duration in whole µs, the API key header ("" or undefined when there is none) and the body.
 */
export type Answer = readonly [
  now: number,
  method: string,
  url: string,
  status: number,
  micros: number,
  key: string | undefined,
  body: string | Uint8Array | undefined,
]

/** Writes lines of one format; it remembers the last method, path, status and key it encoded. */
export interface LineWriter {
  /**
   * Writes the line of an answer at `at` and returns where it ends, or NOT_WRITTEN (what it wrote past `at` is then
   * garbage for the caller to overwrite). The caller leaves LINE_ROOM bytes free at `at`.
   */
  readonly write: (to: Uint8Array, at: number, ...answer: Answer) => number
}

export const lineWriter = (format: LogFormat): LineWriter => {
  const shape = SHAPES[format]
  let method = ""
  let url = ""
  let status = -1
  let head: Uint8Array | undefined
  let key: string | undefined
  let keyBytes: Uint8Array | undefined
  return {
    write: (to, at, now, m, u, s, micros, k, body) => {
      if (s >= 400 || micros >= MICROS_MAX) return NOT_WRITTEN
      if (head === undefined || m !== method || u !== url || s !== status) {
        method = m
        url = u
        status = s
        head = Buffer.from(shape.head(m, redact(u), s), "utf8")
      }
      const givenKey = k === "" ? undefined : k
      if (keyBytes === undefined || givenKey !== key) {
        key = givenKey
        keyBytes = Buffer.from(shape.key(givenKey), "utf8")
      }
      if (head.length + keyBytes.length > SEGMENTS_MAX) return NOT_WRITTEN
      const ms = millisOf(now)
      let p = copy(to, at, shape.open)
      p = copy(to, p, clockPrefixBytes)
      to[p] = 0x30 + Math.floor(ms / 100)
      to[p + 1] = 0x30 + (Math.floor(ms / 10) % 10)
      to[p + 2] = 0x30 + (ms % 10)
      p = copy(to, p + 3, head)
      p = shape.millis(to, p, micros)
      p = copy(to, p, keyBytes)
      if (body !== undefined) {
        const idAt = copy(to, p, shape.requestId)
        const idEnd = requestIdAt(to, idAt, body)
        if (idEnd === NOT_WRITTEN) return NOT_WRITTEN
        if (idEnd !== ABSENT) p = copy(to, idEnd, shape.requestIdEnd)
      }
      return copy(to, p, shape.close)
    },
  }
}
