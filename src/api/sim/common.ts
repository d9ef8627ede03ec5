// Control plane plumbing: admin token guard, plain-JSON bodies and answers, `{ error: { code, message } }` errors.
import { timingSafeEqual } from "node:crypto"
import type { Context, Hono, MiddlewareHandler } from "hono"
import { parseJsonBody, type JsonObject } from "../body.js"
import type { ApiDeps, DepsOf } from "../deps.js"
import { errorBody } from "../envelope.js"
import { ApiError, errors, isApiError } from "../errors.js"
import { type BodyText, readBodyText, requestAborted, TOO_LARGE } from "../request-body.js"
import { respond } from "../respond.js"
import type { PathParamNames } from "../pipeline/typed.js"

export type SimResult = { readonly status: number; readonly body: unknown } | { readonly response: Response } | ApiError

export interface SimRoute {
  readonly method: "GET" | "POST" | "PUT" | "DELETE"
  readonly path: string
  /** Health is public; everything else needs `Authorization: Bearer <admin token>`. */
  readonly public?: boolean
  /** The handler reads the body itself (not a JSON object, e.g. JSON lines). */
  readonly rawBody?: boolean
  /**
   * It replaces the world (a snapshot, a revert, a reset): it waits for the requests in the simulator's gate
   * itself, so it never runs inside it. Decided by the route that runs, whatever spelling of its path reached it.
   */
  readonly replacesWorld?: boolean
  /**
   * It streams its body (rawBody) and enters the simulator's gate itself once it has all of it: a body that stalls
   * holds back no snapshot, revert or reset.
   */
  readonly entersGateItself?: boolean
  /** A page a browser opens from a link: the admin token may also come as `?token=` (never logged: see request-log.ts). */
  readonly tokenInQuery?: boolean
  readonly handle: (
    req: { params: Record<string, string>; query: Record<string, string>; body: JsonObject; c: Context },
    deps: ApiDeps,
  ) => SimResult | Promise<SimResult>
}

/** A route's request, its path parameters named by its path (each one set: the router matched them). */
interface SimRequest<P extends string> {
  readonly params: { readonly [K in PathParamNames<P>]: string }
  readonly query: Record<string, string>
  readonly body: JsonObject
  readonly c: Context
}

/**
 * A control-plane route whose handler reads its path parameters typed from its path. The router sets every
 * parameter its path names, so the request is the typed one; the one cast below says so to the compiler.
 */
export const simRoute = <P extends string>(
  route: Omit<SimRoute, "path" | "handle"> & {
    readonly path: P
    readonly handle: (req: SimRequest<P>, deps: ApiDeps) => SimResult | Promise<SimResult>
  },
): SimRoute => route as unknown as SimRoute

const sameToken = (given: string, token: string): boolean => {
  const a = Buffer.from(given)
  const b = Buffer.from(token)
  return a.length === b.length && timingSafeEqual(a, b)
}

const tokenMatches = (header: string | undefined, token: string): boolean =>
  header?.startsWith("Bearer ") === true && sameToken(header.slice(7), token)

export const simError = (c: Context, e: ApiError) =>
  c.json({ error: { code: e.code, message: e.message, ...(e.details.length > 0 ? { details: e.details } : {}) } }, e.status, e.headers)

/** The body read by `simBodies`, for the route to parse (absent for GET and for the import, which streams it). */
const BODY = "custody-sim.body" as never

/**
 * The control plane's body limit and reader, ahead of the routes (a body over the limit is a 413 whoever sends it):
 * the body is read whole here, off the request, so that a route enters the simulator's gate with it in hand. The
 * reader settles however the body ends; a body the client cut off is answered (to no one) and goes no further.
 */
export const simBodies =
  (depsOf: DepsOf): MiddlewareHandler =>
  async (c, next) => {
    // An imported log has no size limit: the import reads it as a stream of lines.
    if (c.req.method === "GET" || c.req.method === "HEAD" || c.req.path === "/_sim/import") return next()
    const deps = depsOf(c)
    const tooLarge = () => {
      const e = errors.payloadTooLarge(deps.bodyLimit)
      return respond(c, e.status, errorBody(deps.defaultApiVersion, deps.nextRequestId(), undefined, e))
    }
    if (Number(c.req.header("content-length") ?? 0) > deps.bodyLimit) return tooLarge()
    let text: BodyText
    try {
      text = await readBodyText(c, deps.bodyLimit)
    } catch {
      deps.log.info(`${c.req.method} ${c.req.path}: request body aborted by the client`)
      return simError(c, errors.bodyAborted())
    }
    if (text === TOO_LARGE) return tooLarge()
    c.set(BODY, text as never)
    return next()
  }

/** A JSON object body, the fixture's asset id taken (a deposit's assetId). */
const objectBody = (text: string, deps: ApiDeps): JsonObject | ApiError => {
  if (text.length === 0) return {}
  const json = parseJsonBody(text)
  if (isApiError(json)) return json
  const parsed = json.value
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    return new ApiError(400, "invalid_request_body_structure", "The body must be a JSON object.")
  const body = parsed as JsonObject
  return deps.sim.assetIds.any && typeof body.assetId === "string" ? { ...body, assetId: deps.sim.assetIds.fromWire(body.assetId) } : body
}

export const mountSim = (app: Hono, depsOf: DepsOf, route: SimRoute): void => {
  app.on(route.method, route.path, async (c) => {
    const deps = depsOf(c)
    try {
      const linked = route.tokenInQuery === true && sameToken(c.req.query("token") ?? "", deps.sim.adminToken)
      if (!route.public && !linked && !tokenMatches(c.req.header("authorization"), deps.sim.adminToken)) {
        const session = deps.adminSession?.(c) ?? false
        if (isApiError(session)) return simError(c, session)
        if (!session) return simError(c, new ApiError(401, "unauthorized", "The control plane needs Authorization: Bearer <admin token>."))
      }
      let body: JsonObject = {}
      if ((route.method === "POST" || route.method === "PUT") && !route.rawBody) {
        const parsed = objectBody((c.get(BODY) as string | undefined) ?? (await c.req.text()), deps)
        if (isApiError(parsed)) return simError(c, parsed)
        body = parsed
      }
      const query = Object.fromEntries(new URL(c.req.url).searchParams) as Record<string, string>
      const req = { params: c.req.param() as Record<string, string>, query, body, c }
      // Inside the simulator's gate, with everything the client had to send in hand.
      const gated = route.replacesWorld !== true && route.entersGateItself !== true
      const result = await (gated ? deps.sim.gate.shared(() => route.handle(req, deps)) : route.handle(req, deps))
      if (isApiError(result)) return simError(c, result)
      if ("response" in result) return result.response
      return c.json(result.body as object, result.status as 200)
    } catch (defect) {
      if (requestAborted(c)) {
        deps.log.info(`${route.method} ${route.path}: request body aborted by the client`)
        return simError(c, errors.bodyAborted())
      }
      deps.log.error({ route: route.path, defect })
      return simError(c, errors.internal())
    }
  })
}
