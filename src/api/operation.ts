// One spec endpoint = one operation: the check pipeline in DESIGN.md's order, then its handler.
import type { Context, Hono } from "hono"
import type { Scope } from "../domain/api-key/index.js"
import type { ApiKeyRecord } from "../projections/workspace.js"
import type { AsOf } from "../projections/projection.js"
import { authenticate } from "./auth/authenticate.js"
import { checkAttributes, parseWrappedBody, type BodySpec, type JsonObject, type QuerySpec } from "./body.js"
import { errorBody, successBody, type Page } from "./envelope.js"
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

export const mount = (app: Hono, deps: ApiDeps, op: Operation): void => {
  app.on(op.method, op.path, async (c) => {
    const requestId = deps.nextRequestId()
    const { path, query: rawQuery } = rawTarget(c.req.url)
    const query = Object.fromEntries(new URLSearchParams(rawQuery)) as Record<string, string>
    let context: string | undefined = typeof query.context === "string" ? query.context : undefined
    let apiVersion = deps.defaultApiVersion
    const fail = (e: ApiError) => respond(c, e.status, errorBody(apiVersion, requestId, context, e), e.headers)
    try {
      const header = headerReader(c)
      if (!isJson(header("content-type"))) return fail(errors.unsupportedMediaType())
      const body = op.method === "GET" ? "" : await c.req.text()
      const auth = authenticate(
        { method: op.method, rawPath: path, rawQuery, body, header },
        deps.sim.models.workspace,
        deps.auth,
      )
      if (isApiError(auth)) return fail(auth)
      apiVersion = auth.grant.apiVersion
      const params = c.req.param() as Record<string, string>
      const vaultId = op.vaultParam !== undefined ? params[op.vaultParam] : undefined
      const denied = deps.authorize(auth, {
        operationId: op.id,
        scope: op.scope,
        clientIp: deps.clientIp(c),
        networkType: op.networkType?.(params, deps) ?? (vaultId !== undefined ? deps.sim.models.workspace.vaultsById.get(vaultId)?.profile.type : undefined),
        vaultId,
      })
      if (denied !== undefined) return fail(denied)
      const pinned = header("x-api-version")
      if (pinned !== undefined) {
        if (!deps.apiVersions.includes(pinned)) return fail(errors.invalidApiVersion(deps.apiVersions))
        apiVersion = pinned
      }
      let item: JsonObject = {}
      if (op.method !== "GET") {
        const parsed = parseWrappedBody(body.length === 0 ? "{}" : body)
        if (isApiError(parsed)) return fail(parsed)
        if (context === undefined) context = parsed.context
        item = parsed.item
      }
      const queryError = checkAttributes(
        query,
        {
          required: op.query?.required ?? {},
          optional: { context: () => undefined, ...(op.paginated ? paginationQuery : {}), ...op.query?.optional },
        },
        errors.extraQueryAttributes,
      )
      if (queryError !== undefined) return fail(queryError)
      if (op.body !== undefined) {
        const bodyError = checkAttributes(item, op.body, errors.extraBodyAttributes)
        if (bodyError !== undefined) return fail(bodyError)
      }
      let asOf: AsOf
      if (op.method === "GET") {
        const parsedAsOf = parseAsOf(header("x-sim-as-of"), deps.sim.models)
        if (isApiError(parsedAsOf)) return fail(parsedAsOf)
        asOf = parsedAsOf
      }
      const result = await op.handle({ params, query, item, key: auth, requestId, apiVersion, asOf }, deps)
      if (isApiError(result)) return fail(result)
      const data = "item" in result ? { item: result.item } : "page" in result ? result.page : result.data
      return respond(c, result.status, successBody(apiVersion, requestId, context, data))
    } catch (defect) {
      deps.log.error({ requestId, operation: op.id, defect })
      return fail(errors.internal())
    }
  })
}

const JSON_HEADERS = { "content-type": "application/json; charset=utf-8" } as const

/** A plain Response with plain-object headers: under @hono/node-server it is written without building Fetch Headers. */
export const respond = (_c: Context, status: number, body: string, headers?: Record<string, string>): Response =>
  new Response(body, { status, headers: headers === undefined ? JSON_HEADERS : { ...JSON_HEADERS, ...headers } })
