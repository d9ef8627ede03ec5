// `serve` binds its port before it opens the store and starts the simulator (a busy port fails before anything is
// written), so a client can connect, and send, before there is anything to answer with. Those requests wait: each
// is handed to the simulator's listener once it is ready, in the order they came, or answered 503 when the start
// fails. Every connection accepted is answered.
import type { IncomingMessage, RequestListener, Server, ServerResponse } from "node:http"

interface EarlyRequests {
  /** Serves the requests held, then every later one, with the listener (installed on the server itself). */
  readonly ready: (listener: RequestListener) => void
  /** Answers the requests held, and any that still come before the server closes, 503. */
  readonly failed: () => void
}

const unavailable = (res: ServerResponse) => {
  if (res.headersSent || res.destroyed) return
  const body = JSON.stringify({ error: { code: "service_unavailable", message: "The simulator failed to start; see its output." } })
  res.writeHead(503, { "content-type": "application/json", "content-length": Buffer.byteLength(body), connection: "close" }).end(body)
}

export const holdEarlyRequests = (server: Server): EarlyRequests => {
  const held: Array<readonly [IncomingMessage, ServerResponse]> = []
  let failed = false
  const hold: RequestListener = (req, res) => {
    if (failed) unavailable(res)
    else held.push([req, res])
  }
  server.on("request", hold)
  return {
    ready: (listener) => {
      // The listener is the server's own from now on: no indirection on the path of every later request.
      server.off("request", hold)
      server.on("request", listener)
      for (const [req, res] of held.splice(0)) void listener(req, res)
    },
    failed: () => {
      failed = true
      for (const [, res] of held.splice(0)) unavailable(res)
    },
  }
}
