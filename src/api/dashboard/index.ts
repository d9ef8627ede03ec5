// The dashboard at /ui: its page and built files, login and logout, and the control-plane routes it reads and
// changes the simulated world through (the same ones a script uses with the Bearer token).
import type { Context, Hono } from "hono"
import type { DepsOf } from "../deps.js"
import { parseJsonBody } from "../body.js"
import { ApiError, errors, isApiError } from "../errors.js"
import { readBodyText, TOO_LARGE } from "../request-body.js"
import { simError, type SimRoute } from "../sim/common.js"
import { dashboardActions } from "./actions.js"
import { uiFile } from "./assets.js"
import { clearedCookie, crossSite, fromAnotherSite, sessionCookie, type Sessions } from "./session.js"
import { timelineRoutes } from "./timeline.js"
import { dashboardViews } from "./views.js"
import { logSearchRoutes } from "./log.js"
import { timingSafeEqual } from "node:crypto"

export { makeSessions, type Sessions } from "./session.js"

export const dashboardSimRoutes: ReadonlyArray<SimRoute> = [...dashboardViews, ...dashboardActions, ...timelineRoutes, ...logSearchRoutes]

const PAGE_HEADERS = {
  "content-security-policy":
    "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cache-control": "no-cache",
}

const notBuilt = `<!doctype html><meta charset="utf-8"><title>custody-sim dashboard</title>
<p>The dashboard's files are not built. Run <code>npm run build:ui</code> (or <code>npm run build</code>) and reload.</p>`

const tokenMatches = (given: unknown, token: string) => {
  if (typeof given !== "string") return false
  const a = Buffer.from(given)
  const b = Buffer.from(token)
  return a.length === b.length && timingSafeEqual(a, b)
}

const page = async (c: Context) => {
  const f = await uiFile("index.html")
  return f === undefined
    ? c.html(notBuilt, 503, PAGE_HEADERS)
    : c.body(f.body as Uint8Array<ArrayBuffer>, 200, { ...PAGE_HEADERS, "content-type": f.type })
}

const notJson = () => new ApiError(400, "invalid_request_body_structure", 'The body must be JSON: { "token": "<admin token>" }.')

export const mountDashboard = (app: Hono, depsOf: DepsOf, sessions: Sessions): void => {
  app.get("/ui", page)
  app.get("/ui/", page)
  app.get("/ui/assets/:name", async (c) => {
    const name = c.req.param("name")
    const f = /^[A-Za-z0-9_.-]+$/.test(name) && !name.startsWith(".") ? await uiFile(`assets/${name}`) : undefined
    if (f === undefined) return simError(c, new ApiError(404, "resource_not_found", "No such dashboard file."))
    return c.body(f.body as Uint8Array<ArrayBuffer>, 200, {
      "content-type": f.type,
      "cache-control": "no-cache",
      "x-content-type-options": "nosniff",
    })
  })
  app.get("/ui/session", (c) => {
    const s = sessions.find(c)
    c.header("cache-control", "no-store")
    return c.json(s === undefined ? { authenticated: false } : { authenticated: true, csrfToken: s.csrf })
  })
  app.post("/ui/session", async (c) => {
    if (fromAnotherSite(c)) return simError(c, crossSite())
    const deps = depsOf(c)
    let body: unknown
    try {
      const text = await readBodyText(c, deps.bodyLimit)
      const json = text === TOO_LARGE ? errors.payloadTooLarge(deps.bodyLimit) : parseJsonBody(text, notJson)
      if (isApiError(json)) return simError(c, json)
      body = json.value
    } catch {
      return simError(c, errors.bodyAborted())
    }
    if (!tokenMatches((body as { token?: unknown } | null)?.token, deps.sim.adminToken))
      return simError(c, new ApiError(401, "unauthorized", "That is not the admin token."))
    const { id, csrf } = sessions.open()
    c.header("set-cookie", sessionCookie(id, new URL(c.req.url).protocol === "https:"))
    c.header("cache-control", "no-store")
    return c.json({ authenticated: true, csrfToken: csrf })
  })
  app.delete("/ui/session", (c) => {
    const admitted = sessions.admit(c)
    if (admitted instanceof ApiError) return simError(c, admitted)
    sessions.close(c)
    c.header("set-cookie", clearedCookie())
    return c.json({ authenticated: false })
  })
}
