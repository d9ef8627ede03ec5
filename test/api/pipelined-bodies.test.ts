// Framing of pipelined keep-alive requests over a raw socket: a GET carrying a chunked body, followed at once by a
// second request on the same connection, gets its answer and so does the second, and the connection stays open —
// whether the body comes with the head or after it, is small or large, and whether the first answer is written at
// once (401), by a cached read or after a wait (x-sim-min-position), both as the tests serve and as `serve` does
// (node:http with the request log's response class), with chunk extensions, trailers and a body in pauses.
import { createServer, type Server } from "node:http"
import net, { type AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createApp } from "../../src/api/app.js"
import { nodeListener } from "../../src/api/node-listener.js"
import type { Credentials } from "../../src/client/index.js"
import { signRequest } from "../../src/client/signing.js"
import { loggedResponse } from "../../src/cli/request-log.js"
import { createKey, startHarness, type Harness } from "../support/harness.js"
import { listen } from "../support/server.js"

let h: Harness
let creds: Credentials
const ports: Record<string, number> = {}
const closers: Array<() => Promise<void>> = []

beforeAll(async () => {
  h = await startHarness()
  creds = await createKey(h, { apiVersion: "2024-05-09" })
  const app = createApp(h.sim, { log: { error: () => {}, info: () => {} } })
  const plain = await listen(app)
  closers.push(plain.close)
  ports.plain = Number(new URL(plain.url).port)
  const logged: Server = createServer({ ServerResponse: loggedResponse({ format: "text", write: () => {} }) }, nodeListener(app.fetch))
  await new Promise<void>((resolve) => logged.listen(0, "127.0.0.1", resolve))
  closers.push(() => new Promise<void>((resolve) => logged.close(() => resolve())))
  ports.logged = (logged.address() as AddressInfo).port
})
afterAll(async () => {
  for (const close of closers) await close()
  await h.close()
})

const signedHead = (path: string, extra = "") =>
  `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${Object.entries(signRequest(creds, { method: "GET", url: path, body: "" }))
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join("")}${extra}`
const chunked = (body: string) => `Transfer-Encoding: chunked\r\n\r\n${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`

/** Statuses of the answers read off one connection, and whether the server closed or reset it. */
const exchange = (
  port: number,
  parts: ReadonlyArray<string>,
  answers: number,
): Promise<{ statuses: Array<number>; complete: boolean; closed: boolean; error?: string }> =>
  new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1")
    let text = ""
    let settled = false
    const statuses = () => [...text.matchAll(/HTTP\/1\.1 ([0-9]{3})/g)].map((m) => Number(m[1]))
    // Only bounds a hang: a correct server answers both long before.
    const bound = setTimeout(() => finish(false, false), 20_000)
    const finish = (complete: boolean, closed: boolean, error?: string) => {
      if (settled) return
      settled = true
      clearTimeout(bound)
      socket.destroy()
      resolve({ statuses: statuses(), complete, closed, ...(error !== undefined ? { error } : {}) })
    }
    socket.on("data", (d) => {
      text += d.toString("latin1")
      // Both answers complete: each is a head and a Content-Length body.
      const heads = [...text.matchAll(/Content-Length: ([0-9]+)\r\n(?:.*\r\n)*?\r\n/gi)]
      const last = heads[answers - 1]
      if (last !== undefined && text.length >= last.index! + last[0].length + Number(last[1])) finish(true, false)
    })
    socket.on("error", (e) => finish(false, true, e.message))
    socket.on("close", () => finish(false, true))
    void (async () => {
      for (const part of parts) {
        if (part === "pause") await new Promise((r) => setTimeout(r, 50))
        else socket.write(part)
      }
    })()
  })

const second = () => signedHead("/vaults") + "\r\n"
const cases: ReadonlyArray<[string, () => ReadonlyArray<string>, number]> = [
  ["a signed read, body with the head", () => [signedHead("/vaults") + chunked("hello") + second()], 200],
  [
    "a signed read, body after the head",
    () => [signedHead("/vaults") + "Transfer-Encoding: chunked\r\n\r\n", "pause", "5\r\nhello\r\n0\r\n\r\n" + second()],
    200,
  ],
  ["a signed read, a 100 kB body", () => [signedHead("/vaults") + chunked("x".repeat(100_000)) + second()], 200],
  ["a read waiting on x-sim-min-position", () => [signedHead("/vaults", "x-sim-min-position: 1\r\n") + chunked("{}") + second()], 200],
  [
    "a signed read, a chunk extension",
    () => [signedHead("/vaults") + "Transfer-Encoding: chunked\r\n\r\n2;ext=1\r\n{}\r\n0\r\n\r\n" + second()],
    200,
  ],
  [
    "a signed read, a trailer",
    () => [signedHead("/vaults") + "Transfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\nX-Trailer: 1\r\n\r\n" + second()],
    200,
  ],
  [
    "a signed read, 600 kB in two chunks, the second after a pause",
    () => [
      signedHead("/vaults") + "Transfer-Encoding: chunked\r\n\r\n",
      `${(300_000).toString(16)}\r\n${"x".repeat(300_000)}\r\n`,
      "pause",
      `${(300_000).toString(16)}\r\n${"x".repeat(300_000)}\r\n0\r\n\r\n` + second(),
    ],
    200,
  ],
  [
    "an unsigned request answered at once",
    () => ["GET /vaults HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\n" + chunked("hello") + second()],
    401,
  ],
]

describe.each(["plain", "logged"])("a chunked GET followed at once by a second request (%s server)", (server) => {
  it.each(cases)("%s: both answered, the connection kept", async (_name, parts, firstStatus) => {
    const r = await exchange(ports[server]!, parts(), 2)
    expect(r).toEqual({ statuses: [firstStatus, 200], complete: true, closed: false })
  })
})
