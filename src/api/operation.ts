// One spec endpoint = one operation: the check pipeline in DESIGN.md's order, then its handler.
import type { Context, Hono } from "hono"
import type { Scope } from "../domain/api-key/index.js"
import type { ApiKeyRecord } from "../projections/workspace.js"
import type { AsOf } from "../projections/projection.js"
import { authenticate } from "./auth/authenticate.js"
import { checkAttributes, parseWrappedBody, type BodySpec, type JsonObject, type QuerySpec } from "./body.js"
import { POSITION_HEADER, POSITION_SENT } from "./consistency-headers.js"
import { minPositionGate } from "./consistency.js"
import { errorBody, type Page } from "./envelope.js"
import { errors, isApiError, type ApiError } from "./errors.js"
import { paginationQuery } from "./pagination.js"
import type { ApiDeps } from "./deps.js"
import { parseAsOf } from "./as-of.js"

export interface OperationContext {
  readonly params: Readonly<Record<string, string>>
  readonly query: Readonly<Record<string, string>>
  readonly item: JsonObject
  readonly key: ApiKeyRecord
  readonly requestId: string
  readonly apiVersion: string
  /** The x-sim-as-of position for reads; undefined means now. */
  readonly asOf: AsOf
}

export type OperationResult =
  | { readonly status: 200 | 201; readonly item: unknown }
  | { readonly status: 200; readonly page: Page<unknown> }
  | { readonly status: 200; readonly data: unknown }
  | ApiError

