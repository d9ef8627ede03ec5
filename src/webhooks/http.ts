// The webhook HTTP client on undici (the HTTP/1.1 client Node's own fetch is built on), through its dispatcher
// interface, the cheapest it offers: keep-alive connections per origin and pool (a subscription), bounded in number,
// a wall-clock timeout per request. It signs each body: X-Signature is HMAC-SHA256 over the body bytes, keyed with
// the secret's UTF-8 bytes.
import { createHmac, createSecretKey, type KeyObject } from "node:crypto"
import { Agent, type Dispatcher } from "undici"
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
  /**
   * Requests of one pool share connections, and none of another pool's: the worker gives each subscription its own,
   * so a hanging receiver holds only its own connections, even beside another subscription on the same origin.
   */
  readonly pool?: string
}

export interface PostResult extends HttpOutcome {
  readonly body: string
}

export interface Transport {
  readonly post: (request: PostRequest, callback: (result: PostResult) => void) => void
  readonly close: () => void
}

export interface TransportOptions {
  /** Connections per origin and pool at most. */
  readonly maxSockets: number
  /** Requests one connection carries at once (default 1: a slow receiver then holds only its own connection). */
  readonly pipelining?: number
}

interface Target {
  readonly origin: string
  readonly path: string
  /** From credentials in the URL (`https://user:pass@host/…`). */
  readonly authorization: string | undefined
}

const errorText = (e: Error & { code?: string }) =>
  (typeof e.code === "string" && !e.message.includes(e.code) ? `${e.code}: ` : "") + e.message

const targetOf = (raw: string): Target => {
  const u = new URL(raw)
  if (u.protocol !== "http:" && u.protocol !== "https:") throw new TypeError(`not an http(s) URL: ${u.protocol}`)
  return {
    origin: u.origin,
    path: `${u.pathname || "/"}${u.search}`,
    authorization: u.username
      ? `Basic ${Buffer.from(`${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`).toString("base64")}`
      : undefined,
  }
}

/** Repeated lookups (targets by URL, HMAC keys by secret) kept, up to a bound. */
class Memo<V> {
  private readonly entries = new Map<string, V>()
  get(key: string, make: (key: string) => V): V {
    let v = this.entries.get(key)
    if (v === undefined) {
      if (this.entries.size >= 10_000) this.entries.clear()
      this.entries.set(key, (v = make(key)))
    }
    return v
  }
}

/** One request's answer: its status and the first `keep` bytes of its body; `finish` reports exactly once. */
class Exchange implements Dispatcher.DispatchHandler {
  private status: number | null = null
  private readonly kept: Array<Buffer> = []
  private keptBytes = 0
  private done = false
  private controller: Dispatcher.DispatchController | undefined
  private readonly timer: NodeJS.Timeout

  constructor(
    private readonly keep: number,
    private readonly t0: number,
    timeoutMs: number,
    private readonly callback: (result: PostResult) => void,
  ) {
    this.timer = setTimeout(() => {
      this.finish(`timeout after ${timeoutMs} ms`)
      this.controller?.abort(new Error("timed out"))
    }, timeoutMs)
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller
    if (this.done) controller.abort(new Error("timed out"))
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number): void {
    this.status = statusCode
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.keptBytes >= this.keep) return
    const part = chunk.subarray(0, this.keep - this.keptBytes)
    this.kept.push(part)
    this.keptBytes += part.length
  }

  onResponseEnd(): void {
    this.finish(null)
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    this.finish(errorText(error))
  }

  finish(error: string | null): void {
    if (this.done) return
    this.done = true
    clearTimeout(this.timer)
    this.callback({
      statusCode: error === null ? this.status : null,
      error,
      durationMs: Math.round((performance.now() - this.t0) * 10) / 10,
      body: error === null && this.kept.length > 0 ? Buffer.concat(this.kept).toString("utf8") : "",
    })
  }
}

/** Pools kept at most; past that the one used longest ago is closed (its requests in flight still finish). */
const MAX_POOLS = 1_000

class Client implements Transport {
  private closed = false
  /** An undici Agent per pool (its connections per origin), the one used last at the end. */
  private readonly agents = new Map<string, Agent>()
  private readonly targets = new Memo<Target>()
  private readonly keys = new Memo<KeyObject>()

  constructor(private readonly options: TransportOptions) {}

  private agentOf(pool: string): Agent {
    let agent = this.agents.get(pool)
    if (agent !== undefined) {
      this.agents.delete(pool)
      this.agents.set(pool, agent)
      return agent
    }
    if (this.agents.size >= MAX_POOLS) {
      const [oldest, old] = this.agents.entries().next().value as [string, Agent]
      this.agents.delete(oldest)
      void old.close().catch(() => {})
    }
    // One request at a time per connection: a slow receiver then holds only its own connection, not requests
    // queued behind it (pipelining would).
    agent = new Agent({ connections: this.options.maxSockets, pipelining: this.options.pipelining ?? 1, keepAliveTimeout: 4_000 })
    this.agents.set(pool, agent)
    return agent
  }

  readonly post = (r: PostRequest, callback: (result: PostResult) => void): void => {
    const t0 = performance.now()
    if (this.closed) return callback({ statusCode: null, error: "the webhook client is closed", durationMs: 0, body: "" })
    let target: Target
    try {
      target = this.targets.get(r.url, targetOf)
    } catch (e) {
      return callback({ statusCode: null, error: errorText(e as Error), durationMs: 0, body: "" })
    }
    const key = this.keys.get(r.secret, (s) => createSecretKey(Buffer.from(s, "utf8")))
    const headers: Record<string, string> = {
      "content-type": "application/json",
      "user-agent": "custody-sim-webhooks/1",
      "x-signature": createHmac("sha256", key).update(r.body, "utf8").digest(r.encoding),
    }
    if (target.authorization !== undefined) headers.authorization = target.authorization
    const exchange = new Exchange(r.keepBody ?? 0, t0, r.timeoutMs, callback)
    try {
      this.agentOf(r.pool ?? "").dispatch(
        { origin: target.origin, path: target.path, method: "POST", headers, body: r.body, headersTimeout: 0, bodyTimeout: 0 },
        exchange,
      )
    } catch (e) {
      exchange.finish(errorText(e as Error))
    }
  }

  readonly close = (): void => {
    this.closed = true
    for (const agent of this.agents.values()) void agent.destroy().catch(() => {})
    this.agents.clear()
  }
}

export const makeHttpTransport = (options: TransportOptions): Transport => new Client(options)

export const postOnce = (transport: Transport, request: PostRequest): Promise<PostResult> =>
  new Promise((resolve) => transport.post(request, resolve))
