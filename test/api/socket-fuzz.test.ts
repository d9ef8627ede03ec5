// A bounded fuzz over a real socket: a few thousand requests, valid and not, on several kept-alive connections at
// once. Every answer must be framed right (undici is strict), none may be a 5xx, every error must be in its
// plane's shape, and no refused request may have appended an event.
import { Effect } from "effect"
import fc from "fast-check"
import type { Client } from "undici"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createApp } from "../../src/api/app.js"
import { signRequest } from "../../src/client/signing.js"
import { startHarness, type Harness } from "../support/harness.js"
import { listen } from "../support/server.js"
import { framingFault, isApiErrorShape, isSimErrorShape, send, strictConnection, type Call } from "../support/strict-http.js"

const REQUESTS = 2_400
const CONNECTIONS = 4
const LIMIT = 16 * 1024
const SEED = Number(process.env.FUZZ_SEED ?? 20_2611)

let h: Harness
let server: { url: string; close: () => Promise<void> }
const connections: Array<Client> = []
beforeAll(async () => {
  h = await startHarness()
  // Failed authentications unlimited here: the fuzz sends hundreds on purpose (auth-limits.test.ts covers the limit).
  server = await listen(createApp(h.sim, { bodyLimit: LIMIT, log: { error: () => {}, info: () => {} }, authFailureLimit: false }))
})
afterAll(async () => {
  await Promise.all(connections.map((c) => c.close()))
  await server.close()
  await h.close()
})

/** A request before its credentials are known (the vault ids and keys exist only once the harness runs). */
interface Plan {
  readonly method: string
  readonly path: (vault: string) => string
  readonly body?: string
  readonly auth: "signed" | "none" | "admin" | "bad-admin" | "tampered"
  readonly tamper?: "body" | "timestamp" | "key" | "passphrase" | "signature" | "drop-sign"
  readonly headers: Record<string, string>
}

const word = fc.oneof(fc.string({ maxLength: 12 }), fc.string({ unit: "grapheme", maxLength: 8 }), fc.constantFrom("", "..", "%", "test", "main", "ethereum", "sepolia"))
const segment = word.map((s) => encodeURIComponent(s))
const query = fc
  .array(fc.tuple(fc.oneof(fc.constantFrom("context", "limit", "startingAfter", "extra", "fromPosition"), fc.string({ maxLength: 6 })), fc.oneof(word, fc.string({ maxLength: 300 }))), { maxLength: 3 })
  .map((pairs) => (pairs.length === 0 ? "" : `?${new URLSearchParams(pairs).toString()}`))

const templates: ReadonlyArray<(v: string, s: ReadonlyArray<string>) => string> = [
  () => "/vaults",
  (_, s) => `/vaults/${s[0]}`,
  (v) => `/vaults/${v}/transactions`,
  (v, s) => `/vaults/${v}/${s[0]}/transactions/${s[1]}`,
  (v, s) => `/vaults/${v}/${s[0]}/${s[1]}/addresses`,
  (v) => `/vaults/${v}/vault-account`,
  (v, s) => `/vaults/${v}/vault-accounts/${s[0]}/add-asset`,
  (v) => `/vaults/${v}/assets`,
  (_, s) => `/assets/${s[0]}`,
  (_, s) => `/info/${s[0]}/${s[1]}/addresses/validate`,
  (_, s) => `/transactionRequests/${s[0]}`,
  (v) => `/vaults/${v}/transaction-requests/single-transfer`,
  () => "/supported-assets",
  (_, s) => `/${s[0]}/${s[1]}/${s[2]}`,
  () => "/_sim/health",
  () => "/_sim/events",
  () => "/_sim/clock",
  (_, s) => `/_sim/webhooks/${s[0]}`,
  (_, s) => `/_sim/${s[0]}`,
]

