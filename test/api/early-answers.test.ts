// An answer that goes out before the request's body has all arrived (a 413 on the Content-Length or part-way through
// a chunked body, a 415 decided on the headers, an import's 409 before its log is read) reaches a client that reads
// only once it has sent its whole body, as many simple clients do: the server reads and drops the rest instead of
// closing under the client's feet, which made the client's kernel throw the answer away on the reset. Bounded: a
// body that stops, or goes on past the bounds, ends the connection in stages, the answer first. The pauses only
// spread a body over more than the half second after which the connection used to be closed; the time bounds only
// bound a hang.
import { connect } from "node:net"
import { Readable } from "node:stream"
import { setTimeout as sleep } from "node:timers/promises"
import { request } from "undici"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createApp } from "../../src/api/app.js"
import { signRequest } from "../../src/client/signing.js"
import { startHarness, type Harness } from "../support/harness.js"
import { openRaw, requestHead } from "../support/raw-socket.js"
import { listen } from "../support/server.js"

const LIMIT = 1024 * 1024
const HANG_MS = 20_000

let h: Harness
let server: { url: string; close: () => Promise<void> }
beforeAll(async () => {
  h = await startHarness()
  server = await listen(createApp(h.sim, { authFailureLimit: false }))
})
afterAll(async () => {
  await server?.close()
  await h?.close()
})

const accountPath = () => `/vaults/${h.testVaultId}/vault-account`
const port = (url: string) => Number(new URL(url).port)

interface Outcome {
  readonly status: number
  readonly body: string
  /** The error the socket met while the body was sent (EPIPE, ECONNRESET), if any. */
  readonly error: string | undefined
}

/**
 * Sends `head`, then `pieces` pieces of `pieceSize` bytes with a pause after each, reading nothing until all is
 * sent; then reads the answer (whole by its Content-Length, or whatever came before the server closed).
 */
const sendThenRead = (url: string, head: string, piece: (i: number) => Buffer, pieces: number, pauseMs: number): Promise<Outcome> =>
  new Promise((resolve, reject) => {
    const socket = connect(port(url), "127.0.0.1")
    socket.pause()
    let received = Buffer.alloc(0)
    let error: string | undefined
    const timer = setTimeout(() => reject(new Error(`no answer within ${HANG_MS} ms`)), HANG_MS)
    const settle = () => {
      clearTimeout(timer)
      const text = received.toString("latin1")
      const at = text.indexOf("\r\n\r\n")
      socket.destroy()
      resolve({ status: Number(/^HTTP\/1\.1 ([0-9]{3})/.exec(text)?.[1] ?? 0), body: at < 0 ? "" : text.slice(at + 4), error })
    }
    const whole = () => {
      const text = received.toString("latin1")
      const at = text.indexOf("\r\n\r\n")
      const length = /\r\ncontent-length: *([0-9]+)/i.exec(text.slice(0, Math.max(at, 0)))?.[1]
      return at >= 0 && length !== undefined && received.length - (at + 4) >= Number(length)
    }
    socket.on("error", (e: NodeJS.ErrnoException) => void (error ??= e.code ?? e.message))
    socket.on("close", settle)
    socket.once("connect", async () => {
      const write = (bytes: string | Buffer) => new Promise<void>((done) => socket.write(bytes, () => done()))
      await write(head)
      for (let i = 0; i < pieces && !socket.destroyed; i++) {
        await write(piece(i))
        await sleep(pauseMs)
      }
      socket.on("data", (chunk: Buffer) => {
        received = Buffer.concat([received, chunk])
        if (whole()) settle()
      })
      socket.resume()
    })
  })

const errorCode = (body: string): string | undefined => {
  try {
    return (JSON.parse(body) as { error?: { code?: string } }).error?.code
  } catch {
    return undefined
  }
}

const signedRead = async () => {
  const res = await request(`${server.url}/vaults`, {
    headers: { ...signRequest(h.creds, { method: "GET", url: "/vaults", body: "" }), "content-type": "application/json" },
  })
  await res.body.text()
  return res.statusCode
}

