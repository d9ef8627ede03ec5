// Reading a request's body. On @hono/node-server the bytes come straight off Node's IncomingMessage: c.req.text()
// would first build a WHATWG Request, a ReadableStream over the socket and an AbortSignal, about a fifth of the
// server's CPU for a small signed POST. Elsewhere (app.request, in-process fetch) the standard way.
import type { IncomingMessage } from "node:http"
import type { Context } from "hono"

/** Stands for a body past the limit (a symbol: any string may be a body). */
export const TOO_LARGE: unique symbol = Symbol("request body too large")

/**
 * The body as text (UTF-8), or TOO_LARGE once it passes `limit` bytes. A leading byte order mark is kept (unlike
 * Request.text()): the signature check says when a refused body began with one (src/protocol/signing.ts drops it).
 */
export type BodyText = string | typeof TOO_LARGE

const decoder = new TextDecoder("utf-8", { ignoreBOM: true })

/** Bodies read off each request, for the request log to show what a refused signature covered. */
const bodies = new WeakMap<IncomingMessage, string>()
export const bodyTextOf = (incoming: IncomingMessage): string | undefined => bodies.get(incoming)

/** The client went away before its body ended (a reset, a closed connection, a malformed chunk). */
class BodyCutOff extends Error {
  override readonly name = "BodyCutOff"
}

/**
 * Settles on every way a body can end: its last byte, its limit, an error, or the request closing first (the
 * connection dropped, the parser refused a chunk). A request already dead when the reader comes (the client left
 * while it waited, say on x-sim-min-position) is refused at once: it will send nothing more.
 */
const fromIncoming = (incoming: IncomingMessage, limit: number): Promise<BodyText> =>
  new Promise((resolve, reject) => {
    if (incoming.destroyed || incoming.readableAborted) return reject(new BodyCutOff("the request was closed before its body was read"))
    const chunks: Array<Buffer> = []
    let size = 0
    let tooLarge = false
    incoming.on("data", (chunk: Buffer) => {
      if (tooLarge) return
      size += chunk.length
      if (size <= limit) return void chunks.push(chunk)
      // Answered at once; the rest is read and dropped, so the connection stays usable.
      tooLarge = true
      chunks.length = 0
      resolve(TOO_LARGE)
    })
    let ended = false
    incoming.on("end", () => {
      ended = true
      if (tooLarge) return resolve(TOO_LARGE)
      const text = decoder.decode(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size))
      bodies.set(incoming, text)
      resolve(text)
    })
    incoming.on("error", reject)
    // After "end" when the body came whole (the promise is settled by then: no error is built, a stack costs every
    // request); before it, only when it was cut off.
    incoming.on("close", () => {
      if (!ended && !tooLarge) reject(new BodyCutOff("the request closed before its body ended"))
    })
  })

export const readBodyText = (c: Context, limit: number): Promise<BodyText> => {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming
  // Untouched so far (no listener, not ended): nothing else has read from it.
  if (incoming !== undefined && typeof incoming.on === "function" && !incoming.readableEnded && incoming.readableFlowing === null)
    return fromIncoming(incoming, limit)
  return c.req.arrayBuffer().then((bytes) => (bytes.byteLength > limit ? TOO_LARGE : decoder.decode(bytes)))
}

/** The client went away before its body ended (a reset or closed connection): worth one quiet line, not a stack. */
export const requestAborted = (c: Context): boolean => {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming
  return (
    incoming !== undefined &&
    (incoming.readableAborted === true ||
      (incoming as { aborted?: boolean }).aborted === true ||
      (incoming.destroyed && !incoming.complete))
  )
}
