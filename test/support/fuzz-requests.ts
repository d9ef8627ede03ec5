// Fuzzed requests for the socket fuzz test and the fuzz campaign script: valid and invalid, signed and not,
// over the spec's operations and the control plane.
import fc from "fast-check"
import { signRequest, type Credentials } from "../../src/client/signing.js"
import type { Answer, Call } from "./strict-http.js"

export interface FuzzTarget {
  readonly testVaultId: string
  readonly creds: Credentials
  readonly adminToken: string
  /** The body limit the server was given: some bodies go past it. */
  readonly bodyLimit: number
}

/** A request before its credentials are known (the vault ids and keys exist only once the harness runs). */
export interface Plan {
  readonly method: string
  readonly path: (vault: string) => string
  readonly body?: string
  readonly auth: "signed" | "none" | "admin" | "bad-admin" | "tampered"
  readonly tamper?: "body" | "timestamp" | "key" | "passphrase" | "signature" | "drop-sign"
  readonly headers: Record<string, string>
  /** How the client misbehaves with the body (fuzz-misbehave.ts): cut off and gone, a malformed chunk, or slow. */
  readonly misbehave?: Misbehaviour
}

export type Misbehaviour = "abort" | "bad-chunk" | "slow"

const word = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: "grapheme", maxLength: 8 }),
  fc.constantFrom("", "..", "%", "test", "main", "ethereum", "sepolia"),
)
const segment = word.map((s) => encodeURIComponent(s))
const query = fc
  .array(
    fc.tuple(
      fc.oneof(fc.constantFrom("context", "limit", "startingAfter", "extra", "fromPosition"), fc.string({ maxLength: 6 })),
      fc.oneof(word, fc.string({ maxLength: 300 })),
    ),
    { maxLength: 3 },
  )
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
  fc
    .record({ name: fc.string({ maxLength: 120 }), color: fc.constantFrom("#000000", "red", "#12345"), isHiddenInDashboard: fc.boolean() })
    .map((item) => JSON.stringify({ data: { item } })),
  fc.string({ maxLength: 60 }),
  fc.nat({ max: 3 * 16 * 1024 }).map((n) => JSON.stringify({ data: { item: { name: "n".repeat(n) } } })),
)

const extraHeaders = fc.record(
  {
    "x-sim-min-position": fc.oneof(
      fc.constantFrom("0", "1", "-1", "abc", "1e3", " 2", "99999999999999999999999"),
      fc.string({ maxLength: 10 }),
    ),
    "x-api-version": fc.oneof(fc.constantFrom("2024-05-09", "2025-09-23", "2026-03-20", "1999-01-01"), fc.string({ maxLength: 10 })),
    "content-type": fc.constantFrom("application/json", "text/plain", "application/json; charset=utf-8", "application/jsonx", ""),
    "x-sim-as-of": fc.oneof(fc.constantFrom("0", "1", "x"), fc.string({ maxLength: 8 })),
  },
  { requiredKeys: [] },
)
// Header values must be ISO-8859-1 without control characters to be sent at all.
const sendable = (headers: Record<string, string>) =>
  Object.fromEntries(Object.entries(headers).filter(([, v]) => /^[\x20-\x7e]*$/.test(v)))

