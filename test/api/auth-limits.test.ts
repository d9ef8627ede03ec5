// Over a real socket: failed authentications limited per address and key and per address, never a valid request (429), the passphrase not told
// apart without the secret, --reject-replays, no x-sim-min-position wait without credentials, quiet aborted bodies.
import net from "node:net"
import type { Context } from "hono"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createApp, type AppOptions } from "../../src/api/app.js"
import { signRequest } from "../../src/client/signing.js"
import { startHarness, type Harness } from "../support/harness.js"
import { listen } from "../support/server.js"
import { framingFault, json, send, strictConnection } from "../support/strict-http.js"

let h: Harness
const servers: Array<{ url: string; close: () => Promise<void> }> = []
beforeAll(async () => {
  h = await startHarness()
})
afterAll(async () => {
  for (const s of servers) await s.close()
  await h.close()
})

const logged: { info: Array<string>; error: Array<unknown> } = { info: [], error: [] }
const serve = async (options: AppOptions = {}) => {
  const s = await listen(createApp(h.sim, { log: { error: (e) => logged.error.push(e), info: (m) => logged.info.push(m) }, ...options }))
  servers.push(s)
  return s
}
// The caller's address as the test says (a real one would need several interfaces).
const byHeader = (c: Context) => c.req.header("x-test-address") ?? "127.0.0.1"

const get = async (url: string, headers: Record<string, string>) => {
  const c = strictConnection(url)
  try {
    const a = await send(c, { method: "GET", path: "/vaults", headers })
    expect(framingFault(a)).toBeUndefined()
    return { status: a.status, code: (json(a) as { error?: { code: string } }).error?.code, retryAfter: a.headers["retry-after"] }
  } finally {
    await c.close()
  }
}
const signed = (extra: Record<string, string> = {}) => ({ ...signRequest(h.creds, { method: "GET", url: "/vaults" }), ...extra })
const badSign = (extra: Record<string, string> = {}) => signed({ "x-api-sign": Buffer.alloc(32, 1).toString("base64"), ...extra })

describe("failed authentications", () => {
  // No refill within a test run: the outcome depends on counts, not on how fast the machine is.
  const limit = { perSecond: 0.0001, burst: 3 }

  it("an attacker who knows a key id is limited (429 with Retry-After); the key's owner is always served", async () => {
    const s = await serve({ authFailureLimit: limit, clientIp: byHeader })
    const attacker = { "x-test-address": "10.0.0.66" }
    for (let i = 0; i < 3; i++) expect((await get(s.url, badSign(attacker))).code).toBe("invalid_api_sign")
    for (let i = 0; i < 20; i++) {
      const refused = await get(s.url, badSign(attacker))
      expect([refused.status, refused.code]).toEqual([429, "request_limit_reached"])
      expect(Number(refused.retryAfter)).toBeGreaterThan(0)
      expect((await get(s.url, signed({ "x-test-address": "10.0.0.1" }))).status).toBe(200)
    }
    // The owner's own mistake is still told as what it is: its pair has failed nothing yet.
    expect((await get(s.url, badSign({ "x-test-address": "10.0.0.1" }))).code).toBe("invalid_api_sign")
    // Even a valid request from the attacker's address with that key is served: only failures are refused.
    expect((await get(s.url, signed(attacker))).status).toBe(200)
  })

  it("a client's own bad signatures never cost it its good requests from the same address and key", async () => {
    const s = await serve({ authFailureLimit: limit, clientIp: () => "127.0.0.1" })
    const statuses: Array<number> = []
    for (let i = 0; i < 10; i++) {
      statuses.push((await get(s.url, badSign())).status)
      expect((await get(s.url, signed())).status).toBe(200)
    }
    expect(statuses).toEqual([401, 401, 401, 429, 429, 429, 429, 429, 429, 429])
  })

  it("an address trying many keys is limited across them, past ten pairs' worth of failures", async () => {
    const s = await serve({ authFailureLimit: limit, clientIp: byHeader })
    const from = { "x-test-address": "10.2.0.1" }
    for (let i = 0; i < 30; i++) expect((await get(s.url, badSign({ ...from, "x-api-key": `unknown-${i}` }))).code).toBe("invalid_api_key")
    expect((await get(s.url, badSign({ ...from, "x-api-key": "unknown-next" }))).status).toBe(429)
    expect((await get(s.url, badSign({ "x-test-address": "10.2.0.2", "x-api-key": "unknown-next" }))).code).toBe("invalid_api_key")
    expect((await get(s.url, signed(from))).status).toBe(200)
  })

  it("are not limited when turned off", async () => {
    const s = await serve({ authFailureLimit: false })
    for (let i = 0; i < 5; i++) expect((await get(s.url, badSign())).status).toBe(401)
    expect((await get(s.url, signed())).status).toBe(200)
  })
})

