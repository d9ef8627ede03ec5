// One spec endpoint = one operation: the check pipeline in DESIGN.md's order, then its handler.
import type { Context, Handler, Hono } from "hono"
import { API_VERSIONS, type ApiVersion, type Scope } from "../domain/api-key/index.js"
import type { ApiKeyRecord } from "../projections/workspace.js"
import type { AsOf } from "../projections/projection.js"
import { authenticate } from "./auth/authenticate.js"
import { attributeChecker, parseWrappedBody, type BodySpec, type JsonObject, type QuerySpec } from "./body.js"
import { MIN_POSITION_HEADER } from "./consistency-headers.js"
import { minPositionGate } from "./consistency.js"
import { errorBody, type Page } from "./envelope.js"
import { errors, isApiError, type ApiError } from "./errors.js"
import { paginationQuery } from "./pagination.js"
import { malformedIdCheck } from "./path-ids.js"
import { readBodyText, requestAborted, TOO_LARGE } from "./request-body.js"
import type { ApiDeps } from "./deps.js"
import { parseAsOf } from "./as-of.js"
import { envelopeWith, makeReadCache, makeResponder } from "./respond.js"
import type { Present, Shape } from "./wire/shape.js"
import { mapAssetIds } from "../domain/chains/index.js"
import { absentAt } from "./version-paths.js"
import { answerObserver, type Observed } from "./answer-observer.js"

export interface OperationContext {
  readonly params: Readonly<Record<string, string>>
  readonly query: Readonly<Record<string, string>>
  readonly item: JsonObject
  readonly key: ApiKeyRecord
  readonly requestId: string
  readonly apiVersion: ApiVersion
  /** The x-sim-as-of position for reads; undefined means now. */
  readonly asOf: AsOf
  /** Whether this version pages the listing (`limit`, `startingAfter`, `hasMore`). */
  readonly paginated: boolean
}

export type OperationResult =
  | { readonly status: 200 | 201; readonly item: unknown }
  | { readonly status: 200; readonly page: Page<unknown> }
  | { readonly status: 200; readonly items: ReadonlyArray<unknown> }
  | { readonly status: 200; readonly data: unknown }
  | ApiError

export interface Operation {
  readonly id: string
  readonly method: "GET" | "POST" | "PUT"
  readonly path: string
  readonly scope: Scope
  /** Answers 201 (default: POST does, except where false). */
  readonly created?: boolean
  /** A listing paged by `limit` and `startingAfter`: always (true) or from a version on. */
  readonly paginated?: boolean | ApiVersion
  /** Its page size when the request sets no `limit`, where the service's differs from DEFAULT_LIMIT (pagination.ts). */
  readonly defaultLimit?: number
  /** `answer` describes each item of `data.items` (paged or not) rather than `data.item`. */
  readonly list?: boolean
  readonly query?: QuerySpec
  readonly body?: BodySpec
  /** The body from a version on, where a later version changed it (before the first entry: `body`). */
  readonly bodySince?: { readonly [V in ApiVersion]?: BodySpec }
  /** The network type the call touches, when the path tells it (403 network checks). */
  readonly networkType?: (params: Readonly<Record<string, string>>, deps: ApiDeps) => "main" | "test" | undefined
  /** Name of the path parameter holding a vault id (403 vault checks come before the body is read). */
  readonly vaultParam?: string
  /** Its answer also depends on the simulated time (resources regenerating), not only on the log: cached per instant. */
  readonly clockDependent?: boolean
  /**
   * Answer fields other than `assetId` and `feePayerAssetId` that hold asset ids (`id` of the asset listings, and
   * their `startingAfter`): mapped to and from the fixture's asset ids, as those two are everywhere.
   */
  readonly assetIdKeys?: ReadonlyArray<string>
  /** The versions it exists in (default: all); in any other it is an unknown route. */
  readonly versions?: ReadonlyArray<ApiVersion>
  /**
   * The answer's shape per version: the item, each item of a page, or the data (wire/shape.ts). Handlers return
   * version-independent values named as in the oldest version; each version writes them in its own names.
   */
  readonly answer?: Shape
  readonly handle: (ctx: OperationContext, deps: ApiDeps) => OperationResult | Promise<OperationResult>
}