const jsonBody = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
  fc.jsonValue({ maxDepth: 2 }).map((item) => JSON.stringify({ data: { item } })),
  fc.record({ name: fc.string({ maxLength: 120 }), color: fc.constantFrom("#000000", "red", "#12345"), isHiddenInDashboard: fc.boolean() }).map((item) => JSON.stringify({ data: { item } })),
  fc.string({ maxLength: 60 }),
  fc.nat({ max: 3 * LIMIT }).map((n) => JSON.stringify({ data: { item: { name: "n".repeat(n) } } })),
)

const extraHeaders = fc.record(
  {
    "x-sim-min-position": fc.oneof(fc.constantFrom("0", "1", "-1", "abc", "1e3", " 2", "99999999999999999999999"), fc.string({ maxLength: 10 })),
    "x-api-version": fc.oneof(fc.constantFrom("2024-05-09", "2025-09-23", "2026-03-20", "1999-01-01"), fc.string({ maxLength: 10 })),
    "content-type": fc.constantFrom("application/json", "text/plain", "application/json; charset=utf-8", "application/jsonx", ""),
    "x-sim-as-of": fc.oneof(fc.constantFrom("0", "1", "x"), fc.string({ maxLength: 8 })),
  },
  { requiredKeys: [] },
)
// Header values must be ISO-8859-1 without control characters to be sent at all.
const sendable = (headers: Record<string, string>) => Object.fromEntries(Object.entries(headers).filter(([, v]) => /^[\x20-\x7e]*$/.test(v)))

