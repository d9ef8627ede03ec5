// Every error path over a real socket with a strict client: answers of different lengths follow each other on one
// kept-alive connection, and each one's Content-Length must be its own body's length.
import type { Client } from "undici"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createApp } from "../../src/api/app.js"
import type { Operation } from "../../src/api/operation.js"
import { signRequest } from "../../src/client/signing.js"
import { startHarness, type Harness } from "../support/harness.js"
import { listen } from "../support/server.js"
import {
  framingFault,
  isApiErrorShape,
  isSimErrorShape,
  json,
  send,
  strictConnection,
  type Answer,
  type Call,
} from "../support/strict-http.js"

const LIMIT = 4096
const boom: Operation = {
  id: "boom",
  method: "GET",
  path: "/boom",
  scope: "read",
  handle: () => {
    throw new Error("boom")
  },
}

let h: Harness
let server: { url: string; close: () => Promise<void> }
const connections: Array<Client> = []
beforeAll(async () => {
  h = await startHarness()
  // Hundreds of refused requests come from one address here: the failed-authentication limit (a 429 once an address
  // has failed 100 times) is tested in auth-limits.test.ts, not here.
  const app = createApp(h.sim, { bodyLimit: LIMIT, log: { error: () => {}, info: () => {} }, operations: [boom], authFailureLimit: false })
  app.get("/_sim/boom", () => {
    throw new Error("boom")
  })
  server = await listen(app)
})
afterAll(async () => {
  await Promise.all(connections.map((c) => c.close()))
  await server.close()
  await h.close()
})

const connection = () => {
  const c = strictConnection(server.url)
  connections.push(c)
  return c
}

/** Context values of very different lengths, so that a length carried over from an earlier answer shows. */
const contexts = ["", "a", "x".repeat(3_000), "ctx-12", "y".repeat(400), "z".repeat(7)]

const signed = (method: string, path: string, body = "", extra: Record<string, string> = {}): Call => ({
  method,
  path,
  headers: { ...signRequest(h.creds, { method, url: path, body }), ...extra },
  ...(body !== "" ? { body } : {}),
})
const admin = (method: string, path: string, body?: string): Call => ({
  method,
  path,
  headers: { authorization: `Bearer ${h.sim.adminToken}`, "content-type": "application/json" },
  ...(body !== undefined ? { body } : {}),
})
const withContext = (path: string, context: string) => (context === "" ? path : `${path}?context=${context}`)

const expectFramed = (a: Answer, status: number, shape: "api" | "sim", code?: string) => {
  expect(framingFault(a)).toBeUndefined()
  expect(a.status).toBe(status)
  const body = json(a) as { error?: { code?: string } }
  if (code !== undefined) {
    expect(shape === "api" ? isApiErrorShape(body) : isSimErrorShape(body)).toBe(true)
    expect(body.error?.code).toBe(code)
  }
}

/** Each error answer in turn with every context length, a signed read between them, on one connection. */
const alternate = async (make: (context: string) => Call, status: number, shape: "api" | "sim", code: string, echoes = shape === "api") => {
  const c = connection()
  for (const context of [...contexts, ...[...contexts].reverse()]) {
    const call = make(context)
    const a = await send(c, call)
    expectFramed(a, status, shape, code)
    const sent = new URL(call.path, server.url).searchParams.get("context")
    if (echoes && sent !== null) expect((json(a) as { context?: string }).context).toBe(sent)
    expectFramed(await send(c, signed("GET", "/vaults")), 200, "api")
  }
}

describe("framing of every answer over a kept-alive socket", () => {
  it("unknown routes: 400 uri_not_found with the request's context", async () => {
    await alternate((ctx) => ({ method: "GET", path: withContext("/no/such/route", ctx) }), 400, "api", "uri_not_found")
    await alternate(
      (ctx) => ({ method: "POST", path: withContext("/nowhere", ctx), headers: { "content-type": "application/json" }, body: "{}" }),
      400,
      "api",
      "uri_not_found",
    )
  })

  it("a malformed x-sim-min-position: 400 invalid_data on an operation and on the control plane", async () => {
    await alternate(
      (ctx) => signed("GET", withContext("/vaults", ctx), "", { "x-sim-min-position": `not-a-position${ctx}` }),
      400,
      "api",
      "invalid_data",
    )
    await alternate(
      (ctx) => ({ method: "GET", path: "/_sim/health", headers: { "x-sim-min-position": `-${ctx}` } }),
      400,
      "sim",
      "invalid_data",
    )
  })

  it("an operation that fails unexpectedly: 500 internal_server_error", async () => {
    await alternate((ctx) => signed("GET", withContext("/boom", ctx)), 500, "api", "internal_server_error")
  })

  it("a control-plane route that throws: 500 internal_server_error in the spec's shape (the app's error handler, no context)", async () => {
    await alternate((ctx) => admin("GET", withContext("/_sim/boom", ctx)), 500, "api", "internal_server_error", false)
  })

  it("a control-plane body over the limit: 413 request_body_too_large, whatever its size", async () => {
    await alternate(
      (ctx) => admin("POST", "/_sim/clock/advance", JSON.stringify({ seconds: 1, pad: "p".repeat(LIMIT + ctx.length) })),
      413,
      "api",
      "request_body_too_large",
      false,
    )
  })

  it("unauthenticated requests with a long context: 401 missing_api_key, and the next answers keep their own lengths", async () => {
    await alternate(
      (ctx) => ({ method: "GET", path: withContext("/vaults", ctx + "q".repeat(5_000)), headers: { "content-type": "application/json" } }),
      401,
      "api",
      "missing_api_key",
    )
  })

  it("a position this node never reaches: 503 service_unavailable after the wait", async () => {
    const c = connection()
    for (const context of ["", "w".repeat(2_000)]) {
      expectFramed(
        await send(c, signed("GET", withContext("/vaults", context), "", { "x-sim-min-position": "999999999" })),
        503,
        "api",
        "service_unavailable",
      )
      expectFramed(await send(c, { method: "GET", path: withContext("/unknown", context) }), 400, "api", "uri_not_found")
    }
  })

  it("all of them interleaved on several connections at once", async () => {
    const calls: ReadonlyArray<(ctx: string) => Call> = [
      (ctx) => ({ method: "GET", path: withContext("/no/such/route", ctx) }),
      (ctx) => signed("GET", withContext("/vaults", ctx), "", { "x-sim-min-position": "bad" }),
      (ctx) => signed("GET", withContext("/boom", ctx)),
      (ctx) => admin("GET", withContext("/_sim/boom", ctx)),
      (ctx) => admin("POST", "/_sim/clock/advance", JSON.stringify({ pad: "p".repeat(LIMIT + ctx.length) })),
      (ctx) => ({ method: "GET", path: withContext("/vaults", ctx + "q".repeat(3_000)), headers: { "content-type": "application/json" } }),
      (ctx) => signed("GET", withContext("/vaults", ctx)),
      () => ({ method: "GET", path: "/_sim/health" }),
    ]
    const lane = async (offset: number) => {
      const c = connection()
      for (let i = 0; i < 40; i++) {
        const a = await send(c, calls[(i + offset) % calls.length]!(contexts[(i * 7 + offset) % contexts.length]!))
        expect(framingFault(a)).toBeUndefined()
        expect(a.status).toBeLessThan(600)
        expect(() => json(a)).not.toThrow()
      }
    }
    await Promise.all([0, 1, 2, 3].map(lane))
  })
})