const rawTarget = (url: string): { path: string; query: string } => {
  const start = url.indexOf("/", url.indexOf("://") + 3)
  const hash = url.indexOf("#", start)
  const end = hash < 0 ? url.length : hash
  const q = url.indexOf("?", start)
  return q < 0 || q > end ? { path: url.slice(start, end), query: "" } : { path: url.slice(start, q), query: url.slice(q + 1, end) }
}

/** Header lookup from Node's own header object when served by @hono/node-server (no Fetch Headers built). */
const headerReader = (c: Context): ((name: string) => string | undefined) => {
  const incoming = (c.env as { incoming?: { headers?: Record<string, string | Array<string> | undefined> } } | undefined)?.incoming?.headers
  if (incoming === undefined) return (name) => c.req.header(name)
  return (name) => {
    const v = incoming[name]
    return Array.isArray(v) ? v.join(", ") : v
  }
}

/** Paths whose parameters an operation keeps at most (paths carry ids, so any number of distinct ones may come). */
const MAX_KEPT_PARAMS = 1024

/**
 * An operation's path parameters, decoded, kept per request path. Hono decodes them anew on every call to
 * `c.req.param()` (a loop of keyed loads and stores over the router's match, ~0.5 µs of a vault-scoped read), while
 * they depend on the path alone; the path is the string the router has just looked up, so finding it again is cheap.
 * Handlers get them read-only (the asset-id mapping copies them).
 */
const makePathParams = () => {
  const kept = new Map<string, Readonly<Record<string, string>>>()
  return (c: Context): Readonly<Record<string, string>> => {
    const path = c.req.path
    let params = kept.get(path)
    if (params === undefined) {
      if (kept.size >= MAX_KEPT_PARAMS) kept.clear()
      params = c.req.param() as Record<string, string>
      kept.set(path, params)
    }
    return params
  }
}

const AUTH_HEADERS = ["x-api-key", "x-api-sign", "x-api-timestamp", "x-api-passphrase"] as const

const isJson = (ct: string | undefined) => ct !== undefined && (ct === "application/json" || /^application\/json\s*(;|$)/i.test(ct))

const isPromise = <A>(u: A | Promise<A>): u is Promise<A> => typeof (u as { then?: unknown } | null)?.then === "function"

/** Per-request state the failure path needs (kept out of closures: they cost an allocation per request). */
interface RequestState {
  readonly requestId: string
  apiVersion: ApiVersion
  context: string | undefined
  /** The authenticated key, once known (a read's answer is cached per key). */
  key: ApiKeyRecord | undefined
}

type Header = (name: string) => string | undefined

/** An answer the contract hook sees (answer-observer.ts). */
export type ObservedAnswer = Observed<Operation>

/** The body an operation takes at a version. */
export const bodyAt = (op: Operation, version: ApiVersion): BodySpec | undefined => {
  let body = op.body
  if (op.bodySince !== undefined)
    for (const v of API_VERSIONS)
      if (API_VERSIONS.indexOf(v) <= API_VERSIONS.indexOf(version) && op.bodySince[v] !== undefined) body = op.bodySince[v]
  return body
}

export const pagedAt = (op: Operation, version: ApiVersion): boolean =>
  op.paginated === true || (typeof op.paginated === "string" && API_VERSIONS.indexOf(version) >= API_VERSIONS.indexOf(op.paginated))