const randomPlan: fc.Arbitrary<Plan> = fc
  .record({
    method: fc.constantFrom("GET", "GET", "POST", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"),
    template: fc.nat({ max: templates.length - 1 }),
    segments: fc.array(segment, { minLength: 3, maxLength: 3 }),
    query,
    body: fc.option(jsonBody, { nil: undefined }),
    auth: fc.constantFrom("signed", "signed", "none", "admin", "bad-admin", "tampered") as fc.Arbitrary<Plan["auth"]>,
    tamper: fc.constantFrom("body", "timestamp", "key", "passphrase", "signature", "drop-sign") as fc.Arbitrary<NonNullable<Plan["tamper"]>>,
    headers: extraHeaders,
  })
  .map(({ method, template, segments, query, body, auth, tamper, headers }) => ({
    method,
    path: (v: string) => templates[template]!(v, segments) + query,
    ...(body !== undefined && method !== "GET" && method !== "OPTIONS" ? { body } : {}),
    auth,
    tamper,
    headers: sendable(headers),
  }))

/** Requests the service should accept, so that the fuzz also mixes real reads and writes in. */
const validPlan: fc.Arbitrary<Plan> = fc.oneof(
  fc.constantFrom("/vaults", "/vaults/test", "/vaults?limit=2", "/supported-assets").map((p) => ({ method: "GET", path: () => p, auth: "signed" as const, headers: {} })),
  fc.constant({ method: "GET", path: (v: string) => `/vaults/${v}/transactions`, auth: "signed" as const, headers: {} }),
  fc.string({ minLength: 1, maxLength: 30 }).map((name) => ({
    method: "POST",
    path: (v: string) => `/vaults/${v}/vault-account`,
    body: JSON.stringify({ data: { item: { name, color: "#00AA00", isHiddenInDashboard: false } } }),
    auth: "signed" as const,
    headers: { "content-type": "application/json" },
  })),
  fc.constant({ method: "GET", path: () => "/_sim/health", auth: "none" as const, headers: {} }),
)

const toCall = (plan: Plan): Call => {
  const path = plan.path(h.testVaultId)
  const body = plan.body ?? ""
  const headers: Record<string, string> = { "content-type": "application/json" }
  if (plan.auth === "admin") headers.authorization = `Bearer ${h.sim.adminToken}`
  if (plan.auth === "bad-admin") headers.authorization = `Bearer ${h.sim.adminToken.slice(1)}x`
  if (plan.auth === "signed" || plan.auth === "tampered") {
    Object.assign(headers, signRequest(h.creds, { method: plan.method, url: path, body }))
    if (plan.auth === "tampered") {
      if (plan.tamper === "timestamp") headers["x-api-timestamp"] = String(Number(headers["x-api-timestamp"]) - 3_600)
      if (plan.tamper === "key") headers["x-api-key"] = `${headers["x-api-key"]!.slice(0, -1)}0`
      if (plan.tamper === "passphrase") headers["x-api-passphrase"] = `${headers["x-api-passphrase"]}x`
      if (plan.tamper === "signature") headers["x-api-sign"] = Buffer.alloc(32, 7).toString("base64")
      if (plan.tamper === "drop-sign") delete headers["x-api-sign"]
    }
  }
  Object.assign(headers, plan.headers)
  // A tampered body: signed over one text, sent with another.
  const sent = plan.auth === "tampered" && plan.tamper === "body" ? `${body} ` : body
  return { method: plan.method, path, headers, ...(sent !== "" ? { body: sent } : {}) }
}

describe("fuzz over a real socket", () => {
  it(`${REQUESTS} mixed requests on ${CONNECTIONS} kept-alive connections: framed, no 5xx, errors in shape, nothing written by a refusal`, async () => {
    const plans = fc.sample(fc.oneof({ arbitrary: randomPlan, weight: 3 }, { arbitrary: validPlan, weight: 1 }), { numRuns: REQUESTS, seed: SEED })
    const before = await Effect.runPromise(h.sim.store.headPosition)
    const accepted = new Set<string>()
    const refused = new Set<string>()
    const faults: Array<string> = []
    const statuses = new Map<number, number>()

    const lane = async (lane: number) => {
      const c = strictConnection(server.url)
      connections.push(c)
      for (let i = lane; i < plans.length; i += CONNECTIONS) {
        const call = toCall(plans[i]!)
        const where = `#${i} ${call.method} ${call.path.slice(0, 120)}`
        let answer
        try {
          answer = await send(c, call)
        } catch (error) {
          // The connection is gone: the lane stops rather than wait out a timeout per request.
          faults.push(`${where}: transport error ${String(error)}`)
          return
        }
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1)
        const framing = framingFault(answer)
        if (framing !== undefined) faults.push(`${where}: ${framing}`)
        if (answer.status >= 500) faults.push(`${where}: ${answer.status} ${answer.text.slice(0, 200)}`)
        let body: unknown
        try {
          body = JSON.parse(answer.text)
        } catch {
          faults.push(`${where}: not JSON: ${answer.text.slice(0, 200)}`)
          continue
        }
        const requestId = (body as { requestId?: unknown }).requestId
        if (answer.status >= 400) {
          const controlPlane = call.path.startsWith("/_sim/")
          if (!(isApiErrorShape(body) || (controlPlane && isSimErrorShape(body)))) faults.push(`${where}: ${answer.status} outside the error shape: ${answer.text.slice(0, 200)}`)
          if (typeof requestId === "string") refused.add(requestId)
        } else if (typeof requestId === "string") accepted.add(requestId)
      }
    }
    await Promise.all(Array.from({ length: CONNECTIONS }, (_, i) => lane(i)))

    expect(faults.slice(0, 20)).toEqual([])
    const written = await Effect.runPromise(h.sim.store.readAll({ fromPosition: before + 1n }))
    const byRefused = written.filter((e) => e.metadata.requestId !== undefined && refused.has(e.metadata.requestId))
    const unexplained = written.filter((e) => e.metadata.requestId === undefined || !accepted.has(e.metadata.requestId))
    expect(byRefused.map((e) => `${e.type} ${e.metadata.requestId}`)).toEqual([])
    expect(unexplained.map((e) => `${e.type} ${e.metadata.requestId}`)).toEqual([])
    // The mix really mixed: successes, writes among them, and refusals.
    expect([...statuses.keys()].some((s) => s === 201)).toBe(true)
    expect([...statuses.keys()].some((s) => s === 200)).toBe(true)
    expect([...statuses.keys()].filter((s) => s >= 400).length).toBeGreaterThan(5)
  }, 300_000)
})