describe("an answer before the body has all arrived", () => {
  const PIECE = 128 * 1024
  const spaces = () => Buffer.alloc(PIECE, 0x20)

  it("a 413 on the Content-Length reaches six clients at once that send 4 MiB slowly and read only then", async () => {
    const head = requestHead("POST", accountPath(), { "content-type": "application/json", "content-length": String(32 * PIECE) })
    const outcomes = await Promise.all(Array.from({ length: 6 }, () => sendThenRead(server.url, head, spaces, 32, 60)))
    for (const o of outcomes) expect([o.status, errorCode(o.body), o.error]).toEqual([413, "request_body_too_large", undefined])
    expect(await signedRead()).toBe(200)
  })

  it("a 413 part-way through a chunked body reaches a client that sends 4 MiB slowly and reads only then", async () => {
    const head = requestHead("POST", accountPath(), { "content-type": "application/json", "transfer-encoding": "chunked" })
    const chunk = () => Buffer.concat([Buffer.from(`${PIECE.toString(16)}\r\n`), spaces(), Buffer.from("\r\n")])
    const o = await sendThenRead(server.url, head, (i) => (i < 32 ? chunk() : Buffer.from("0\r\n\r\n")), 33, 60)
    expect([o.status, errorCode(o.body), o.error]).toEqual([413, "request_body_too_large", undefined])
  })

  it("a 415 decided on the headers reaches a client still sending a body within the limit", async () => {
    const head = requestHead("POST", accountPath(), { "content-type": "text/plain", "content-length": String(6 * PIECE), "x-api-key": "k" })
    const o = await sendThenRead(server.url, head, spaces, 6, 150)
    expect([o.status, o.error]).toEqual([415, undefined])
  })

  it("a 409 for an import into a simulator that is not empty reaches a client still sending a 4 MiB log", async () => {
    const head = requestHead("POST", "/_sim/import", {
      authorization: `Bearer ${h.sim.adminToken}`,
      "content-type": "application/x-ndjson",
      "content-length": String(32 * PIECE),
    })
    const o = await sendThenRead(server.url, head, () => Buffer.alloc(PIECE, 0x0a), 32, 60)
    expect([o.status, errorCode(o.body), o.error]).toEqual([409, "store_not_empty", undefined])
  })

  it("undici, sending an oversized body slowly, gets the 413", async () => {
    async function* slowly() {
      for (let i = 0; i < 16; i++) {
        yield Buffer.alloc(PIECE, 0x20)
        await sleep(60)
      }
    }
    const res = await request(`${server.url}${accountPath()}`, {
      method: "POST",
      headers: { "content-type": "application/json", "content-length": String(16 * PIECE) },
      body: Readable.from(slowly()),
    })
    expect([res.statusCode, errorCode(await res.body.text())]).toEqual([413, "request_body_too_large"])
  })

  it("the connection stays usable once the rest of the body has come", async () => {
    const c = await openRaw(server.url)
    let seen = ""
    c.socket.on("data", (d: Buffer) => void (seen += d.toString("latin1")))
    c.write(requestHead("POST", accountPath(), { "content-type": "application/json", "content-length": String(LIMIT + 1) }))
    expect((await c.answer()).status).toBe(413)
    c.write(Buffer.alloc(LIMIT + 1, 0x20))
    c.write(requestHead("GET", "/_sim/health", {}))
    await expect.poll(() => seen, { timeout: 20_000 }).toMatch(/^HTTP\/1\.1 413 [\s\S]*}HTTP\/1\.1 200 /)
    c.kill()
  })
})

describe("bounded: the server does not read a refused body for ever", () => {
  let small: { url: string; close: () => Promise<void> }
  beforeAll(async () => {
    small = await listen(createApp(h.sim, { authFailureLimit: false }), {
      drain: { bytes: 256 * 1024, idleMs: 300, totalMs: 5_000, lingerMs: 300 },
    })
  })
  afterAll(() => small?.close())

  it("a body that stops part-way: the 413 is read, then the server ends the connection", async () => {
    const c = await openRaw(small.url)
    c.write(requestHead("POST", accountPath(), { "content-type": "application/json", "content-length": String(2 * LIMIT) }))
    c.write(Buffer.alloc(1000, 0x20))
    expect((await c.answer()).status).toBe(413)
    await c.closed
  })

  it("a body that goes on past the bytes bound: the 413 is read, then the server ends the connection", async () => {
    const c = await openRaw(small.url)
    c.write(requestHead("POST", accountPath(), { "content-type": "application/json", "content-length": String(64 * LIMIT) }))
    for (let i = 0; i < 8; i++) c.write(Buffer.alloc(128 * 1024, 0x20))
    expect((await c.answer()).status).toBe(413)
    await c.closed
    expect(await signedRead()).toBe(200)
  })
})
