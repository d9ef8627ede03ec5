// Control plane plumbing: admin token guard, plain-JSON bodies and answers, `{ error: { code, message } }` errors.
import { timingSafeEqual } from "node:crypto"
import type { Context, Hono } from "hono"
import type { JsonObject } from "../body.js"
import type { ApiDeps } from "../deps.js"
import { ApiError, errors, isApiError } from "../errors.js"
import { requestAborted } from "../request-body.js"

export type SimResult = { readonly status: number; readonly body: unknown } | { readonly response: Response } | ApiError

export interface SimRoute {
  readonly method: "GET" | "POST" | "PUT" | "DELETE"
  readonly path: string
  /** Health is public; everything else needs `Authorization: Bearer <admin token>`. */
  readonly public?: boolean
  /** The handler reads the body itself (not a JSON object, e.g. JSON lines). */
  readonly rawBody?: boolean
  /** A page a browser opens from a link: the admin token may also come as `?token=` (never logged: see request-log.ts). */
  readonly tokenInQuery?: boolean
  readonly handle: (req: { params: Record<string, string>; query: Record<string, string>; body: JsonObject; c: Context }, deps: ApiDeps) => SimResult | Promise<SimResult>
}

const sameToken = (given: string, token: string): boolean => {
  const a = Buffer.from(given)
  const b = Buffer.from(token)
  return a.length === b.length && timingSafeEqual(a, b)
}

const tokenMatches = (header: string | undefined, token: string): boolean => header !== undefined && header.startsWith("Bearer ") && sameToken(header.slice(7), token)

export const simError = (c: Context, e: ApiError) =>
  c.json({ error: { code: e.code, message: e.message, ...(e.details.length > 0 ? { details: e.details } : {}) } }, e.status, e.headers)

export const mountSim = (app: Hono, deps: ApiDeps, route: SimRoute): void => {
  app.on(route.method, route.path, async (c) => {
    try {
      const linked = route.tokenInQuery === true && sameToken(c.req.query("token") ?? "", deps.sim.adminToken)
      if (!route.public && !linked && !tokenMatches(c.req.header("authorization"), deps.sim.adminToken)) {
        const session = deps.adminSession?.(c) ?? false
        if (isApiError(session)) return simError(c, session)
        if (!session) return simError(c, new ApiError(401, "unauthorized", "The control plane needs Authorization: Bearer <admin token>."))
      }
      let body: JsonObject = {}
      if ((route.method === "POST" || route.method === "PUT") && !route.rawBody) {
        const text = await c.req.text()
        if (text.length > 0) {
          let parsed: unknown
          try {
            parsed = JSON.parse(text)
          } catch {
            return simError(c, errors.malformedJson())
          }
          if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
            return simError(c, new ApiError(400, "invalid_request_body_structure", "The body must be a JSON object."))
          body = parsed as JsonObject
          // The fixture's asset ids are taken here too (a deposit's assetId).
          if (deps.sim.assetIds.any && typeof body.assetId === "string") body = { ...body, assetId: deps.sim.assetIds.fromWire(body.assetId) }
        }
      }
      const query = Object.fromEntries(new URL(c.req.url).searchParams) as Record<string, string>
      const result = await route.handle({ params: c.req.param() as Record<string, string>, query, body, c }, deps)
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
