// The request log over a real socket: one line per answered request, the refused signature's signed string in the
// log and never in the answer, tokens never written, JSON lines when asked.
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { getRequestListener } from "@hono/node-server"
import fc from "fast-check"
import { request } from "undici"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { signatureMessage, signRequest } from "../../src/client/signing.js"
import { formatEntry, loggedResponse, type LogFormat } from "../../src/cli/request-log.js"
import { startHarness, type Harness } from "../support/harness.js"

let h: Harness
const servers: Array<Server> = []
beforeAll(async () => {
  h = await startHarness()
})
afterAll(async () => {
  for (const s of servers) await new Promise((resolve) => s.close(resolve))
  await h.close()
})

/** Serves the harness's app with the log; `lines(n)` waits until n lines are written (they are written in batches). */
const serveLogged = async (format: LogFormat) => {
  let written = ""
  const server = createServer(
    { ServerResponse: loggedResponse({ format, write: (chunk) => void (written += chunk) }) },
    getRequestListener(h.app.fetch),
  )
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const lines = async (count = 1) => {
    await expect.poll(() => written.split("\n").length - 1).toBeGreaterThanOrEqual(count)
    const out = written.split("\n").filter((l) => l.length > 0)
    written = ""
    return out
  }
  return { url, lines }
}

const send = async (url: string, method: "GET" | "POST", path: string, headers: Record<string, string>, body?: string) => {
  const res = await request(url + path, { method, headers, ...(body !== undefined ? { body } : {}) })
  return { status: res.statusCode, text: await res.body.text() }
}

describe("request log, text", () => {
  it("a signed read: time, method, path, status, duration, key and request id", async () => {
    const { url, lines } = await serveLogged("text")
    const res = await send(url, "GET", "/vaults?limit=1", signRequest(h.creds, { method: "GET", url: "/vaults?limit=1" }))
    expect(res.status).toBe(200)
    const requestId = JSON.parse(res.text).requestId as string
    expect(await lines()).toEqual([
      expect.stringMatching(
        new RegExp(
          `^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z GET /vaults\\?limit=1 200 \\d+\\.\\dms key=${h.creds.key} request=${requestId}$`,
        ),
      ),
    ])
  })

  it("a refused signature: the error code and the string the server signed, which the answer never shows", async () => {
    const { url, lines } = await serveLogged("text")
    const body = JSON.stringify({ data: { item: { name: "alice", color: "#FF0000", isHiddenInDashboard: false } } })
    const path = `/vaults/${h.testVaultId}/vault-account?context=x`
    const headers = signRequest(h.creds, { method: "POST", url: path, body })
    const res = await send(url, "POST", path, { ...headers, "x-api-sign": Buffer.alloc(32).toString("base64") }, body)
    expect([res.status, JSON.parse(res.text).error.code]).toEqual([401, "invalid_api_sign"])
    const signed = signatureMessage({
      timestamp: headers["x-api-timestamp"]!,
      method: "POST",
      path: `/vaults/${h.testVaultId}/vault-account`,
      body,
      query: '{"context":"x"}',
    })
    expect(res.text).not.toContain(headers["x-api-timestamp"]!)
    const [line, ...rest] = await lines()
    expect(rest).toEqual([])
    expect(line).toContain(` POST ${path} 401 `)
    expect(line).toContain(
      ` key=${h.creds.key} request=${JSON.parse(res.text).requestId} error=invalid_api_sign signed=${JSON.stringify(signed)}`,
    )
  })

  it("a refused signature over a pretty-printed body: the signed string holds the body minified, as the server signed it", async () => {
    const { url, lines } = await serveLogged("text")
    const body = '{\n  "data": {\n    "item": { "name": "a  b", "color": "#FF0000", "isHiddenInDashboard": false }\n  }\n}\n'
    const path = `/vaults/${h.testVaultId}/vault-account`
    const headers = signRequest(h.creds, { method: "POST", url: path, body })
    const res = await send(url, "POST", path, { ...headers, "x-api-sign": Buffer.alloc(32).toString("base64") }, body)
    expect(res.status).toBe(401)
    const expected = `${headers["x-api-timestamp"]}POST${path}{"data":{"item":{"name":"a  b","color":"#FF0000","isHiddenInDashboard":false}}}{}`
    const [line] = await lines()
    expect(line).toContain(` error=invalid_api_sign signed=${JSON.stringify(expected)}`)
  })

  it("control-plane calls are logged without the admin token; a token in the query is never written", async () => {
    const { url, lines } = await serveLogged("text")
    const res = await send(url, "GET", "/_sim/health?token=secret-value", { authorization: `Bearer ${h.sim.adminToken}` })
    expect(res.status).toBe(200)
    const out = await lines()
    expect(out).toEqual([expect.stringMatching(/ GET \/_sim\/health\?token=… 200 \d+\.\dms$/)])
    expect(out.join("")).not.toContain(h.sim.adminToken)
  })
})

