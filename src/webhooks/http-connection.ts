// One connection of the webhook HTTP client and the requests it carries: written together when started together,
// answered in order (./http-answer.ts reads each answer), failed together when the socket goes.
import type net from "node:net"
import type { PostRequest, PostResult } from "./http.js"
import { AnswerReader } from "./http-answer.js"

export interface Target {
  readonly secure: boolean
  readonly host: string
  readonly port: number
  readonly origin: string
  /** Request line, Host and (from URL credentials) Authorization. */
  readonly head: string
}

export interface Job {
  readonly target: Target
  readonly request: PostRequest
  readonly wire: string
  readonly t0: number
  readonly retried: boolean
  readonly callback: (result: PostResult) => void
}

export interface Pool {
  readonly idle: Array<Connection>
  readonly all: Set<Connection>
  readonly waiting: Array<Job>
  /** The connection taking this turn's requests, written when the turn ends. */
  filling: Connection | undefined
  /** Duration of the last answer, ms: pipelining only while answers come quickly. */
  lastMs: number
}

/** What a connection reports to the client that owns it. */
export interface ConnectionOwner {
  readonly closed: boolean
  readonly finish: (x: Exchange, statusCode: number | null, error: string | null) => void
  /** Fails the request, or sends it once more when the failure allows it. */
  readonly fail: (x: Exchange, e: Error & { code?: string }) => void
  /** The connection has nothing in flight: give it waiting work or keep it idle. */
  readonly release: (c: Connection) => void
}

/** One request on a connection, waiting for its answer (a class rather than closures: this runs per delivery). */
export class Exchange {
  readonly reader: AnswerReader
  private readonly timer: ReturnType<typeof setTimeout>

  /** `retryable`: sent on a connection that may have been closed meanwhile, or behind another request. */
  constructor(
    readonly conn: Connection,
    readonly job: Job,
    readonly retryable: boolean,
  ) {
    this.reader = new AnswerReader(job.request.keepBody ?? 0)
    this.timer = setTimeout(timedOut, job.request.timeoutMs, this)
  }

  timeout(): void {
    this.conn.drop(this)
    this.conn.client.finish(this, null, `timeout after ${this.job.request.timeoutMs} ms`)
    this.conn.destroy()
  }

  stop(): void {
    clearTimeout(this.timer)
  }
}

const timedOut = (x: Exchange) => x.timeout()

/** A socket and the requests it carries, answered in order. */
export class Connection {
  readonly queue: Array<Exchange> = []
  private buf: Buffer = Buffer.alloc(0)
  private out = ""
  /** Answered once and kept alive: may carry pipelined requests, and a request sent on it may meet a closed socket. */
  proven = false
  closed = false

  constructor(
    readonly client: ConnectionOwner,
    readonly pool: Pool,
    readonly socket: net.Socket,
  ) {}

  send(job: Job): void {
    if (this.queue.length === 0) this.socket.setTimeout(0)
    this.queue.push(new Exchange(this, job, this.proven || this.queue.length > 0))
    if (this.out.length === 0) queueMicrotask(() => this.flush())
    this.out += job.wire
  }

  flush(): void {
    if (this.pool.filling === this) this.pool.filling = undefined
    if (this.out.length === 0 || this.closed) return
    this.socket.write(this.out)
    this.out = ""
  }

  data(d: Buffer): void {
    this.buf = this.buf.length === 0 ? d : Buffer.concat([this.buf, d])
    for (;;) {
      const x = this.queue[0]
      if (x === undefined) return this.destroy()
      this.buf = x.reader.read(this.buf)
      if (x.reader.error !== null) {
        this.queue.shift()
        this.client.finish(x, null, x.reader.error)
        return this.destroy()
      }
      if (!x.reader.done) return
      this.answered(x)
      if (this.closed || this.buf.length === 0) return
    }
  }

  end(): void {
    const x = this.queue[0]
    if (x !== undefined && x.reader.closeDelimited) {
      this.queue.shift()
      this.client.finish(x, x.reader.status, null)
    }
    this.destroy()
  }

  /** Every request still waiting fails: closed before its answer was complete. */
  lost(e: Error & { code?: string }): void {
    this.closed = true
    for (const x of this.queue.splice(0)) this.client.fail(x, x.reader.received && e.code === "ECONNRESET" ? Object.assign(new Error(e.message), { code: "EPROTO" }) : e)
  }

  drop(x: Exchange): void {
    const i = this.queue.indexOf(x)
    if (i >= 0) this.queue.splice(i, 1)
  }

  destroy(): void {
    this.closed = true
    this.socket.destroy()
  }

  private answered(x: Exchange): void {
    this.queue.shift()
    const reusable = x.reader.keepAlive && !this.client.closed
    this.proven ||= reusable
    this.client.finish(x, x.reader.status, null)
    if (!reusable) return this.destroy()
    if (this.queue.length === 0 && this.buf.length === 0) this.client.release(this)
  }
}

