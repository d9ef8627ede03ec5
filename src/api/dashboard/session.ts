// Dashboard sessions: the admin token exchanged for an HttpOnly, SameSite=Strict cookie, and the cross-site checks
// every cookie-authenticated request passes (the Bearer token needs none: browsers never attach it by themselves).
import { randomBytes, timingSafeEqual } from "node:crypto"
import type { Context } from "hono"
import { ApiError } from "../errors.js"

export const SESSION_COOKIE = "custody_sim_session"
export const CSRF_HEADER = "x-csrf-token"
const IDLE_MS = 12 * 3600_000
const MAX_SESSIONS = 1000

interface Session {
  readonly csrf: string
  lastSeen: number
}

const same = (a: string, b: string) => {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}

export const readCookie = (header: string | undefined, name: string): string | undefined => {
  if (header === undefined) return undefined
  for (const part of header.split(";")) {
    const i = part.indexOf("=")
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim()
  }
  return undefined
}

const crossSite = () => new ApiError(403, "cross_site_request", "The dashboard refuses requests from another site.")

/**
 * A request another site made the browser send: Sec-Fetch-Site says so, or Origin names another origin than the
 * one the request was sent to (Host). Requests without either header (scripts, curl) are not a browser's.
 */
export const fromAnotherSite = (c: Context): boolean => {
  const site = c.req.header("sec-fetch-site")
  if (site !== undefined && site !== "same-origin" && site !== "none") return true
  const origin = c.req.header("origin")
  if (origin === undefined) return false
  const host = c.req.header("host") ?? new URL(c.req.url).host
  try {
    return new URL(origin).host !== host
  } catch {
    return true
  }
}

export interface Sessions {
  /** Opens a session: the cookie to set and the CSRF token the page sends back on every change. */
  readonly open: () => { readonly id: string; readonly csrf: string }
  readonly close: (c: Context) => void
  /** The session of the request's cookie, if any and still open. */
  readonly find: (c: Context) => Session | undefined
  /** The control plane's second way in: no cookie → false; a cookie with a failed cross-site check → an error. */
  readonly admit: (c: Context) => boolean | ApiError
}

export const makeSessions = (now: () => number = Date.now): Sessions => {
  const sessions = new Map<string, Session>()
  const find = (c: Context): Session | undefined => {
    const id = readCookie(c.req.header("cookie"), SESSION_COOKIE)
    if (id === undefined) return undefined
    const s = sessions.get(id)
    if (s === undefined) return undefined
    if (now() - s.lastSeen > IDLE_MS) {
      sessions.delete(id)
      return undefined
    }
    s.lastSeen = now()
    return s
  }
  return {
    open: () => {
      if (sessions.size >= MAX_SESSIONS) sessions.delete(sessions.keys().next().value!)
      const id = randomBytes(32).toString("base64url")
      const csrf = randomBytes(24).toString("base64url")
      sessions.set(id, { csrf, lastSeen: now() })
      return { id, csrf }
    },
    close: (c) => {
      const id = readCookie(c.req.header("cookie"), SESSION_COOKIE)
      if (id !== undefined) sessions.delete(id)
    },
    find,
    admit: (c) => {
      const s = find(c)
      if (s === undefined) return false
      if (fromAnotherSite(c)) return crossSite()
      const method = c.req.method
      if (method === "GET" || method === "HEAD") return true
      const token = c.req.header(CSRF_HEADER)
      if (token === undefined || !same(token, s.csrf))
        return new ApiError(403, "csrf_token_invalid", `A change made with the dashboard's cookie needs the page's ${CSRF_HEADER} header.`)
      return true
    },
  }
}

export const sessionCookie = (id: string, secure: boolean) =>
  `${SESSION_COOKIE}=${id}; Path=/; HttpOnly; SameSite=Strict${secure ? "; Secure" : ""}`
export const clearedCookie = () => `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0`
export { crossSite }
