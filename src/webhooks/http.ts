// The webhook HTTP client: signs and POSTs over keep-alive connections with a wall-clock timeout. It speaks the
// small part of HTTP/1.1 a webhook needs (one request per connection at a time; Content-Length, chunked or
// close-delimited answers) straight on sockets: node:http costs about 4× the CPU per request and the global
// fetch about 20× (measured), and here that CPU is taken from the API, which shares the event loop.
import { createHmac } from "node:crypto"
import net from "node:net"
import tls from "node:tls"
import type { HttpOutcome, SignatureEncoding } from "../domain/webhook/index.js"

export interface PostRequest {
  readonly url: string
  /** Signed here: X-Signature is HMAC-SHA256 over these bytes, keyed with the secret's UTF-8 bytes. */
  readonly body: string
  readonly secret: string
  readonly encoding: SignatureEncoding
  readonly timeoutMs: number
  /** Keep up to this many bytes of the answer (the verification handshake reads it); 0 keeps none. */
  readonly keepBody?: number
}

export interface PostResult extends HttpOutcome {
  readonly body: string
}

export interface Transport {
  readonly post: (request: PostRequest, callback: (result: PostResult) => void) => void
  readonly close: () => void
}

interface Target {
  readonly secure: boolean
  readonly host: string
  readonly port: number
  readonly origin: string
  /** Request line, Host and (from URL credentials) Authorization. */
  readonly head: string
}

interface Connection {
  readonly socket: net.Socket
  exchange: Exchange | null
}

type Mode = "head" | "length" | "close" | "size" | "chunk" | "trailer" | "done"

interface Pool {
  readonly idle: Array<Connection>
  open: number
  readonly waiting: Array<() => void>
}

const CRLF2 = Buffer.from("\r\n\r\n")
const CRLF = Buffer.from("\r\n")
const IDLE_MS = 4_000
const MAX_HEAD = 65_536

const errorText = (e: Error & { code?: string }) => (typeof e.code === "string" && !e.message.includes(e.code) ? `${e.code}: ` : "") + e.message

const targetOf = (raw: string): Target => {
  const u = new URL(raw)
  const secure = u.protocol === "https:"
  const auth = u.username ? `Authorization: Basic ${Buffer.from(`${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`).toString("base64")}\r\n` : ""
  return {
    secure,
    host: u.hostname.startsWith("[") ? u.hostname.slice(1, -1) : u.hostname,
    port: Number(u.port) || (secure ? 443 : 80),
    origin: `${u.protocol}//${u.host}`,
    head: `POST ${u.pathname || "/"}${u.search} HTTP/1.1\r\nHost: ${u.host}\r\n${auth}`,
  }
}

/** Answer framing, from the head: how the body ends, and whether the connection may be reused. */
const framing = (lines: ReadonlyArray<string>, status: number, minor: string) => {
  let length = -1
  let chunked = false
  let connection = ""
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(":")
    const name = line.slice(0, colon).trim().toLowerCase()
    const value = line.slice(colon + 1).trim().toLowerCase()
    if (name === "content-length") length = Number(value)
    else if (name === "transfer-encoding") chunked = value.split(",").some((x) => x.trim() === "chunked")
    else if (name === "connection") connection = value
  }
  const keepAlive = minor === "1" ? connection !== "close" : connection === "keep-alive"
  if (status === 204 || status === 304) return { mode: "done" as const, length: 0, keepAlive }
  if (chunked) return { mode: "size" as const, length: 0, keepAlive }
  if (length >= 0 && Number.isSafeInteger(length)) return { mode: "length" as const, length, keepAlive }
  return { mode: "close" as const, length: 0, keepAlive: false }
}

/**
 * One request and its answer on one connection (a class rather than closures: this runs per delivery, and a
 * dev loader's per-closure bookkeeping showed up in profiles).
 */
class Exchange {
  private buf: Buffer = Buffer.alloc(0)
  private status = 0
  private keepAlive = true
  private mode: Mode = "head"
  private remaining = 0
  private received = false
  private settled = false
  private readonly kept: Array<Buffer> = []
  private keptBytes = 0
  private readonly timer: ReturnType<typeof setTimeout>