/** `operations`: every operation mounted, so that one absent at a version can name what replaces it there. */
export const mount = (app: Hono, deps: ApiDeps, op: Operation, operations: ReadonlyArray<Operation> = [op]): void => {
  const queryChecker = (paged: boolean) =>
    attributeChecker(
      {
        required: op.query?.required ?? {},
        optional: { context: () => undefined, ...(paged ? paginationQuery : {}), ...op.query?.optional },
      },
      errors.extraQueryAttributes,
    )
  const pagedQuery = queryChecker(true)
  const plainQuery = queryChecker(false)
  const bodyCheckers = new Map(
    API_VERSIONS.map((v) => {
      const spec = bodyAt(op, v)
      return [v, spec !== undefined ? attributeChecker(spec, errors.extraBodyAttributes) : undefined] as const
    }),
  )
  const hasParams = op.path.includes("/:")
  const idCheck = malformedIdCheck(op.path)
  const pathParams = hasParams ? makePathParams() : undefined
  const reads = op.method === "GET" ? makeReadCache(deps) : undefined
  const responder = makeResponder(deps, { flagPosition: op.path.startsWith("/_sim") })
  const observe = answerObserver<Operation>()
  const answer: typeof responder =
    observe === undefined
      ? responder
      : (c, status, body, extra) => {
          observe({ operation: op, status, body })
          return responder(c, status, body, extra)
        }
  const versions: ReadonlySet<string> = new Set(op.versions ?? API_VERSIONS)
  const presenters = new Map<string, Present>((op.versions ?? API_VERSIONS).map((v) => [v, op.answer?.at(v).present]))

  const fail = (c: Context, st: RequestState, e: ApiError): Response =>
    answer(c, e.status, errorBody(st.apiVersion, st.requestId, st.context, e), e.headers)

  const defect = (c: Context, st: RequestState, error: unknown): Response => {
    if (requestAborted(c)) {
      deps.log.info(`${op.method} ${op.path}: request body aborted by the client (request ${st.requestId})`)
      return fail(c, st, errors.bodyAborted())
    }
    deps.log.error({ requestId: st.requestId, operation: op.id, defect: error })
    return fail(c, st, errors.internal())
  }

  const assetIds = deps.sim.assetIds
  const assetIdKeys = op.assetIdKeys ?? []

  /** `cacheTarget`: where a read's answer is kept (see the read cache), undefined for writes. */
  const finish = (c: Context, st: RequestState, result: OperationResult, cacheTarget: string | undefined): Response => {
    if (isApiError(result)) return fail(c, st, result)
    const present = presenters.get(st.apiVersion)
    const value =
      present === undefined
        ? "item" in result
          ? { item: result.item }
          : "page" in result
            ? result.page
            : "items" in result
              ? { items: result.items }
              : result.data
        : "item" in result
          ? { item: present(result.item) }
          : "page" in result
            ? { ...result.page, items: result.page.items.map(present) }
            : "items" in result
              ? { items: result.items.map(present) }
              : present(result.data)
    const data = JSON.stringify(assetIds.any ? mapAssetIds(value, assetIds.toWire, assetIdKeys) : value)
    if (cacheTarget !== undefined && result.status === 200) reads!.set(st.apiVersion, st.key!, cacheTarget, data)
    return answer(c, result.status, envelopeWith(st.apiVersion, st.requestId, st.context, data))
  }

  /**
   * An operation the request's version has not (yet or any more) is an unknown route there; a read's x-sim-as-of
   * is still checked first, as every read endpoint's is.
   */
  const absent = (c: Context, st: RequestState, header: Header): Response => {
    const asOf = reads !== undefined ? parseAsOf(header("x-sim-as-of"), deps.sim.models) : undefined
    return fail(c, st, isApiError(asOf) ? asOf : absentAt(op, st.apiVersion, operations))
  }

  /** Everything after the body is read; synchronous unless the handler is (a cached read answers without a promise). */
  const checked = (
    c: Context,
    st: RequestState,
    header: Header,
    path: string,
    rawQuery: string,
    query: Record<string, string>,
    body: string,
  ): Response | Promise<Response> => {
    const auth = authenticate({ method: op.method, rawPath: path, rawQuery, body, header }, deps.sim.models.workspace, deps.auth)
    if (isApiError(auth)) {
      // Only a failed request is ever limited for failures (src/api/auth/failure-limit.ts): a valid one is served.
      const failures = deps.authFailures
      if (failures !== undefined && auth.status === 401) {
        const wait = failures.failed(header("x-api-key"), deps.clientIp(c))
        if (wait > 0) return fail(c, st, errors.tooManyFailedAuthentications(wait))
      }
      return fail(c, st, auth)
    }
    st.apiVersion = auth.grant.apiVersion as ApiVersion
    st.key = auth
    let params = pathParams !== undefined ? pathParams(c) : {}
    const vaultId = op.vaultParam !== undefined ? params[op.vaultParam] : undefined
    const denied = deps.authorize(auth, {
      operationId: op.id,
      scope: op.scope,
      // Only an allowlist looks at the caller's address.
      clientIp: auth.grant.ipAllowlist === null ? undefined : deps.clientIp(c),
      networkType:
        op.networkType?.(params, deps) ??
        (vaultId !== undefined ? deps.sim.models.workspace.vaultsById.get(vaultId)?.profile.type : undefined),
      vaultId,
    })
    if (denied !== undefined) return fail(c, st, denied)
    const pinned = header("x-api-version")
    if (pinned !== undefined) {
      if (!deps.apiVersions.includes(pinned)) return fail(c, st, errors.invalidApiVersion(deps.apiVersions))
      st.apiVersion = pinned as ApiVersion
    }
    if (!versions.has(st.apiVersion)) return absent(c, st, header)
    if (idCheck !== undefined) {
      const malformed = idCheck(params, st.apiVersion)
      if (malformed !== undefined) return fail(c, st, malformed)
    }
    let item: JsonObject = {}
    if (op.method !== "GET") {
      // A leading byte order mark is not part of the JSON text (RFC 8259 §8.1), nor of what was signed.
      const parsed = parseWrappedBody(body.length === 0 ? "{}" : body.charCodeAt(0) === 0xfeff ? body.slice(1) : body)
      if (isApiError(parsed)) return fail(c, st, parsed)
      if (st.context === undefined) st.context = parsed.context
      item = parsed.item
    }
    if (assetIds.any) {
      // The fixture's asset ids, in the path, the query and the body, become the catalogue's.
      if (params.assetId !== undefined) params = { ...params, assetId: assetIds.fromWire(params.assetId) }
      query = mapAssetIds(query, assetIds.fromWire, assetIdKeys) as Record<string, string>
      item = mapAssetIds(item, assetIds.fromWire) as JsonObject
    }
    const paginated = pagedAt(op, st.apiVersion)
    const queryError = (paginated ? pagedQuery : plainQuery)(query)
    if (queryError !== undefined) return fail(c, st, queryError)
    if (paginated && op.defaultLimit !== undefined && query.limit === undefined) query = { ...query, limit: String(op.defaultLimit) }
    const checkBody = bodyCheckers.get(st.apiVersion)
    if (checkBody !== undefined) {
      const bodyError = checkBody(item)
      if (bodyError !== undefined) return fail(c, st, bodyError)
    }
    let asOf: AsOf
    let cacheTarget: string | undefined
    if (reads !== undefined) {
      const parsedAsOf = parseAsOf(header("x-sim-as-of"), deps.sim.models)
      if (isApiError(parsedAsOf)) return fail(c, st, parsedAsOf)
      asOf = parsedAsOf
      // The path alone in the common case (no query, now): the string the request gave, nothing built. A request
      // target holds no raw space, so what follows one cannot be taken for a part of it.
      cacheTarget = rawQuery.length === 0 ? path : `${path}?${rawQuery}`
      if (asOf !== undefined) cacheTarget = `${cacheTarget} as-of ${asOf}`
      else if (op.clockDependent === true) cacheTarget = `${cacheTarget} at ${deps.sim.clock.now()}`
      const hit = reads.get(st.apiVersion, auth, cacheTarget)
      if (hit !== undefined) return answer(c, 200, envelopeWith(st.apiVersion, st.requestId, st.context, hit))
    }
    const result = op.handle({ params, query, item, key: auth, requestId: st.requestId, apiVersion: st.apiVersion, asOf, paginated }, deps)
    if (isPromise(result)) return result.then((r) => finish(c, st, r, cacheTarget)).catch((error: unknown) => defect(c, st, error))
    return finish(c, st, result, cacheTarget)
  }

  const gate = deps.sim.gate
  /**
   * `checked` inside the simulator's gate (a snapshot, revert or reset lands between requests, never inside one),
   * entered once the request has everything it waits for from the client: its body, its x-sim-min-position. A
   * request without credentials reads nothing of the world (it is a 401) and does not enter at all.
   */
  const gated = (
    c: Context,
    st: RequestState,
    header: Header,
    path: string,
    rawQuery: string,
    query: Record<string, string>,
    body: string,
  ): Response | Promise<Response> => {
    const key = header("x-api-key")
    if (key === undefined || key === "") return checked(c, st, header, path, rawQuery, query, body)
    return gate.shared(() => checked(c, st, header, path, rawQuery, query, body))
  }

  const run = (c: Context, header: Header): Response | Promise<Response> => {
    const st: RequestState = {
      requestId: deps.nextRequestId(),
      apiVersion: deps.defaultApiVersion as ApiVersion,
      context: undefined,
      key: undefined,
    }
    try {
      const target = rawTarget(c.req.url)
      // Hono's path has the same text unless the request's was percent-encoded. When it has, Hono's string, which the
      // router's and the parameters' lookups have hashed already, keys the read cache: a copy would be hashed again.
      const path = target.path === c.req.path ? c.req.path : target.path
      const rawQuery = target.query
      const query = rawQuery.length === 0 ? {} : (Object.fromEntries(new URLSearchParams(rawQuery)) as Record<string, string>)
      if (typeof query.context === "string") st.context = query.context
      if (!isJson(header("content-type"))) {
        // A request with no authentication at all is 401 whatever its type (the service answers so).
        const unsigned = AUTH_HEADERS.every((name) => header(name) === undefined)
        return fail(c, st, unsigned ? errors.missingApiKey() : errors.unsupportedMediaType())
      }
      if (op.method === "GET") return gated(c, st, header, path, rawQuery, query, "")
      // The body limit, here rather than in a middleware: a middleware layer costs every request.
      if (Number(header("content-length") ?? 0) > deps.bodyLimit) return fail(c, st, errors.payloadTooLarge(deps.bodyLimit))
      // The body is read whole before the request enters the gate: one still arriving holds back no snapshot.
      return readBodyText(c, deps.bodyLimit)
        .then((body) =>
          body === TOO_LARGE ? fail(c, st, errors.payloadTooLarge(deps.bodyLimit)) : gated(c, st, header, path, rawQuery, query, body),
        )
        .catch((error: unknown) => defect(c, st, error))
    } catch (error) {
      return defect(c, st, error)
    }
  }

  const handler: Handler = (c) => {
    const header = headerReader(c)
    // The x-sim-min-position gate (consistency.ts) only when asked for: awaiting it costs every request. A
    // request without credentials is answered at once: it may not hold a connection in the wait.
    if (header(MIN_POSITION_HEADER) === undefined || header("x-api-key") === undefined || header("x-api-sign") === undefined)
      return run(c, header)
    return minPositionGate(c, deps).then((gate) => gate ?? run(c, header))
  }
  app.on(op.method, op.path, handler)
}
