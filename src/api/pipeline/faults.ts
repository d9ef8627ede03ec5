// The API's faults (/_sim/faults), run after authentication: the first fault in force that matches the call and
// fires on it is recorded as hit (an event, so a replayed log holds the same failures), then answers for the work
// (a 429 or 5xx, nothing written), delays it, drops the connection before it (reset) or after it (lost-answer), or
// leaves the client without an answer until it gives up (timeout). mount.ts calls it only when faults are in force.
import type { IncomingMessage, ServerResponse } from "node:http"
import { RESPONSE_ALREADY_SENT } from "@hono/node-server/utils/response"
import { recordFaultHit } from "../../commands/faults.js"
import { type ApiFaultMatch, type FaultDefinition, firesOn } from "../../domain/fault/index.js"
import { type ApiError, errors, isApiError } from "../errors.js"
import { markFault } from "../fault-mark.js"
import { apiFaultKey } from "../../projections/faults.js"
import { runCommand } from "../use-case.js"
import { fail } from "./answer.js"
import type { Prepared } from "./prepared.js"
import type { RequestRecord } from "./request.js"

type Answer = Response | Promise<Response>
type ApiFault = Extract<FaultDefinition, { target: "api" }>

/** How long a `timeout` keeps a connection without an answer when the server sets no request timeout, ms. */
const DEFAULT_HOLD_MS = 300_000

// `apiFor` has chosen the faults on the call's operation or its concrete path (and those naming neither): the method
// and path are checked again for the last, the key and the version for all.
const matches = (m: ApiFaultMatch, p: Prepared, r: RequestRecord): boolean =>
  (m.method === undefined || m.method === p.op.method) &&
  (m.apiKey === undefined || m.apiKey === r.key!.grant.key) &&
  (m.apiVersion === undefined || m.apiVersion === (r.header("x-api-version") ?? r.apiVersion)) &&
  (m.path === undefined || m.path === r.path || apiFaultKey(p.op.method, m.path) === p.faultKey)

const refusal = (status: 429 | 500 | 502 | 503 | 504, r: RequestRecord): ApiError => {
  switch (status) {
    case 429:
      return errors.faultRequestLimit(r.apiVersion, r.key!.grant.rateLimit.perSecond)
    case 500:
      return errors.internal()
    case 502:
      return errors.badGateway()
    case 503:
      return errors.serviceUnavailable()
    case 504:
      return errors.gatewayTimeout()
  }
}

const node = (r: RequestRecord) =>
  (r.c.env as { incoming?: IncomingMessage; outgoing?: ServerResponse } | undefined) ?? { incoming: undefined, outgoing: undefined }

/** The connection dropped without an answer (in process, with no socket: a network error). */
const dropped = (r: RequestRecord): Response => {
  const { outgoing } = node(r)
  if (outgoing === undefined) return Response.error()
  outgoing.destroy()
  return RESPONSE_ALREADY_SENT
}

/** No answer: the connection stays open until the client closes it or the server's request timeout passes. */
const unanswered = (r: RequestRecord): Response => {
  const { incoming, outgoing } = node(r)
  if (incoming === undefined || outgoing === undefined) return Response.error()
  const server = (incoming.socket as { server?: { requestTimeout?: number } }).server
  const bound = server?.requestTimeout !== undefined && server.requestTimeout > 0 ? server.requestTimeout : DEFAULT_HOLD_MS
  const timer = setTimeout(() => outgoing.destroy(), bound)
  incoming.socket.once("close", () => {
    clearTimeout(timer)
    // Ended for the request log's sake (a line with the fault's id): the client has gone already.
    outgoing.destroy()
  })
  return RESPONSE_ALREADY_SENT
}

type Work = (p: Prepared, r: RequestRecord) => Answer

const hit = async (p: Prepared, r: RequestRecord, fault: ApiFault, call: number, rest: Work): Promise<Response> => {
  const { faultId, effect } = fault
  const recorded = await runCommand(p.deps, recordFaultHit({ faultId, call, requestId: r.requestId, deliveryId: null }), {
    requestId: r.requestId,
  })
  // Used up by a call that raced this one, or removed meanwhile: the call is served.
  if (isApiError(recorded)) return rest(p, r)
  const { incoming } = node(r)
  if (incoming !== undefined) markFault(incoming, faultId)
  switch (effect.kind) {
    case "status":
      return fail(p, r, refusal(effect.status, r))
    case "delay":
      await new Promise((done) => setTimeout(done, effect.ms))
      return rest(p, r)
    case "reset":
      return dropped(r)
    case "timeout":
      return unanswered(r)
    case "lost-answer":
      await rest(p, r)
      return dropped(r)
  }
}

/**
 * The call's fault, if one fires, else `rest`. A fault counts the calls it matches (the k-th of `every`, the draw of
 * `probability`) in `sim.faultCalls`, which a data directory keeps over a restart (adapters/fault-calls-file.ts).
 */
export const faulted = (p: Prepared, r: RequestRecord, rest: Work): Answer => {
  const faults = p.deps.sim.models.faults
  for (const f of faults.apiFor(p.faultKey, apiFaultKey(p.op.method, r.path))) {
    const d = f.definition
    if (!matches(d.match, p, r)) continue
    const call = p.deps.sim.faultCalls.next(d.faultId, f.lastCall)
    if (firesOn(d, call, f.hits)) return hit(p, r, d, call, rest)
  }
  return rest(p, r)
}