  constructor(
    private readonly client: Client,
    private readonly conn: Connection,
    private readonly pool: Pool,
    private readonly reused: boolean,
    private readonly job: Job,
  ) {
    conn.exchange = this
    conn.socket.setTimeout(0)
    this.timer = setTimeout(timedOut, job.request.timeoutMs, this)
    conn.socket.write(job.wire)
  }

  timeout(): void {
    this.fail(new Error(`timeout after ${this.job.request.timeoutMs} ms`))
    this.conn.socket.destroy()
  }

  data(d: Buffer): void {
    this.received = true
    this.buf = this.buf.length === 0 ? d : Buffer.concat([this.buf, d])
    this.parse()
  }

  end(): void {
    if (this.mode === "close") this.settle(this.status, null)
    else this.fail(Object.assign(new Error("connection closed before the answer was complete"), { code: this.received ? "EPROTO" : "ECONNRESET" }))
  }

  // A kept-alive connection the server closed meanwhile is retried once on a new one (Node's own advice for
  // ECONNRESET on a reused socket); a duplicate carries the same idempotency key.
  fail(e: Error & { code?: string }): void {
    if (this.settled) return
    if (this.reused && !this.received && !this.job.retried && (e.code === "ECONNRESET" || e.code === "EPIPE")) {
      this.detach()
      this.conn.socket.destroy()
      return this.client.run({ ...this.job, retried: true })
    }
    this.settle(null, errorText(e))
  }

  private detach(): void {
    this.settled = true
    clearTimeout(this.timer)
    this.conn.exchange = null
  }

  private settle(statusCode: number | null, error: string | null): void {
    if (this.settled) return
    this.detach()
    if (error === null && this.keepAlive && this.buf.length === 0 && !this.client.closed) {
      this.conn.socket.setTimeout(IDLE_MS)
      this.pool.idle.push(this.conn)
      this.pool.waiting.shift()?.()
    } else this.conn.socket.destroy()
    const body = this.kept.length === 0 ? "" : Buffer.concat(this.kept).toString("utf8")
    this.job.callback({ statusCode, error, durationMs: Math.round((performance.now() - this.job.t0) * 10) / 10, body })
  }

  private keep(b: Buffer): void {
    const limit = this.job.request.keepBody ?? 0
    if (this.keptBytes >= limit || b.length === 0) return
    const part = b.subarray(0, limit - this.keptBytes)
    this.kept.push(part)
    this.keptBytes += part.length
  }

  private parse(): void {
    for (;;) {
      if (this.mode === "head") {
        const i = this.buf.indexOf(CRLF2)
        if (i < 0) return this.buf.length > MAX_HEAD ? this.fail(new Error("answer head too large")) : undefined
        const lines = this.buf.toString("latin1", 0, i).split("\r\n")
        this.buf = this.buf.subarray(i + 4)
        const m = /^HTTP\/1\.([01]) (\d{3})/.exec(lines[0] ?? "")
        if (m === null) return this.fail(new Error(`malformed answer: ${JSON.stringify((lines[0] ?? "").slice(0, 80))}`))
        this.status = Number(m[2])
        if (this.status >= 100 && this.status < 200) continue
        const f = framing(lines, this.status, m[1]!)
        this.mode = f.mode
        this.remaining = f.length
        this.keepAlive = f.keepAlive
      }
      if (this.mode === "length") {
        const n = Math.min(this.remaining, this.buf.length)
        this.keep(this.buf.subarray(0, n))
        this.buf = this.buf.subarray(n)
        this.remaining -= n
        if (this.remaining > 0) return
        this.mode = "done"
      }
      if (this.mode === "close") {
        this.keep(this.buf)
        this.buf = this.buf.subarray(this.buf.length)
        return
      }
      while (this.mode === "size" || this.mode === "chunk" || this.mode === "trailer") {
        if (this.mode === "chunk") {
          if (this.buf.length < this.remaining + 2) return
          this.keep(this.buf.subarray(0, this.remaining))
          this.buf = this.buf.subarray(this.remaining + 2)
          this.mode = "size"
          continue
        }
        const i = this.buf.indexOf(CRLF)
        if (i < 0) return
        if (this.mode === "size") {
          this.remaining = parseInt(this.buf.toString("latin1", 0, i).split(";")[0]!, 16)
          if (!Number.isSafeInteger(this.remaining) || this.remaining < 0) return this.fail(new Error("malformed chunked answer"))
          this.mode = this.remaining === 0 ? "trailer" : "chunk"
        } else if (i === 0) this.mode = "done"
        this.buf = this.buf.subarray(i + 2)
      }
      if (this.mode === "done") return this.settle(this.status, null)
    }
  }
}

