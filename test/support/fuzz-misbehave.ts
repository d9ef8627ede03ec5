// The fuzz's misbehaving clients, over raw sockets: a body cut off and the connection dropped, a malformed chunk,
// a body sent in slow pieces. The first two get no answer (nobody is left to read one); the server must close a
// connection it cannot parse, and stay usable. Bounds here only bound a hang, which is then reported as one.
import type { Misbehaviour } from "./fuzz-requests.js"
import { openRaw, requestHead } from "./raw-socket.js"
import type { Answer, Call } from "./strict-http.js"

const HANG_MS = 20_000

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export class MisbehaviourHang extends Error {
  override readonly name = "MisbehaviourHang"
}

const within = <A>(p: Promise<A>, what: string): Promise<A> =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new MisbehaviourHang(`${what}: nothing within ${HANG_MS} ms`)), HANG_MS)
    p.then(
      (v) => (clearTimeout(timer), resolve(v)),
      (e: unknown) => (clearTimeout(timer), reject(e)),
    )
  })

/** Sends `call` misbehaving as told: the answer for a slow body, undefined when the client left or broke the framing. */
export const sendMisbehaving = async (origin: string, call: Call, how: Misbehaviour): Promise<Answer | undefined> => {
  const body = call.body ?? "{}"
  const c = await openRaw(origin)
  try {
    if (how === "bad-chunk") {
      c.write(requestHead(call.method, call.path, { ...call.headers, "transfer-encoding": "chunked" }))
      c.write(`${Math.min(5, body.length).toString(16)}\r\n${body.slice(0, 5)}\r\nzz-not-a-size\r\n`)
      await within(c.closed, `${call.method} ${call.path} with a malformed chunk: the server closing the connection`)
      return undefined
    }
    c.write(
      requestHead(call.method, call.path, {
        ...call.headers,
        "content-length": String(Buffer.byteLength(body) + (how === "abort" ? 7 : 0)),
        connection: "close",
      }),
    )
    if (how === "abort") {
      c.write(body.slice(0, body.length >> 1))
      await pause(2)
      return undefined
    }
    const third = Math.ceil(body.length / 3)
    for (let at = 0; at < body.length; at += third) {
      c.write(body.slice(at, at + third))
      await pause(15)
    }
    const a = await within(c.answer(), `${call.method} ${call.path} with a slow body: its answer`)
    return { status: a.status, headers: a.headers, text: a.body }
  } finally {
    c.kill()
  }
}
