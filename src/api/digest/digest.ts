// The canonical snapshot of the read models as of a point (what every read endpoint answers), and its digest.
import { defaultOperations } from "../operations.js"
import { makeAuthorizer } from "../auth/authorize.js"
import { makeRateLimiter } from "../auth/rate-limit.js"
import type { ApiDeps } from "../deps.js"
import { readsOf } from "../reads.js"
import { API_VERSIONS } from "../envelope.js"
import { isApiError } from "../errors.js"
import { pagedAt, type Operation, type OperationResult } from "../operation.js"
import { allScopes, OLDEST_API_VERSION, type ApiKeyGrant } from "../../domain/api-key/index.js"
import type { AsOf } from "../../projections/projection.js"
import type { ApiKeyRecord } from "../../projections/workspace.js"
import type { Simulator } from "../../runtime/simulator.js"
import { canonicalJson, sha256Hex } from "./canonical.js"
import { readProbes, type Probe } from "./probes.js"

export const DIGEST_FORMAT = "custody-sim/digest@1"

// The answers are those of a key that sees every vault of both network types.
const everything: ApiKeyGrant = {
  key: "audit",
  name: "audit",
  secret: "",
  passphraseSalt: "",
  passphraseHash: "",
  scopes: allScopes,
  vaultIds: null,
  networkTypes: ["main", "test"],
  ipAllowlist: null,
  plan: { mainnets: true, endpoints: "all" },
  apiVersion: API_VERSIONS[0]!,
  activeFrom: null,
  rateLimit: { perSecond: 1, burst: 1 },
}
/** A key that sees every vault of both network types (the audit's and the dashboard's reads). */
export const auditKey: ApiKeyRecord = {
  grant: everything,
  secretBytes: Buffer.alloc(0),
  revoked: false,
  position: -1n,
  revokedPosition: undefined,
}

export const readDeps = (sim: Simulator): ApiDeps => ({
  sim,
  reads: readsOf(sim),
  auth: { wallNow: () => 0, rateLimiter: makeRateLimiter() },
  authorize: makeAuthorizer(),
  clientIp: () => undefined,
  nextRequestId: () => "",
  defaultApiVersion: API_VERSIONS[0]!,
  apiVersions: API_VERSIONS,
  log: { error: () => {}, info: () => {} },
  bodyLimit: 0,
  authFailures: undefined,
})

const readOperation = (id: string): Operation | undefined => defaultOperations.find((o) => o.method === "GET" && o.id === id)

type Answer = { readonly status: number; readonly body: unknown }

const shape = (r: OperationResult): Answer =>
  isApiError(r)
    ? { status: r.status, body: { error: r.code } }
    : { status: r.status, body: "item" in r ? r.item : "page" in r ? r.page.items : "items" in r ? { items: r.items } : r.data }

/** One probe's answer; a paginated listing is followed to its last page (500 items a page). */
export const answer = async (deps: ApiDeps, p: Probe, asOf: AsOf): Promise<Answer> => {
  const op = readOperation(p.opId)
  if (op === undefined) return { status: 0, body: { error: `no operation ${p.opId}` } }
  // Each operation is asked at the first version it exists in; the answer is its version-independent value.
  const apiVersion = op.versions?.[0] ?? OLDEST_API_VERSION
  const ctx = { params: p.params, item: {}, key: auditKey, requestId: "", apiVersion, asOf, paginated: pagedAt(op, apiVersion) }
  if (!ctx.paginated) return shape(await op.handle({ ...ctx, query: {} }, deps))
  const items: Array<unknown> = []
  let after: string | undefined
  for (;;) {
    const r = await op.handle({ ...ctx, query: { limit: "500", ...(after !== undefined ? { startingAfter: after } : {}) } }, deps)
    if (isApiError(r) || !("page" in r)) return shape(r)
    items.push(...r.page.items)
    const last = r.page.items[r.page.items.length - 1] as { id?: unknown } | undefined
    if (!r.page.hasMore || typeof last?.id !== "string") return { status: r.status, body: items }
    after = last.id
  }
}

// Computed at call time: app.ts mounts the control-plane routes that import this module.
let firstVersion: ReadonlySet<string> | undefined
const firstVersionReads = (): ReadonlySet<string> =>
  (firstVersion ??= new Set(
    defaultOperations.filter((o) => o.versions === undefined || o.versions.includes(OLDEST_API_VERSION)).map((o) => o.id),
  ))

/** The read models' answers as of `asOf`: endpoint answers, raw balances, chain states, exchange rates. No positions. */
export const snapshot = async (sim: Simulator, asOf: AsOf): Promise<Record<string, unknown>> => {
  const deps = readDeps(sim)
  const m = sim.models
  const answers: Record<string, Answer> = {}
  // The reads of the first version: later versions show the same read models under other names and groupings.
  for (const p of readProbes(m, asOf)) if (firstVersionReads().has(p.opId)) answers[`GET ${p.path}`] = await answer(deps, p, asOf)
  const balances: Record<string, unknown> = {}
  for (const a of m.holdings.addresses.values()) {
    if (asOf !== undefined && a.position > asOf) continue
    const { blockchain, network, address } = a.facts
    for (const assetId of m.holdings.heldAssets(a, asOf))
      balances[`${blockchain}/${network}/${address}/${assetId}`] = m.holdings.balance(blockchain, network, address, assetId, asOf)
  }
  const chains: Record<string, unknown> = {}
  for (const [chain, view] of m.chains.chains) {
    const s = view.state.at(asOf)
    if (s !== undefined) chains[chain] = { height: s.height, ...s.schedule }
  }
  return { format: DIGEST_FORMAT, answers, balances, chains, exchangeRates: m.settings.exchangeRates(asOf) }
}

/** SHA-256 of the canonical JSON of the snapshot: two replays of one log share it, whatever the store. */
export const digestOf = async (sim: Simulator, asOf: AsOf): Promise<string> => sha256Hex(canonicalJson(await snapshot(sim, asOf)))

/** The digest as the audit report carries it (`runAudit`'s `digest` option). */
export const auditDigest =
  (sim: Simulator) =>
  async (asOf: AsOf): Promise<{ readonly format: typeof DIGEST_FORMAT; readonly sha256: string }> => ({
    format: DIGEST_FORMAT,
    sha256: await digestOf(sim, asOf),
  })