const timedOut = (x: Exchange) => x.timeout()

interface Job {
  readonly target: Target
  readonly request: PostRequest
  readonly wire: string
  readonly t0: number
  readonly retried: boolean
  readonly callback: (result: PostResult) => void
}

class Client implements Transport {
  closed = false
  private readonly targets = new Map<string, Target>()
  private readonly pools = new Map<string, Pool>()
  private readonly open = new Set<net.Socket>()

  constructor(private readonly maxSockets: number) {}

  readonly post = (r: PostRequest, callback: (result: PostResult) => void): void => {
    const t0 = performance.now()
    let target = this.targets.get(r.url)
    if (target === undefined) {
      try {
        target = targetOf(r.url)
      } catch (e) {
        return callback({ statusCode: null, error: errorText(e as Error), durationMs: 0, body: "" })
      }
      if (this.targets.size > 10_000) this.targets.clear()
      this.targets.set(r.url, target)
    }
    const signature = createHmac("sha256", Buffer.from(r.secret, "utf8")).update(r.body, "utf8").digest(r.encoding)
    const wire = `${target.head}Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(r.body)}\r\nUser-Agent: custody-sim-webhooks/1\r\nX-Signature: ${signature}\r\n\r\n${r.body}`
    this.run({ target, request: r, wire, t0, retried: false, callback })
  }

  run(job: Job): void {
    let pool = this.pools.get(job.target.origin)
    if (pool === undefined) this.pools.set(job.target.origin, (pool = { idle: [], open: 0, waiting: [] }))
    const idle = pool.idle.pop()
    if (idle !== undefined) return void new Exchange(this, idle, pool, true, job)
    if (pool.open >= this.maxSockets) return void pool.waiting.push(() => this.run(job))
    new Exchange(this, this.connect(job.target, pool), pool, false, job)
  }

  readonly close = (): void => {
    this.closed = true
    for (const s of this.open) s.destroy()
  }

  private connect(t: Target, pool: Pool): Connection {
    const socket = t.secure ? tls.connect({ host: t.host, port: t.port, ...(net.isIP(t.host) ? {} : { servername: t.host }) }) : net.connect(t.port, t.host)
    socket.setNoDelay(true)
    const c: Connection = { socket, exchange: null }
    pool.open++
    this.open.add(socket)
    socket.on("data", (d: Buffer) => (c.exchange ? c.exchange.data(d) : socket.destroy()))
    socket.on("end", () => (c.exchange ? c.exchange.end() : socket.destroy()))
    socket.on("timeout", () => c.exchange === null && socket.destroy())
    socket.on("error", (e) => c.exchange?.fail(e))
    socket.on("close", () => {
      this.open.delete(socket)
      pool.open--
      const i = pool.idle.indexOf(c)
      if (i >= 0) pool.idle.splice(i, 1)
      c.exchange?.fail(Object.assign(new Error("connection closed before the answer was complete"), { code: "ECONNRESET" }))
      pool.waiting.shift()?.()
    })
    return c
  }
}

export const makeHttpTransport = (options: { readonly maxSockets: number }): Transport => new Client(options.maxSockets)

export const postOnce = (transport: Transport, request: PostRequest): Promise<PostResult> =>
  new Promise((resolve) => transport.post(request, resolve))
