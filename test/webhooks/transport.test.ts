// The webhook HTTP client (undici) against awkward receivers: framing, interim answers, credentials, closed sockets, errors.
import http from "node:http"
import net from "node:net"
import { afterEach, describe, expect, it } from "vitest"
import { verifyWebhookSignature } from "../../src/client/index.js"
import { makeHttpTransport, postOnce, type PostRequest, type Transport } from "../../src/webhooks/http.js"
import { makeThreadTransport } from "../../src/webhooks/thread-transport.js"

const servers: Array<{ close: () => void }> = []
const transports: Array<Transport> = []
afterEach(() => {
  for (const s of servers.splice(0)) s.close()
  for (const t of transports.splice(0)) t.close()
})

const listen = async (server: http.Server | net.Server) => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  servers.push({ close: () => ((server as http.Server).closeAllConnections?.(), server.close()) })
  return `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`
}
const request = (url: string, extra: Partial<PostRequest> = {}): PostRequest => ({
  url,
  body: '{"a":"é"}',
  secret: "s",
  encoding: "base64",
  timeoutMs: 2_000,
  keepBody: 1_000,
  ...extra,
})
const client = () => {
  const t = makeHttpTransport({ maxSockets: 4 })
  transports.push(t)
  return t
}

describe("HTTP client", () => {
  it("sends the body bytes signed, and reads Content-Length, chunked and close-delimited answers", async () => {
    const seen: Array<{ raw: Buffer; headers: http.IncomingHttpHeaders; url: string }> = []
    const origin = await listen(
      http.createServer((req, res) => {
        const chunks: Array<Buffer> = []
        req
          .on("data", (c: Buffer) => chunks.push(c))
          .on("end", () => {
            seen.push({ raw: Buffer.concat(chunks), headers: req.headers, url: req.url! })
            if (req.url === "/length") res.writeHead(201, { "content-length": "5" }).end("hello")
            else if (req.url?.startsWith("/chunked")) {
              res.writeHead(200)
              res.write("chu")
              setTimeout(() => res.end("nked ✓"), 10)
            } else res.writeHead(202, { connection: "close" }).end("bye")
          })
      }),
    )
    const t = client()
    expect(await postOnce(t, request(`${origin}/length`))).toMatchObject({ statusCode: 201, error: null, body: "hello" })
    expect(await postOnce(t, request(`${origin}/chunked?x=1`))).toMatchObject({ statusCode: 200, body: "chunked ✓" })
    expect(await postOnce(t, request(`${origin}/close`))).toMatchObject({ statusCode: 202, body: "bye" })
    expect(await postOnce(t, request(`${origin}/length`, { keepBody: 0 }))).toMatchObject({ statusCode: 201, body: "" })
    expect(seen[1]!.url).toBe("/chunked?x=1")
    for (const s of seen) {
      expect(s.raw.toString("utf8")).toBe('{"a":"é"}')
      expect(s.headers["content-type"]).toBe("application/json")
      expect(verifyWebhookSignature({ body: s.raw, signature: s.headers["x-signature"] as string, secret: "s" })).toBe(true)
    }
  })

  it("copes with HTTP/1.0, interim 1xx answers, credentials in the URL and a kept-alive socket the server closed", async () => {
    const heads: Array<string> = []
    const raw = await listen(
      net.createServer((socket) => {
        let text = ""
        socket.on("data", (d) => {
          text += d.toString("latin1")
          if (!text.includes("\r\n\r\n")) return
          heads.push(text.split("\r\n\r\n")[0]!)
          if (text.startsWith("POST /old")) socket.end("HTTP/1.0 200 OK\r\n\r\nold style")
          else
            socket.end(
              "HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\nHTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n",
            )
        })
      }),
    )
    const t = client()
    expect(await postOnce(t, request(`${raw}/old`))).toMatchObject({ statusCode: 200, body: "old style" })
    expect(await postOnce(t, request(raw.replace("//", "//user:p%40ss@") + "/new"))).toMatchObject({ statusCode: 204, error: null })
    expect(/^authorization: (.*)$/im.exec(heads[1]!)?.[1]).toBe(`Basic ${Buffer.from("user:p@ss").toString("base64")}`)

    const server = http.createServer((req, res) => req.resume().on("end", () => res.writeHead(200, { "content-length": "0" }).end()))
    server.keepAliveTimeout = 30
    const origin = await listen(server)
    expect((await postOnce(t, request(origin))).statusCode).toBe(200)
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(await postOnce(t, request(origin))).toMatchObject({ statusCode: 200, error: null })
  })

  it("reports refusals and timeouts as network errors", async () => {
    const hang = await listen(net.createServer(() => {}))
    const t = client()
    expect(await postOnce(t, request("http://127.0.0.1:1/x"))).toMatchObject({
      statusCode: null,
      error: expect.stringContaining("ECONNREFUSED"),
    })
    const r = await postOnce(t, request(hang, { timeoutMs: 100 }))
    expect(r).toMatchObject({ statusCode: null, error: "timeout after 100 ms" })
    expect(r.durationMs).toBeGreaterThanOrEqual(90)
  })

  // A raw server answering each request with its own body, in order; it records the requests every read carried.
  const echoing = (closeAfter = Number.POSITIVE_INFINITY) => {
    const reads: Array<number> = []
    let connections = 0
    const server = net.createServer((socket) => {
      connections++
      let text = ""
      let answered = 0
      socket.on("data", (d) => {
        text += d.toString("latin1")
        let out = ""
        let carried = 0
        for (;;) {
          const i = text.indexOf("\r\n\r\n")
          if (i < 0) break
          const length = Number(/content-length: (\d+)/i.exec(text.slice(0, i))![1])
          if (text.length < i + 4 + length) break
          const body = text.slice(i + 4, i + 4 + length)
          text = text.slice(i + 4 + length)
          carried++
          if (answered++ >= closeAfter) continue
          out += `HTTP/1.1 200 OK\r\nContent-Length: ${length}\r\n${answered === closeAfter ? "Connection: close\r\n" : ""}\r\n${body}`
        }
        if (carried > 0) reads.push(carried)
        if (out.length > 0) socket.write(out, "latin1")
        if (answered >= closeAfter) socket.end()
      })
    })
    return { server, reads, connections: () => connections }
  }
  const many = (t: Transport, origin: string, n: number) =>
    Promise.all(Array.from({ length: n }, (_, i) => postOnce(t, request(origin, { body: `{"n":${i}}` }))))

  // n requests to an echoing receiver after one that opens a connection: answers matched to their requests in order.
  const echoed = async (options: { maxSockets: number; pipelining: number }, n: number) => {
    const rx = echoing()
    const origin = await listen(rx.server)
    const t = makeHttpTransport(options)
    transports.push(t)
    expect((await postOnce(t, request(origin))).statusCode).toBe(200)
    const results = await many(t, origin, n)
    expect(results.map((r) => r.body)).toEqual(Array.from({ length: n }, (_, i) => `{"n":${i}}`))
    return { rx, results }
  }

  it("pipelines when told to, matching the answers to their requests in order", async () => {
    const { rx, results } = await echoed({ maxSockets: 2, pipelining: 8 }, 24)
    expect(results.every((r) => r.statusCode === 200 && r.error === null)).toBe(true)
    expect(rx.connections()).toBeLessThanOrEqual(2)
  })

  it("never pipelines when told not to", async () => {
    const { rx } = await echoed({ maxSockets: 4, pipelining: 1 }, 10)
    expect(Math.max(...rx.reads)).toBe(1)
  })

  it("sends requests left unanswered behind a closing answer once more on another connection", async () => {
    const rx = echoing(2)
    const origin = await listen(rx.server)
    const t = client()
    expect((await postOnce(t, request(origin))).statusCode).toBe(200)
    const results = await many(t, origin, 6)
    // Each connection answers twice, then closes: the requests still waiting go out on new connections.
    expect(results.map((r) => r.body)).toEqual(Array.from({ length: 6 }, (_, i) => `{"n":${i}}`))
    expect(results.every((r) => r.statusCode === 200)).toBe(true)
    expect(rx.connections()).toBeGreaterThan(1)
  })

  it("on its own thread, sends the same signed bytes and hands each outcome to its request", async () => {
    const seen: Array<{ raw: Buffer; signature: string }> = []
    const origin = await listen(
      http.createServer((req, res) => {
        const chunks: Array<Buffer> = []
        req
          .on("data", (c: Buffer) => chunks.push(c))
          .on("end", () => {
            seen.push({ raw: Buffer.concat(chunks), signature: req.headers["x-signature"] as string })
            res.writeHead(req.url === "/gone" ? 410 : 200, { "content-length": "2" }).end("ok")
          })
      }),
    )
    const t = makeThreadTransport({ maxSockets: 4 })
    transports.push(t)
    const results = await Promise.all([
      ...Array.from({ length: 5 }, (_, i) => postOnce(t, request(`${origin}/hooks`, { body: `{"n":${i}}` }))),
      postOnce(t, request(`${origin}/gone`)),
      postOnce(t, request("http://127.0.0.1:1/x")),
    ])
    expect(results.slice(0, 5).map((r) => [r.statusCode, r.body])).toEqual(Array.from({ length: 5 }, () => [200, "ok"]))
    expect(results[5]).toMatchObject({ statusCode: 410, error: null })
    expect(results[6]).toMatchObject({ statusCode: null, error: expect.stringContaining("ECONNREFUSED") })
    expect(seen).toHaveLength(6)
    for (const s of seen) expect(verifyWebhookSignature({ body: s.raw, signature: s.signature, secret: "s" })).toBe(true)
  })
})
