// The Host check of `custody-sim serve`: a web page the user visits can reach a local server through DNS
// rebinding (its own name, resolved to 127.0.0.1), but its requests still carry that name in `Host`.
import { randomBytes } from "node:crypto"
import { isIP } from "node:net"
import { API_VERSIONS, errorBody } from "./envelope.js"
import { ApiError } from "./errors.js"

type Fetch = (request: Request, env?: unknown) => Response | Promise<Response>

const LOOPBACK_NAMES = ["localhost", "127.0.0.1", "::1", "[::1]"]

/** 127.0.0.0/8, ::1, ::ffff:127.x.y.z and localhost (and its subdomains) all stay on this machine. */
export const isLoopback = (host: string): boolean => {
  const h = host.replace(/^\[|\]$/g, "").toLowerCase()
  if (h === "localhost" || h.endsWith(".localhost") || h === "::1") return true
  if (isIP(h) === 4) return h.startsWith("127.")
  return /^::ffff:127\./.test(h)
}

/** The name part of a Host header value (`name:port`, `[v6]:port`), lower-cased. */
export const hostName = (header: string): string => {
  const h = header.trim().toLowerCase()
  if (h.startsWith("[")) return h.slice(0, h.indexOf("]") + 1)
  const colon = h.lastIndexOf(":")
  return colon < 0 ? h : h.slice(0, colon)
}

export interface HostPolicy {
  /** The address the server is bound to (`--host`). */
  readonly bound: string
  /** Extra names or addresses accepted in `Host` (`--allow-host`); "*" accepts any. */
  readonly allowed: ReadonlyArray<string>
}

/**
 * Accepted: the loopback names and addresses, the bound address itself, and the allow-list; when bound beyond
 * loopback (--allow-remote), any IP address too (rebinding needs a name: a page at an address is that address).
 */
export const hostAllowed = (policy: HostPolicy): ((host: string | undefined) => boolean) => {
  if (policy.allowed.includes("*")) return () => true
  const anyAddress = !isLoopback(policy.bound)
  const names = new Set(
    [...LOOPBACK_NAMES, ...policy.allowed, policy.bound].map((n) =>
      hostName(n.includes(":") && !n.startsWith("[") && isIP(n) === 6 ? `[${n}]` : n),
    ),
  )
  return (host) => {
    if (host === undefined) return false
    const name = hostName(host)
    return names.has(name) || isLoopback(name) || (anyAddress && isIP(name.replace(/^\[|\]$/g, "")) !== 0)
  }
}

const refusal = (host: string | undefined): string => {
  const e = new ApiError(
    403,
    "host_not_allowed",
    `The Host ${JSON.stringify(host ?? "")} is not allowed: call the simulator by a loopback address or name, or start it with --allow-host.`,
    [{ attribute: "host", message: "must be a loopback name or address, or one given with --allow-host" }],
  )
  return errorBody(API_VERSIONS[0]!, randomBytes(12).toString("hex"), undefined, e)
}

/** Wraps the app's fetch: a request whose Host is not accepted gets 403 `host_not_allowed` and goes no further. */
export const guardHosts = (fetch: Fetch, policy: HostPolicy): Fetch => {
  const allowed = hostAllowed(policy)
  return (request, env) => {
    // Node's own header object under @hono/node-server: no Fetch Headers built for the check.
    const incoming = (env as { incoming?: { headers?: Record<string, string | Array<string> | undefined> } } | undefined)?.incoming?.headers
    const raw = incoming !== undefined ? incoming.host : (request.headers.get("host") ?? undefined)
    const host = Array.isArray(raw) ? raw[0] : raw
    if (allowed(host)) return fetch(request, env)
    return new Response(refusal(host), { status: 403, headers: { "content-type": "application/json; charset=utf-8" } })
  }
}
