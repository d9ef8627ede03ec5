// One spec endpoint = one operation, mounted on the app: its request record runs the steps in DESIGN.md's order
// (steps.ts), then its handler, then the answer (answer.ts).
import type { Handler, Hono } from "hono"
import type { ApiVersion } from "../../domain/api-key/index.js"
import { MIN_POSITION_HEADER } from "../consistency-headers.js"
import { minPositionGate } from "../consistency.js"
import type { DepsOf } from "../deps.js"
import { errors } from "../errors.js"
import { readBodyText, TOO_LARGE } from "../request-body.js"
import { cached, defect, fail, finish } from "./answer.js"
import type { Operation } from "./operation.js"
import { faulted } from "./faults.js"
import { type Prepared, preparedPerWorld } from "./prepared.js"
import { AUTH_HEADERS, type Header, headerReader, isJson, newRequest, rawTarget, type RequestRecord } from "./request.js"
import { authenticated, authorized, decoded, positioned, versioned } from "./steps.js"

const isPromise = <A>(u: A | Promise<A>): u is Promise<A> => typeof (u as { then?: unknown } | null)?.then === "function"

/** Everything after the body is read; synchronous unless the handler is (a cached read answers without a promise). */
const checked = (p: Prepared, r: RequestRecord): Response | Promise<Response> => {
  const unauthenticated = authenticated(p, r)
  if (unauthenticated !== undefined) return fail(p, r, unauthenticated)
  // The faults of /_sim/faults, after authentication (pipeline/faults.ts): with none in force, one length check.
  return p.deps.sim.models.faults.api.length === 0 ? authenticatedWork(p, r) : faulted(p, r, authenticatedWork)
}

const authenticatedWork = (p: Prepared, r: RequestRecord): Response | Promise<Response> => {
  const refused = authorized(p, r) ?? versioned(p, r) ?? decoded(p, r)
  if (refused !== undefined) return fail(p, r, refused)
  const reads = p.reads
  if (reads !== undefined) {
    const badAsOf = positioned(p, r)
    if (badAsOf !== undefined) return fail(p, r, badAsOf)
    const hit = reads.get(r.apiVersion, r.key!, r.cacheTarget!)
    if (hit !== undefined) return cached(p, r, hit)
  }
  const { params, query, item, key, requestId, apiVersion, asOf, paginated } = r
  const result = p.op.handle({ params, query, item, key: key!, requestId, apiVersion, asOf, paginated }, p.deps)
  if (isPromise(result)) return result.then((res) => finish(p, r, res)).catch((error: unknown) => defect(p, r, error))
  return finish(p, r, result)
}

/**
 * `checked` inside the simulator's gate (a snapshot, revert or reset lands between requests, never inside one),
 * entered once the request has everything it waits for from the client: its body, its x-sim-min-position. A
 * request without credentials reads nothing of the world (it is a 401) and does not enter at all.
 */
const gated = (p: Prepared, r: RequestRecord): Response | Promise<Response> => {
  const key = r.header("x-api-key")
  if (key === undefined || key === "") return checked(p, r)
  return p.deps.sim.gate.shared(() => checked(p, r))
}

/** The request target and media type, then (for a write) its body, read whole before the request enters the gate. */
const run = (p: Prepared, r: RequestRecord): Response | Promise<Response> => {
  const { c, header } = r
  const { deps } = p
  try {
    const target = rawTarget(c.req.url)
    // Hono's path has the same text unless the request's was percent-encoded. When it has, Hono's string, which the
    // router's and the parameters' lookups have hashed already, keys the read cache: a copy would be hashed again.
    r.path = target.path === c.req.path ? c.req.path : target.path
    r.rawQuery = target.query
    r.query = r.rawQuery.length === 0 ? {} : (Object.fromEntries(new URLSearchParams(r.rawQuery)) as Record<string, string>)
    if (typeof r.query.context === "string") r.context = r.query.context
    if (!isJson(header("content-type"))) {
      // A request with no authentication at all is 401 whatever its type (the service answers so).
      const unsigned = AUTH_HEADERS.every((name) => header(name) === undefined)
      return fail(p, r, unsigned ? errors.missingApiKey() : errors.unsupportedMediaType())
    }
    if (p.op.method === "GET") return gated(p, r)
    // The body limit, here rather than in a middleware: a middleware layer costs every request.
    if (Number(header("content-length") ?? 0) > deps.bodyLimit) return fail(p, r, errors.payloadTooLarge(deps.bodyLimit))
    // The body is read whole before the request enters the gate: one still arriving holds back no snapshot.
    return readBodyText(c, deps.bodyLimit)
      .then((body) => {
        if (body === TOO_LARGE) return fail(p, r, errors.payloadTooLarge(deps.bodyLimit))
        r.body = body
        return gated(p, r)
      })
      .catch((error: unknown) => defect(p, r, error))
  } catch (error) {
    return defect(p, r, error)
  }
}

/**
 * `operations`: every operation mounted, so that one absent at a version can name what replaces it there. `depsOf`:
 * the world each request is for (one app's routes may serve many, app.ts).
 */
export const mount = (app: Hono, depsOf: DepsOf, op: Operation, operations: ReadonlyArray<Operation> = [op]): void => {
  const preparedFor = preparedPerWorld(op, operations)
  const start = (p: Prepared, c: Parameters<Handler>[0], header: Header) =>
    run(p, newRequest(c, header, p.deps.nextRequestId(), p.deps.defaultApiVersion as ApiVersion))
  const handler: Handler = (c) => {
    const p = preparedFor(depsOf(c))
    const header = headerReader(c)
    // The x-sim-min-position gate (consistency.ts) only when asked for: awaiting it costs every request. A
    // request without credentials is answered at once: it may not hold a connection in the wait.
    if (header(MIN_POSITION_HEADER) === undefined || header("x-api-key") === undefined || header("x-api-sign") === undefined)
      return start(p, c, header)
    return minPositionGate(c, p.deps).then((gate) => gate ?? start(p, c, header))
  }
  app.on(op.method, op.path, handler)
}
