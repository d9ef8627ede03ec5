// The app as a Node request listener (@hono/node-server's), with one change: how a connection ends when the answer
// goes out before the request's body has all arrived (a 413 on its Content-Length, a 401, 403 or 409 decided on the
// headers, a 413 part-way through a chunked body).
//
// @hono/node-server reads such a body for 500 ms after the answer, then closes the socket. A client still sending
// then (a body of a few MiB, a slow link, a loaded machine) writes into a closed socket: its kernel answers with a
// reset, which throws away the answer it had not read yet, and the client sees ECONNRESET or EPIPE instead of the
// 413. Here the rest of the body is read and dropped (the connection stays usable, as after any answer) while it
// keeps coming, within bounds of bytes and time; past them the server closes in stages (RFC 9112 §9.6): it ends its
// side after the answer, keeps reading until the client ends its own or a short linger is over, and only then
// closes the socket.
import type { IncomingMessage, ServerResponse } from "node:http"
import { getRequestListener } from "@hono/node-server"

export interface DrainBounds {
  /** The most bytes of a body read and dropped after the answer. */
  readonly bytes: number
  /** How long the rest of the body may pause before the server closes. */
  readonly idleMs: number
  /** How long, in all, the rest of the body is read after the answer. */
  readonly totalMs: number
  /** After the server ended its side: how long it still reads, for the client to read the answer and end its own. */
  readonly lingerMs: number
}

const DEFAULT_DRAIN: DrainBounds = { bytes: 64 * 1024 * 1024, idleMs: 3_000, totalMs: 60_000, lingerMs: 2_000 }

type FetchCallback = Parameters<typeof getRequestListener>[0]

/** Ends the server's side after what was written, reads until the client ends its own, closes after `lingerMs` anyway. */
const closeInStages = (incoming: IncomingMessage, lingerMs: number): void => {
  const socket = incoming.socket
  if (socket.destroyed) return
  const timer = setTimeout(() => socket.destroy(), lingerMs)
  timer.unref()
  socket.once("close", () => clearTimeout(timer))
  socket.end()
  incoming.resume()
}

/** The rest of a body whose answer is out: read and dropped while it keeps coming within `bounds`. */
const drainRest = (incoming: IncomingMessage, bounds: DrainBounds): void => {
  let read = 0
  const stop = (close: boolean) => {
    clearTimeout(idle)
    clearTimeout(total)
    incoming.off("data", onData)
    if (close) closeInStages(incoming, bounds.lingerMs)
  }
  const onData = (chunk: Buffer) => {
    read += chunk.length
    if (read > bounds.bytes) stop(true)
    else idle.refresh()
  }
  const idle = setTimeout(() => stop(true), bounds.idleMs)
  const total = setTimeout(() => stop(true), bounds.totalMs)
  idle.unref()
  total.unref()
  incoming.on("data", onData)
  incoming.once("end", () => stop(false))
  incoming.once("close", () => stop(false))
  incoming.resume()
}

/** The request listener for `http.createServer`: the app's answers, and a body still arriving drained as above. */
export const nodeListener = (
  fetch: FetchCallback,
  options: { readonly hostname?: string; readonly drain?: DrainBounds } = {},
): ((incoming: IncomingMessage, outgoing: ServerResponse) => Promise<void>) => {
  const bounds = options.drain ?? DEFAULT_DRAIN
  // autoCleanupIncoming: false turns off @hono/node-server's own drain (500 ms, then the socket closed).
  const listener = getRequestListener(fetch, {
    ...(options.hostname !== undefined ? { hostname: options.hostname } : {}),
    autoCleanupIncoming: false,
  })
  return (incoming, outgoing) => {
    outgoing.once("finish", () => {
      if (!incoming.complete && !incoming.destroyed) drainRest(incoming, bounds)
    })
    return listener(incoming, outgoing)
  }
}