describe("passphrase and signature", () => {
  it("without a right signature, a right and a wrong passphrase get the same answer", async () => {
    const s = await serve({ authFailureLimit: false })
    const right = await get(s.url, badSign())
    const wrong = await get(s.url, badSign({ "x-api-passphrase": "not-the-passphrase" }))
    expect([right.status, right.code]).toEqual([401, "invalid_api_sign"])
    expect([wrong.status, wrong.code]).toEqual([401, "invalid_api_sign"])
    // With the right signature a wrong passphrase is named (the sender holds the secret).
    expect((await get(s.url, signed({ "x-api-passphrase": "not-the-passphrase" }))).code).toBe("invalid_api_key")
  })
})

describe("replays", () => {
  it("are accepted by default and refused with 401 invalid_api_sign under rejectReplays", async () => {
    const open = await serve()
    const once = signed()
    expect([(await get(open.url, once)).status, (await get(open.url, once)).status]).toEqual([200, 200])
    const strict = await serve({ rejectReplays: true })
    const headers = signed()
    expect((await get(strict.url, headers)).status).toBe(200)
    const again = await get(strict.url, headers)
    expect([again.status, again.code]).toEqual([401, "invalid_api_sign"])
    expect((await get(strict.url, signed({ "x-api-timestamp": String(Number(headers["x-api-timestamp"]) - 1) }))).code).toBe(
      "invalid_api_sign",
    )
  })
})

describe("x-sim-min-position without credentials", () => {
  it("is answered at once with 401 instead of waiting for a position never reached", async () => {
    const s = await serve()
    const op = await get(s.url, { "content-type": "application/json", "x-sim-min-position": "999999999" })
    expect([op.status, op.code]).toEqual([401, "missing_api_key"])
    const c = strictConnection(s.url)
    const sim = await send(c, { method: "GET", path: "/_sim/clock", headers: { "x-sim-min-position": "999999999" } })
    await c.close()
    expect(sim.status).toBe(401)
  })
})

describe("a body cut off by the client", () => {
  it("is one quiet log line, not an error with a stack", async () => {
    const s = await serve()
    const { port } = new URL(s.url)
    const path = `/vaults/${h.testVaultId}/vault-account`
    const partial = JSON.stringify({ data: { item: { name: "cut", color: "#000000", isHiddenInDashboard: false } } })
    const headers = signRequest(h.creds, { method: "POST", url: path, body: partial })
    const before = logged.info.length
    await new Promise<void>((resolve) => {
      const socket = net.connect(Number(port), "127.0.0.1", () => {
        const head = Object.entries({ ...headers, host: `127.0.0.1:${port}`, "content-length": String(partial.length + 500) })
          .map(([k, v]) => `${k}: ${v}`)
          .join("\r\n")
        socket.write(`POST ${path} HTTP/1.1\r\n${head}\r\n\r\n${partial.slice(0, 20)}`, () => setImmediate(() => socket.destroy()))
      })
      socket.on("close", () => resolve())
      socket.on("error", () => resolve())
    })
    for (let i = 0; logged.info.length === before && i < 2_000; i++) await new Promise((r) => setTimeout(r, 10))
    expect(logged.info.slice(before)).toEqual([
      expect.stringMatching(/^POST \/vaults\/:vaultId\/vault-account: request body aborted by the client/),
    ])
    expect(logged.error).toEqual([])
  })
})
