// Consistency tokens between nodes: `x-sim-position` on every answer, `x-sim-min-position` to read your writes.
import type { Context, MiddlewareHandler } from "hono"
import type { ApiDeps, DepsOf } from "./deps.js"
import { errorBody } from "./envelope.js"
import { ApiError, detail } from "./errors.js"
import { respond } from "./respond.js"
import { simError } from "./sim/common.js"

import { MIN_POSITION_HEADER, POSITION_HEADER, POSITION_SENT } from "./consistency-headers.js"

export { MIN_POSITION_HEADER, POSITION_HEADER }

/** How long a request waits for this node's read models to reach its `x-sim-min-position`. */
export const MIN_POSITION_WAIT_MS = 2_000

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/**
 * Pulls from the store (one round trip when the position was written through another node) and, while the
 * store does not have it yet or cannot answer, keeps trying until the deadline. Pulls and the live
 * subscription both apply only events beyond the models' position, so they may overlap.
 */
const reach = async (deps: ApiDeps, target: bigint, waitMs: number): Promise<boolean> => {
  const { sim } = deps
  const deadline = Date.now() + waitMs
  while (sim.models.position < target) {
    const left = deadline - Date.now()
    if (left <= 0) return false
    await Promise.race([sim.run(sim.runner.awaitPosition(target)), sleep(left)])
    if (sim.models.position < target) await sleep(Math.min(25, Math.max(0, deadline - Date.now())))
  }
  return true
}

const fail = (c: Context, deps: ApiDeps, e: ApiError): Response =>
  c.req.path.startsWith("/_sim")
    ? simError(c, e)
    : respond(c, e.status, errorBody(deps.defaultApiVersion, deps.nextRequestId(), c.req.query("context"), e), e.headers)

/**
 * Reads come from this node's read models, which follow the store's $all subscription (eventual, bounded
 * lag). A client that wrote through another node passes that answer's `x-sim-position` back as
 * `x-sim-min-position`: the request (authentication included) then runs only once this node has applied the
 * log up to that position, or answers 503 `service_unavailable` after MIN_POSITION_WAIT_MS. Every answer
 * carries `x-sim-position`: the models' position when it was sent, which for a write covers its own events.
 */
/** The `x-sim-min-position` gate: undefined to go on, or the answer when the value is bad or not reached in time. */
export const minPositionGate = async (c: Context, deps: ApiDeps, waitMs = MIN_POSITION_WAIT_MS): Promise<Response | undefined> => {
  // Node's own header object when there is one: reading through c.req would build Fetch Headers per request.
  const incoming = (c.env as { incoming?: { headers?: Record<string, string | Array<string> | undefined> } } | undefined)?.incoming?.headers
  const raw = incoming !== undefined ? incoming[MIN_POSITION_HEADER] : c.req.header(MIN_POSITION_HEADER)
  const wanted = Array.isArray(raw) ? raw[0] : raw
  if (wanted === undefined) return undefined
  if (!/^(0|[1-9][0-9]{0,19})$/.test(wanted.trim()))
    return fail(
      c,
      deps,
      new ApiError(400, "invalid_data", `Invalid ${MIN_POSITION_HEADER}.`, [
        detail(MIN_POSITION_HEADER, "must be a position from x-sim-position"),
      ]),
    )
  const target = BigInt(wanted.trim())
  if (await reach(deps, target, waitMs)) return undefined
  return fail(
    c,
    deps,
    new ApiError(
      503,
      "service_unavailable",
      `This node has not reached position ${target} of the event log within ${waitMs} ms; retry later.`,
      [],
      {
        "retry-after": "1",
        [POSITION_HEADER]: String(deps.sim.models.position),
      },
    ),
  )
}

/** The same for the control plane (the spec's operations call the gate themselves, see operation.ts). */
export const consistency = (depsOf: DepsOf, options: { readonly waitMs?: number } = {}): MiddlewareHandler => {
  const waitMs = options.waitMs ?? MIN_POSITION_WAIT_MS
  return async (c, next) => {
    const deps = depsOf(c)
    // Without credentials (the admin token or the dashboard's session cookie) nothing waits: the route answers
    // 401 at once (health is public).
    const gate =
      c.req.path === "/_sim/health" || c.req.header("authorization") !== undefined || c.req.header("cookie") !== undefined
        ? await minPositionGate(c, deps, waitMs)
        : undefined
    if (gate !== undefined) return gate
    await next()
    if (c.get(POSITION_SENT as never) !== true) c.res.headers.set(POSITION_HEADER, String(deps.sim.models.position))
  }
}
