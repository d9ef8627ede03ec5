// A client that misbehaves on purpose, over a raw TCP socket: it writes whatever bytes it is given (a body cut short,
// a malformed chunk), keeps a request open as long as it likes, or drops the connection mid-request.
import { connect, type Socket } from "node:net"

interface RawAnswer {
  readonly status: number
  readonly head: string
  /** Lower-cased names; a repeated header's values in an array. */
  readonly headers: Record<string, string | Array<string>>
  readonly body: string
}

const headersOf = (head: string): Record<string, string | Array<string>> => {
  const out: Record<string, string | Array<string>> = {}
  for (const line of head.split("\r\n").slice(1)) {
    const at = line.indexOf(":")
    if (at < 0) continue
    const name = line.slice(0, at).trim().toLowerCase()
    const value = line.slice(at + 1).trim()
    const had = out[name]
    out[name] = had === undefined ? value : Array.isArray(had) ? [...had, value] : [had, value]
  }
  return out
}

export interface RawConnection {
  readonly socket: Socket
  readonly write: (bytes: string | Buffer) => void
  /** The first answer's status line and body, once it has come whole (by its Content-Length) or the server closed. */
  readonly answer: () => Promise<RawAnswer>
  /** Resolves when the server closed its side (or the socket went away). */
  readonly closed: Promise<void>
  /** Drops the connection at once (a reset, as a client that died). */
  readonly kill: () => void
  /** Closes this side, as a client that is done. */
  readonly end: () => void
}

export const openRaw = (origin: string): Promise<RawConnection> =>
  new Promise((resolve, reject) => {
    const url = new URL(origin)
    const socket = connect(Number(url.port), url.hostname)
    let received = Buffer.alloc(0)
    const waiting: Array<() => void> = []
    const wake = () => {
      for (const w of waiting.splice(0)) w()
    }
    let ended = false
    const closed = new Promise<void>((done) =>
      socket.once("close", () => {
        ended = true
        wake()
        done()
      }),
    )
    socket.on("data", (chunk: Buffer) => {
      received = Buffer.concat([received, chunk])
      wake()
    })
    socket.on("error", () => {})
    const whole = (): RawAnswer | undefined => {
      const at = received.indexOf("\r\n\r\n")
      if (at < 0) return undefined
      const head = received.subarray(0, at).toString("latin1")
      const length = /\r\ncontent-length: *([0-9]+)/i.exec(head)?.[1]
      const body = received.subarray(at + 4)
      if (length !== undefined && body.length < Number(length)) return undefined
      return {
        status: Number(/^HTTP\/1\.1 ([0-9]{3})/.exec(head)?.[1] ?? NaN),
        head,
        headers: headersOf(head),
        body: body.subarray(0, length === undefined ? body.length : Number(length)).toString("utf8"),
      }
    }
    const answer = async () => {
      for (;;) {
        const got = whole()
        if (got !== undefined) return got
        if (ended)
          throw new Error(
            `the connection closed before a whole answer (${received.length} bytes: ${received.toString("latin1").slice(0, 120)})`,
          )
        await new Promise<void>((w) => waiting.push(w))
      }
    }
    socket.once("connect", () =>
      resolve({
        socket,
        write: (bytes) => void socket.write(bytes),
        answer,
        closed,
        kill: () => void socket.resetAndDestroy(),
        end: () => void socket.end(),
      }),
    )
    socket.once("error", reject)
  })

/** A request head (HTTP/1.1, Host set), headers as given, then the blank line. */
export const requestHead = (method: string, path: string, headers: Readonly<Record<string, string>>): string =>
  `${method} ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join("")}\r\n`