describe("request log, batches", () => {
  it("more lines than one batch holds: every request's line, once, in the order answered", async () => {
    const { url, lines } = await serveLogged("text")
    const pad = "p".repeat(2_000)
    // 40 lines of about 2 KB: more than one 64 KiB batch.
    for (let i = 0; i < 40; i++)
      expect((await send(url, "GET", `/vaults?n=${i}&pad=${pad}`, { "content-type": "application/json" })).status).toBe(401)
    const out = await lines(40)
    expect(out.map((l) => / GET \/vaults\?n=(\d+)&pad=p+ 401 /.exec(l)?.[1])).toEqual(Array.from({ length: 40 }, (_, i) => String(i)))
  })

  it("a refused signature over a body larger than a batch: its whole line, between the lines before and after it", async () => {
    const { url, lines } = await serveLogged("json")
    const body = JSON.stringify({ data: { item: { name: "é".repeat(40_000), color: "#FF0000", isHiddenInDashboard: false } } })
    const path = `/vaults/${h.testVaultId}/vault-account`
    const headers = signRequest(h.creds, { method: "POST", url: path, body })
    await send(url, "GET", "/vaults?before", { "content-type": "application/json" })
    const res = await send(url, "POST", path, { ...headers, "x-api-sign": Buffer.alloc(32).toString("base64") }, body)
    await send(url, "GET", "/vaults?after", { "content-type": "application/json" })
    expect(JSON.parse(res.text).error.code).toBe("invalid_api_sign")
    const out = (await lines(3)).map((l) => JSON.parse(l) as Record<string, unknown>)
    expect(out.map((e) => e.path)).toEqual(["/vaults?before", path, "/vaults?after"])
    expect(out[1]!.signed).toBe(signatureMessage({ timestamp: headers["x-api-timestamp"]!, method: "POST", path, body, query: "{}" }))
  })
})

describe("request log, JSON", () => {
  it("one JSON object per line with the same fields", async () => {
    const { url, lines } = await serveLogged("json")
    const ok = await send(url, "GET", "/vaults", signRequest(h.creds, { method: "GET", url: "/vaults" }))
    const missing = await send(url, "GET", "/vaults", { "content-type": "application/json" })
    expect([ok.status, missing.status]).toEqual([200, 401])
    const [first, second] = (await lines(2)).map((l) => JSON.parse(l) as Record<string, unknown>)
    expect(first).toEqual({
      time: expect.any(String),
      method: "GET",
      path: "/vaults",
      status: 200,
      durationMs: expect.any(Number),
      key: h.creds.key,
      requestId: JSON.parse(ok.text).requestId,
    })
    expect(second).toEqual({
      time: expect.any(String),
      method: "GET",
      path: "/vaults",
      status: 401,
      durationMs: expect.any(Number),
      requestId: JSON.parse(missing.text).requestId,
      error: JSON.parse(missing.text).error.code,
    })
  })

  it("a key and a path that need escaping: the line is JSON that parses back to them, written as JSON.stringify writes it", async () => {
    const { url, lines } = await serveLogged("json")
    const key = 'k"\\\t\u00e9'
    const res = await send(url, "GET", "/vaults?name=%22a%22&b=\\", {
      "content-type": "application/json",
      "x-api-key": key,
      "x-api-timestamp": "1",
      "x-api-sign": "x",
      "x-api-passphrase": "p",
    })
    expect(res.status).toBe(401)
    const [line] = await lines()
    const entry = JSON.parse(line!) as Record<string, unknown>
    expect([entry.key, entry.path]).toEqual([key, "/vaults?name=%22a%22&b=\\"])
    expect(line).toBe(JSON.stringify(entry))
  })
})

describe("request log, JSON line", () => {
  // Any UTF-16 code unit (lone surrogates too), and often the characters JSON escapes.
  const text = fc.string({
    unit: fc.oneof(
      fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
      fc.constantFrom('"', "\\", "\n", "\t", "\u0000", "\u001f", "\u007f", "\ud800", "\udc00", "é", "/", "a"),
    ),
  })
  const entry = fc.record(
    {
      time: fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
      method: fc.oneof(fc.constantFrom("GET", "POST", "DELETE"), text),
      path: text,
      status: fc.integer({ min: 100, max: 599 }),
      durationMs: fc.oneof(
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.nat().map((n) => n / 1000),
      ),
      key: text,
      requestId: text,
      error: text,
      signed: text,
    },
    { requiredKeys: ["time", "method", "path", "status", "durationMs"] },
  )

  it("is the bytes JSON.stringify writes for the same entry, whatever its strings hold", () => {
    fc.assert(
      fc.property(entry, (e) => {
        expect(formatEntry(e, "json")).toBe(JSON.stringify(e))
      }),
      { numRuns: 2_000 },
    )
  })
})

describe("request log, process", () => {
  it("many logged servers in one process add one exit listener between them, not one each (no leak warning)", () => {
    const before = process.listenerCount("exit")
    for (let i = 0; i < 12; i++) loggedResponse({ format: i % 2 === 0 ? "text" : "json", write: () => {} })
    expect(process.listenerCount("exit")).toBeLessThanOrEqual(before + 1)
  })
})
