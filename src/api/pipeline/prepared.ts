// What an operation's pipeline works out once, when it is mounted: its checkers, caches and answering function.
import type { Context } from "hono"
import { API_VERSIONS, type ApiVersion } from "../../domain/api-key/index.js"
import type { JsonObject } from "../body.js"
import type { ApiDeps } from "../deps.js"
import { type ApiError, errors } from "../errors.js"
import { paginationQuery } from "../inputs/pagination.js"
import { malformedIdCheck } from "../path-ids.js"
import { makeReadCache, makeResponder } from "../respond.js"
import type { Present } from "../wire/shape.js"
import { attributeDecoder } from "./decode.js"
import { answerObserver } from "../answer-observer.js"
import { bodyAt, type Operation } from "./operation.js"
import { apiFaultKey } from "../../projections/faults.js"
import { makePathParams } from "./request.js"

/** A spec's decoder: the refusal, or the values decoded (decode.ts). */
type Decoder = (values: JsonObject) => JsonObject | ApiError

/** An operation as its steps need it; built once per operation, shared by all its requests. */
export interface Prepared {
  readonly op: Operation
  readonly deps: ApiDeps
  /** Every operation mounted, so that one absent at a version can name what replaces it there. */
  readonly operations: ReadonlyArray<Operation>
  readonly versions: ReadonlySet<string>
  readonly pagedQuery: Decoder
  readonly plainQuery: Decoder
  readonly bodyDecoders: ReadonlyMap<ApiVersion, Decoder | undefined>
  readonly idCheck: ReturnType<typeof malformedIdCheck>
  readonly pathParams: ((c: Context) => Readonly<Record<string, string>>) | undefined
  /** The read cache of a GET; undefined for writes. */
  readonly reads: ReturnType<typeof makeReadCache> | undefined
  readonly answer: (c: Context, status: number, body: string, extra?: Record<string, string>) => Response
  readonly presenters: ReadonlyMap<string, Present | undefined>
  /** The fixture's asset ids and the catalogue's (deps.sim.assetIds, as mounted). */
  readonly assetIds: ApiDeps["sim"]["assetIds"]
  readonly assetIdKeys: ReadonlyArray<string>
  /** The operation's key in the faults read model (`GET /vaults/{vaultId}`, its path as the endpoint table writes it). */
  readonly faultKey: string
}

const queryDecoder = (op: Operation, paged: boolean): Decoder =>
  attributeDecoder(
    {
      required: op.query?.required ?? {},
      optional: { context: () => undefined, ...(paged ? paginationQuery : {}), ...op.query?.optional },
    },
    errors.extraQueryAttributes,
  )

/** The responder, seen by the answer observer when one is set (read now: apps without one pay nothing per request). */
const answering = (deps: ApiDeps, op: Operation): Prepared["answer"] => {
  const responder = makeResponder(deps, { flagPosition: op.path.startsWith("/_sim") })
  const observe = answerObserver<Operation>()
  if (observe === undefined) return responder
  return (c, status, body, extra) => {
    observe({ operation: op, status, body })
    return responder(c, status, body, extra)
  }
}

/** What an operation's pipeline needs that depends on the operation alone, not on the world it answers for. */
type OperationSpec = Omit<Prepared, "deps" | "operations" | "reads" | "answer" | "assetIds">

const specOf = (op: Operation): OperationSpec => ({
  op,
  versions: new Set(op.versions ?? API_VERSIONS),
  pagedQuery: queryDecoder(op, true),
  plainQuery: queryDecoder(op, false),
  bodyDecoders: new Map(
    API_VERSIONS.map((v) => {
      const spec = bodyAt(op, v)
      return [v, spec !== undefined ? attributeDecoder(spec, errors.extraBodyAttributes) : undefined] as const
    }),
  ),
  idCheck: malformedIdCheck(op.path),
  // A path's parameters are the same whichever world it is asked of.
  pathParams: op.path.includes("/:") ? makePathParams() : undefined,
  presenters: new Map<string, Present | undefined>((op.versions ?? API_VERSIONS).map((v) => [v, op.answer?.at(v).present])),
  assetIdKeys: op.assetIdKeys ?? [],
  faultKey: apiFaultKey(op.method, op.path.replace(/:([A-Za-z0-9_]+)/g, "{$1}")),
})

/**
 * Each operation's spec, built once per process: every app shares its decoders and checkers (and a server's worlds
 * share one app, app.ts), so that a world costs less to create and to keep.
 */
const specs = new WeakMap<Operation, OperationSpec>()

const prepare = (deps: ApiDeps, op: Operation, operations: ReadonlyArray<Operation>): Prepared => {
  let spec = specs.get(op)
  if (spec === undefined) {
    spec = specOf(op)
    specs.set(op, spec)
  }
  return {
    ...spec,
    deps,
    operations,
    reads: op.method === "GET" ? makeReadCache(deps) : undefined,
    answer: answering(deps, op),
    assetIds: deps.sim.assetIds,
  }
}

/**
 * An operation prepared for each world it answers for, on the world's first request to it: a world that never
 * asks for an operation pays nothing for it, and its preparation goes with the world (a weak map by its deps).
 */
export const preparedPerWorld = (op: Operation, operations: ReadonlyArray<Operation>): ((deps: ApiDeps) => Prepared) => {
  const prepared = new WeakMap<ApiDeps, Prepared>()
  return (deps) => {
    let p = prepared.get(deps)
    if (p === undefined) {
      p = prepare(deps, op, operations)
      prepared.set(deps, p)
    }
    return p
  }
}