const randomPlan: fc.Arbitrary<Plan> = fc
  .record({
    method: fc.constantFrom("GET", "GET", "POST", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"),
    template: fc.nat({ max: templates.length - 1 }),
    segments: fc.array(segment, { minLength: 3, maxLength: 3 }),
    query,
    body: fc.option(jsonBody, { nil: undefined }),
    auth: fc.constantFrom("signed", "signed", "none", "admin", "bad-admin", "tampered") as fc.Arbitrary<Plan["auth"]>,
    tamper: fc.constantFrom("body", "timestamp", "key", "passphrase", "signature", "drop-sign") as fc.Arbitrary<
      NonNullable<Plan["tamper"]>
    >,
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
  fc
    .constantFrom("/vaults", "/vaults/test", "/vaults?limit=2", "/supported-assets")
    .map((p) => ({ method: "GET", path: () => p, auth: "signed" as const, headers: {} })),
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

/** Snapshot, revert and reset, spelled as a client might: percent-encoded, with dot segments, a trailing slash. */
const worldPaths = fc.constantFrom(
  "/_sim/snapshots",
  "/_sim/%73napshots",
  "/%5Fsim/snapshots",
  "/_sim/snapshots/",
  "/_sim/reset",
  "/_sim/rese%74",
  "/%5Fsim/reset",
  "/_sim/./reset",
  "/_sim/snapshots/../reset",
  "/_sim/snapshots/1/revert",
  "/_sim/snapshots/%31/revert",
  "/_sim/snapshots/2/revert/",
  "/%5F%73im/snapshots/%33/revert",
  "/_sim/snapshots/999/revert",
)
const worldPlan: fc.Arbitrary<Plan> = fc
  .record({
    path: worldPaths,
    auth: fc.constantFrom("admin", "admin", "admin", "none", "bad-admin") as fc.Arbitrary<Plan["auth"]>,
    body: fc.option(fc.constantFrom("", "{}", "[]", '{"a":1}'), { nil: undefined }),
    headers: fc.constantFrom<Record<string, string>>({}, {}, { "x-sim-min-position": "0" }, { "x-sim-min-position": "1" }),
  })
  .map(({ path, auth, body, headers }) => ({ method: "POST", path: () => path, auth, headers, ...(body !== undefined ? { body } : {}) }))

/** Requests whose client misbehaves with the body, signed or not, on writes of both planes and world-replacing calls. */
const misbehavingPlan: fc.Arbitrary<Plan> = fc
  .record({
    misbehave: fc.constantFrom<Misbehaviour>("abort", "bad-chunk", "slow"),
    route: fc.constantFrom("account", "clock", "world"),
    world: worldPaths,
    auth: fc.constantFrom("signed", "none", "admin") as fc.Arbitrary<Plan["auth"]>,
    minPosition: fc.boolean(),
  })
  .map(({ misbehave, route, world, auth, minPosition }) => ({
    method: "POST",
    path: (v: string) => (route === "account" ? `/vaults/${v}/vault-account` : route === "clock" ? "/_sim/clock/advance" : world),
    body:
      route === "account"
        ? JSON.stringify({ data: { item: { name: "misbehaved", color: "#00AA00", isHiddenInDashboard: false } } })
        : route === "clock"
          ? '{"seconds":1}'
          : "{}",
    auth: route === "account" ? auth : auth === "none" ? "none" : "admin",
    headers: (minPosition ? { "x-sim-min-position": "1" } : {}) as Record<string, string>,
    misbehave,
  }))

const WORLD_ROUTE = /^\/_sim\/(?:reset|snapshots|snapshots\/[^/]+\/revert)\/?$/

/** The path as the router sees it: dot segments resolved, percent-decoded (undefined when it does not decode). */
const routedPath = (call: Call): string | undefined => {
  try {
    return decodeURI(new URL(call.path, "http://fuzz.test").pathname)
  } catch {
    return undefined
  }
}

/** A snapshot, revert or reset, however spelled. */
export const worldReplacing = (call: Call): boolean => call.method === "POST" && WORLD_ROUTE.test(routedPath(call) ?? "")

/** A control-plane call, however spelled: its errors are in the control plane's shape. */
export const controlPlane = (call: Call): boolean => (routedPath(call) ?? call.path).startsWith("/_sim/")

export const toCall = (t: FuzzTarget, plan: Plan): Call => {
  const path = plan.path(t.testVaultId)
  const body = plan.body ?? ""
  const headers: Record<string, string> = { "content-type": "application/json" }
  if (plan.auth === "admin") headers.authorization = `Bearer ${t.adminToken}`
  if (plan.auth === "bad-admin") headers.authorization = `Bearer ${t.adminToken.slice(1)}x`
  if (plan.auth === "signed" || plan.auth === "tampered") {
    Object.assign(headers, signRequest(t.creds, { method: plan.method, url: path, body }))
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

/** Three fuzzed requests for one valid one; one in about 40 a snapshot, revert or reset, as many misbehaving. */
export const fuzzPlans = (count: number, seed: number): Array<Plan> =>
  fc.sample(
    fc.oneof(
      { arbitrary: randomPlan, weight: 30 },
      { arbitrary: validPlan, weight: 10 },
      { arbitrary: worldPlan, weight: 1 },
      { arbitrary: misbehavingPlan, weight: 1 },
    ),
    { numRuns: count, seed },
  )

/**
 * The documented answer to an `x-sim-min-position` this node has not reached: 503 `service_unavailable` after the
 * wait, with `retry-after` and the node's `x-sim-position` below the position asked for (a fuzzed digit string can
 * name a position the log has not reached yet). Not a fault; any other 5xx is.
 */
export const isUnreachedPosition = (call: Call, answer: Answer): boolean => {
  const wanted = call.headers?.["x-sim-min-position"]?.trim()
  const at = answer.headers["x-sim-position"]
  if (
    answer.status !== 503 ||
    wanted === undefined ||
    !/^(0|[1-9][0-9]{0,19})$/.test(wanted) ||
    typeof at !== "string" ||
    !/^-?[0-9]+$/.test(at)
  )
    return false
  if (answer.headers["retry-after"] !== "1" || BigInt(at) >= BigInt(wanted)) return false
  try {
    return (JSON.parse(answer.text) as { error?: { code?: unknown } }).error?.code === "service_unavailable"
  } catch {
    return false
  }
}
