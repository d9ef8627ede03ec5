// The one record a request carries through the pipeline's steps, and what is read off the raw request to fill it.
import type { Context } from "hono"
import type { ApiVersion } from "../../domain/api-key/index.js"
import type { AsOf } from "../../projections/projection.js"
import type { ApiKeyRecord } from "../../projections/workspace.js"
import type { JsonObject } from "../body.js"

export type Header = (name: string) => string | undefined

/**
 * A request's state, filled in step by step (mount.ts runs them in DESIGN.md's order). One object a request, its
 * every field set when it is made (one shape for V8); the steps take it as an argument, not through closures, which
 * would cost an allocation each per request.
 */
export interface RequestRecord {
  readonly c: Context
  readonly header: Header
  readonly requestId: string
  /** The key's version, then the pinned one (x-api-version); the default until authentication. */
  apiVersion: ApiVersion
  /** The `context` echoed in the answer: the query's, else the body's. */
  context: string | undefined
  /** The authenticated key, once known (a read's answer is cached per key). */
  key: ApiKeyRecord | undefined
  /** The request target's path, as sent (it is what was signed). */
  path: string
  /** The request target's query, as sent, without its `?`. */
  rawQuery: string
  query: Record<string, string>
  /** The body's text ("" for a GET). */
  body: string
  params: Readonly<Record<string, string>>
  /** `data.item` of the body, once read. */
  item: JsonObject
  paginated: boolean
  asOf: AsOf
  /** Where a read's answer is kept (see the read cache); undefined for writes. */
  cacheTarget: string | undefined
}

/** Stands for the query until the target is read (run sets the request's own). */
const NO_QUERY: Record<string, string> = Object.freeze({}) as Record<string, string>

export const newRequest = (c: Context, header: Header, requestId: string, apiVersion: ApiVersion): RequestRecord => ({
  c,
  header,
  requestId,
  apiVersion,
  context: undefined,
  key: undefined,
  path: "",
  rawQuery: "",
  query: NO_QUERY,
  body: "",
  params: {},
  item: {},
  paginated: false,
  asOf: undefined,
  cacheTarget: undefined,
})

export const rawTarget = (url: string): { path: string; query: string } => {
  const start = url.indexOf("/", url.indexOf("://") + 3)
  const hash = url.indexOf("#", start)
  const end = hash < 0 ? url.length : hash
  const q = url.indexOf("?", start)
  return q < 0 || q > end ? { path: url.slice(start, end), query: "" } : { path: url.slice(start, q), query: url.slice(q + 1, end) }
}

/** Header lookup from Node's own header object when served by @hono/node-server (no Fetch Headers built). */
export const headerReader = (c: Context): Header => {
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
export const makePathParams = () => {
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

export const AUTH_HEADERS = ["x-api-key", "x-api-sign", "x-api-timestamp", "x-api-passphrase"] as const

export const isJson = (ct: string | undefined) => ct !== undefined && (ct === "application/json" || /^application\/json\s*(;|$)/i.test(ct))