export interface Operation {
  readonly id: string
  readonly method: "GET" | "POST" | "PUT"
  readonly path: string
  readonly scope: Scope
  readonly paginated?: boolean
  readonly query?: QuerySpec
  readonly body?: BodySpec
  /** The network type the call touches, when the path tells it (403 network checks). */
  readonly networkType?: (params: Readonly<Record<string, string>>, deps: ApiDeps) => "main" | "test" | undefined
  /** Name of the path parameter holding a vault id (403 vault checks come before the body is read). */
  readonly vaultParam?: string
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

const isJson = (ct: string | undefined) => ct !== undefined && /^application\/json\s*(;|$)/i.test(ct)

/** Per-request state the failure path needs (kept out of closures: they cost an allocation per request). */
interface RequestState {
  readonly requestId: string
  apiVersion: string
  context: string | undefined
}

const fail = (c: Context, deps: ApiDeps, st: RequestState, e: ApiError): Response =>
  respond(c, e.status, errorBody(st.apiVersion, st.requestId, st.context, e), positionHeaders(c, deps, e.headers))

/** Every answer says how far this node's read models are (the consistency token, see consistency.ts). */
const positionHeaders = (c: Context, deps: ApiDeps, extra?: Record<string, string>): Record<string, string> => {
  c.set(POSITION_SENT as never, true as never)
  return { ...extra, [POSITION_HEADER]: String(deps.sim.models.position) }
}

export const mount = (app: Hono, deps: ApiDeps, op: Operation): void => {
  const querySpec = {
    required: op.query?.required ?? {},
    optional: { context: () => undefined, ...(op.paginated ? paginationQuery : {}), ...op.query?.optional },
  }
  const reads = op.method === "GET" ? makeReadCache(deps) : undefined
  app.on(op.method, op.path, async (c) => {
    const gate = await minPositionGate(c, deps)
    if (gate !== undefined) return gate
    const st: RequestState = { requestId: deps.nextRequestId(), apiVersion: deps.defaultApiVersion, context: undefined }
    try {
      const { path, query: rawQuery } = rawTarget(c.req.url)
      const query = rawQuery.length === 0 ? {} : (Object.fromEntries(new URLSearchParams(rawQuery)) as Record<string, string>)
      if (typeof query.context === "string") st.context = query.context
      const header = headerReader(c)
      if (!isJson(header("content-type"))) return fail(c, deps, st, errors.unsupportedMediaType())
      let body = ""
      if (op.method !== "GET") {
        // The body limit, here rather than in a middleware: a middleware layer costs every request.
        if (Number(header("content-length") ?? 0) > deps.bodyLimit) return fail(c, deps, st, errors.payloadTooLarge(deps.bodyLimit))
        body = await c.req.text()
        if (body.length > deps.bodyLimit) return fail(c, deps, st, errors.payloadTooLarge(deps.bodyLimit))
      }
      const auth = authenticate({ method: op.method, rawPath: path, rawQuery, body, header }, deps.sim.models.workspace, deps.auth)
      if (isApiError(auth)) return fail(c, deps, st, auth)
      st.apiVersion = auth.grant.apiVersion
      const params = c.req.param() as Record<string, string>
      const vaultId = op.vaultParam !== undefined ? params[op.vaultParam] : undefined
      const denied = deps.authorize(auth, {
        operationId: op.id,
        scope: op.scope,
        clientIp: deps.clientIp(c),
        networkType: op.networkType?.(params, deps) ?? (vaultId !== undefined ? deps.sim.models.workspace.vaultsById.get(vaultId)?.profile.type : undefined),
        vaultId,
      })
      if (denied !== undefined) return fail(c, deps, st, denied)
      const pinned = header("x-api-version")
      if (pinned !== undefined) {
        if (!deps.apiVersions.includes(pinned)) return fail(c, deps, st, errors.invalidApiVersion(deps.apiVersions))
        st.apiVersion = pinned
      }
      let item: JsonObject = {}
      if (op.method !== "GET") {
        const parsed = parseWrappedBody(body.length === 0 ? "{}" : body)
        if (isApiError(parsed)) return fail(c, deps, st, parsed)
        if (st.context === undefined) st.context = parsed.context
        item = parsed.item
      }
      const queryError = checkAttributes(query, querySpec, errors.extraQueryAttributes)
      if (queryError !== undefined) return fail(c, deps, st, queryError)
      if (op.body !== undefined) {
        const bodyError = checkAttributes(item, op.body, errors.extraBodyAttributes)
        if (bodyError !== undefined) return fail(c, deps, st, bodyError)
      }
      let asOf: AsOf
      let cacheKey: string | undefined
      if (reads !== undefined) {
        const parsedAsOf = parseAsOf(header("x-sim-as-of"), deps.sim.models)
        if (isApiError(parsedAsOf)) return fail(c, deps, st, parsedAsOf)
        asOf = parsedAsOf
        cacheKey = `${auth.grant.key}|${path}|${rawQuery}|${asOf ?? ""}`
        const hit = reads.get(cacheKey)
        if (hit !== undefined) return respond(c, 200, envelopeWith(st, hit), positionHeaders(c, deps))
      }
      const result = await op.handle({ params, query, item, key: auth, requestId: st.requestId, apiVersion: st.apiVersion, asOf }, deps)
      if (isApiError(result)) return fail(c, deps, st, result)
      const data = JSON.stringify("item" in result ? { item: result.item } : "page" in result ? result.page : result.data)
      if (cacheKey !== undefined && result.status === 200) reads!.set(cacheKey, data)
      return respond(c, result.status, envelopeWith(st, data), positionHeaders(c, deps))
    } catch (defect) {
      deps.log.error({ requestId: st.requestId, operation: op.id, defect })
      return fail(c, deps, st, errors.internal())
    }
  })
}

/** The success envelope around already-serialised data: the same bytes as JSON.stringify of the whole. */
const envelopeWith = (st: RequestState, data: string): string =>
  `{"apiVersion":${JSON.stringify(st.apiVersion)},"requestId":${JSON.stringify(st.requestId)}${st.context === undefined ? "" : `,"context":${JSON.stringify(st.context)}`},"data":${data}}`

/**
 * Answers of read operations are pure functions of (key, path, query, as-of) at a log position: while the log
 * does not move, a repeated read is served from its serialised data. Any new event empties the cache.
 */
const makeReadCache = (deps: ApiDeps) => {
  const entries = new Map<string, string>()
  let position = -2n
  const fresh = () => {
    if (deps.sim.models.position !== position) {
      entries.clear()
      position = deps.sim.models.position
    }
  }
  return {
    get: (key: string): string | undefined => {
      fresh()
      return entries.get(key)
    },
    set: (key: string, data: string): void => {
      fresh()
      if (entries.size >= 1024) entries.clear()
      entries.set(key, data)
    },
  }
}

const JSON_HEADERS = { "content-type": "application/json; charset=utf-8" } as const

/** A plain Response with plain-object headers: under @hono/node-server it is written without building Fetch Headers. */
export const respond = (_c: Context, status: number, body: string, headers?: Record<string, string>): Response =>
  new Response(body, { status, headers: headers === undefined ? JSON_HEADERS : { ...JSON_HEADERS, ...headers } })
