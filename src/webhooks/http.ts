// The webhook HTTP client: signs and POSTs over keep-alive connections with a wall-clock timeout. It speaks the
// small part of HTTP/1.1 a webhook needs straight on sockets (answers are read by ./http-answer.ts): node:http
// costs about 4× the CPU per request and the global fetch about 20× (measured), and here that CPU is taken from
// the API, which shares the event loop. Requests started together are written together: on a connection that
// has answered quickly and kept alive, up to `pipelining` requests go out in one write (RFC 9112 §9.3.2), since
// a write to the loopback costs more than everything else a delivery does.
import { createHmac, createSecretKey, type KeyObject } from "node:crypto"
import net from "node:net"
import tls from "node:tls"
import type { HttpOutcome, SignatureEncoding } from "../domain/webhook/index.js"
import { Connection, type ConnectionOwner, type Exchange, type Job, type Pool, type Target } from "./http-connection.js"

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

export interface TransportOptions {
  /** Connections per origin at most. */
  readonly maxSockets: number
  /** Requests one connection carries at once (default 8; 1 never pipelines). */
  readonly pipelining?: number
}

const IDLE_MS = 4_000
/** Answers slower than this stop pipelining on the origin: a slow receiver would hold requests behind one another. */
const QUICK_MS = 50

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

class Client implements Transport, ConnectionOwner {
  closed = false
  private readonly targets = new Map<string, Target>()
  private readonly pools = new Map<string, Pool>()
  /** HMAC keys by secret, imported once. */
  private readonly keys = new Map<string, KeyObject>()
  private readonly maxSockets: number
  private readonly depth: number

  constructor(options: TransportOptions) {
    this.maxSockets = options.maxSockets
    this.depth = Math.max(1, options.pipelining ?? 8)
  }

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
    let key = this.keys.get(r.secret)
    if (key === undefined) {
      if (this.keys.size > 10_000) this.keys.clear()
      this.keys.set(r.secret, (key = createSecretKey(Buffer.from(r.secret, "utf8"))))
    }
    const signature = createHmac("sha256", key).update(r.body, "utf8").digest(r.encoding)
    const wire = `${target.head}Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(r.body)}\r\nUser-Agent: custody-sim-webhooks/1\r\nX-Signature: ${signature}\r\n\r\n${r.body}`
    this.run({ target, request: r, wire, t0, retried: false, callback })
  }

  readonly close = (): void => {
    this.closed = true
    for (const pool of this.pools.values()) for (const c of pool.all) c.destroy()
  }

  // A connection that keeps up takes the turn's requests up to the depth; then an idle one, then a new one; with
  // every socket open, the least busy connection that may pipeline; otherwise the request waits for a free one.
  run(job: Job): void {
    let pool = this.pools.get(job.target.origin)
    if (pool === undefined) this.pools.set(job.target.origin, (pool = { idle: [], all: new Set(), waiting: [], filling: undefined, lastMs: 0 }))
    const pipelining = this.depth > 1 && pool.lastMs < QUICK_MS
    const filling = pool.filling
    if (pipelining && filling !== undefined && !filling.closed && filling.queue.length < this.depth) return filling.send(job)
    let c = pool.idle.pop()
    while (c !== undefined && c.closed) c = pool.idle.pop()
    if (c === undefined && pool.all.size < this.maxSockets) c = this.connect(job.target, pool)
    if (c === undefined && pipelining) {
      for (const x of pool.all) if (x.proven && !x.closed && x.queue.length < this.depth && (c === undefined || x.queue.length < c.queue.length)) c = x
    }
    if (c === undefined) return void pool.waiting.push(job)
    if (pipelining && c.proven) pool.filling = c
    c.send(job)
  }

  finish(x: Exchange, statusCode: number | null, error: string | null): void {
    x.stop()
    const durationMs = Math.round((performance.now() - x.job.t0) * 10) / 10
    if (statusCode !== null) x.conn.pool.lastMs = durationMs
    x.job.callback({ statusCode, error, durationMs, body: x.reader.body() })
  }

  // A request on a kept-alive connection the server closed meanwhile, or queued behind one that failed, is sent
  // once more on another connection (Node's own advice for ECONNRESET on a reused socket); a duplicate carries
  // the same idempotency key.
  fail(x: Exchange, e: Error & { code?: string }): void {
    if (x.retryable && !x.reader.received && !x.job.retried && !this.closed && (e.code === "ECONNRESET" || e.code === "EPIPE")) {
      x.stop()
      return this.run({ ...x.job, retried: true })
    }
    this.finish(x, null, errorText(e))
  }

  release(c: Connection): void {
    const job = c.pool.waiting.shift()
    if (job !== undefined) return c.send(job)
    c.socket.setTimeout(IDLE_MS)
    c.pool.idle.push(c)
  }

  private connect(t: Target, pool: Pool): Connection {
    const socket = t.secure ? tls.connect({ host: t.host, port: t.port, ...(net.isIP(t.host) ? {} : { servername: t.host }) }) : net.connect(t.port, t.host)
    socket.setNoDelay(true)
    const c = new Connection(this, pool, socket)
    pool.all.add(c)
    socket.on("data", (d: Buffer) => c.data(d))
    socket.on("end", () => c.end())
    socket.on("timeout", () => c.queue.length === 0 && c.destroy())
    socket.on("error", (e) => c.lost(e))
    socket.on("close", () => {
      pool.all.delete(c)
      const i = pool.idle.indexOf(c)
      if (i >= 0) pool.idle.splice(i, 1)
      if (pool.filling === c) pool.filling = undefined
      c.lost(Object.assign(new Error("connection closed before the answer was complete"), { code: "ECONNRESET" }))
      const job = pool.waiting.shift()
      if (job !== undefined) this.run(job)
    })
    return c
  }
}

export const makeHttpTransport = (options: TransportOptions): Transport => new Client(options)

export const postOnce = (transport: Transport, request: PostRequest): Promise<PostResult> =>
  new Promise((resolve) => transport.post(request, resolve))
