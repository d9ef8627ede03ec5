// Answers of the spec's operations: JSON envelopes, the consistency header, and the read cache.
import type { Context } from "hono"
import { POSITION_SENT } from "./consistency-headers.js"
import type { ApiDeps } from "./deps.js"

const JSON_TYPE = "application/json; charset=utf-8"

/**
 * A plain Response with plain-object headers: under @hono/node-server it is written without building Fetch Headers.
 * Each answer gets its own headers object: the adapter writes `Content-Length` into it, so an object shared
 * between answers would carry the first one's length to all the others.
 */
export const respond = (_c: Context, status: number, body: string, headers?: Record<string, string>): Response =>
  new Response(body, { status, headers: headers === undefined ? { "content-type": JSON_TYPE } : { "content-type": JSON_TYPE, ...headers } })

/**
 * Every answer of an operation says how far this node's read models are (`x-sim-position`, see consistency.ts).
 * One responder per operation keeps the position's text while the log does not move.
 */
export const makeResponder = (deps: ApiDeps, options: { readonly flagPosition: boolean }) => {
  let position: bigint | undefined
  let text = ""
  return (c: Context, status: number, body: string, extra?: Record<string, string>): Response => {
    // Only the control plane's consistency middleware reads the flag (an operation mounted under /_sim).
    if (options.flagPosition) c.set(POSITION_SENT as never, true as never)
    const now = deps.sim.models.position
    if (now !== position) {
      position = now
      text = String(now)
    }
    // The literal is POSITION_HEADER ("x-sim-position"): a computed key would make each literal slower to build.
    const headers =
      extra === undefined
        ? { "content-type": JSON_TYPE, "x-sim-position": text }
        : { "content-type": JSON_TYPE, ...extra, "x-sim-position": text }
    return new Response(body, { status, headers })
  }
}

/** Printable ASCII without `"` and `\\`: JSON.stringify would only add the quotes. */
const PLAIN = /^[ !#-[\]-~]*$/

/** JSON.stringify of a string; a plain one is quoted directly (a call into JSON.stringify costs more than the check). */
const jsonString = (s: string): string => (PLAIN.test(s) ? `"${s}"` : JSON.stringify(s))

/** The success envelope around already-serialised data: the same bytes as JSON.stringify of the whole. */
export const envelopeWith = (apiVersion: string, requestId: string, context: string | undefined, data: string): string =>
  `{"apiVersion":${jsonString(apiVersion)},"requestId":${jsonString(requestId)}${context === undefined ? "" : `,"context":${jsonString(context)}`},"data":${data}}`

/**
 * Answers of read operations are pure functions of (version, key, path, query, as-of) at a log position: while the
 * log does not move, a repeated read is served from its serialised data. Any new event empties the cache.
 * Entries are found by version, then by the key's record, then by the request's target (path, query and as-of):
 * a key made by joining all of them would be built, flattened and hashed whole on every request.
 */
export const makeReadCache = (deps: ApiDeps) => {
  const entries = new Map<string, Map<object, Map<string, string>>>()
  let size = 0
  let position = -2n
  // A revert installs other models whose positions may repeat ones cached before it: their timeline tells them apart.
  let timeline: unknown
  const fresh = () => {
    if (deps.sim.models.position !== position || deps.sim.models.timeline !== timeline) {
      entries.clear()
      size = 0
      position = deps.sim.models.position
      timeline = deps.sim.models.timeline
    }
  }
  return {
    /** `key` is the caller's key record (an answer depends on its grant), `target` the rest of what it depends on. */
    get: (version: string, key: object, target: string): string | undefined => {
      fresh()
      return entries.get(version)?.get(key)?.get(target)
    },
    set: (version: string, key: object, target: string, data: string): void => {
      fresh()
      if (size >= 1024) {
        entries.clear()
        size = 0
      }
      let byKey = entries.get(version)
      if (byKey === undefined) entries.set(version, (byKey = new Map()))
      let byTarget = byKey.get(key)
      if (byTarget === undefined) byKey.set(key, (byTarget = new Map()))
      if (!byTarget.has(target)) size++
      byTarget.set(target, data)
    },
  }
}
