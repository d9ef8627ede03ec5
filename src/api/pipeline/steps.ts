// The pipeline's checks, one function each, in DESIGN.md's order. Each reads and fills the request record and
// returns the refusal that ends the request, or undefined to go on (mount.ts runs them).
import type { ApiVersion } from "../../domain/api-key/index.js"
import { mapAssetIds } from "../../domain/chains/index.js"
import { parseAsOf } from "../as-of.js"
import { parseWrappedBody, type JsonObject } from "../body.js"
import { type ApiError, errors, isApiError } from "../errors.js"
import { absentAt } from "../version-paths.js"
import { authenticate } from "../auth/authenticate.js"
import { pagedAt } from "./operation.js"
import type { Prepared } from "./prepared.js"
import type { RequestRecord } from "./request.js"

/** The signature (401), and the limit on failed attempts (429): a valid request is never limited for failures. */
export const authenticated = (p: Prepared, r: RequestRecord): ApiError | undefined => {
  const { op, deps } = p
  const auth = authenticate(
    { method: op.method, rawPath: r.path, rawQuery: r.rawQuery, body: r.body, header: r.header },
    deps.sim.models.workspace,
    deps.auth,
  )
  if (isApiError(auth)) {
    // Only a failed request is ever limited for failures (src/api/auth/failure-limit.ts): a valid one is served.
    const failures = deps.authFailures
    if (failures !== undefined && auth.status === 401) {
      const wait = failures.failed(r.header("x-api-key"), deps.clientIp(r.c))
      if (wait > 0) return errors.tooManyFailedAuthentications(wait)
    }
    return auth
  }
  r.apiVersion = auth.grant.apiVersion as ApiVersion
  r.key = auth
  return undefined
}

/** The key's scopes, IP allowlist, vault and network restrictions (403), before the body is looked at. */
export const authorized = (p: Prepared, r: RequestRecord): ApiError | undefined => {
  const { op, deps } = p
  const key = r.key!
  const params = p.pathParams !== undefined ? p.pathParams(r.c) : r.params
  r.params = params
  const vaultId = op.vaultParam !== undefined ? params[op.vaultParam] : undefined
  return deps.authorize(key, {
    operationId: op.id,
    scope: op.scope,
    // Only an allowlist looks at the caller's address.
    clientIp: key.grant.ipAllowlist === null ? undefined : deps.clientIp(r.c),
    networkType:
      op.networkType?.(params, deps) ??
      (vaultId !== undefined ? deps.sim.models.workspace.vaultsById.get(vaultId)?.profile.type : undefined),
    vaultId,
  })
}

/**
 * The pinned version (x-api-version, 400 when not served), then whether the operation exists in it: one the
 * version has not (yet or any more) is an unknown route there; a read's x-sim-as-of is still checked first, as every
 * read endpoint's is. Then the path's ids in the version's format.
 */
export const versioned = (p: Prepared, r: RequestRecord): ApiError | undefined => {
  const { deps } = p
  const pinned = r.header("x-api-version")
  if (pinned !== undefined) {
    if (!deps.apiVersions.includes(pinned)) return errors.invalidApiVersion(deps.apiVersions)
    r.apiVersion = pinned as ApiVersion
  }
  if (!p.versions.has(r.apiVersion)) {
    const asOf = p.reads !== undefined ? parseAsOf(r.header("x-sim-as-of"), deps.sim.models) : undefined
    return isApiError(asOf) ? asOf : absentAt(p.op, r.apiVersion, p.operations)
  }
  return p.idCheck?.(r.params, r.apiVersion)
}

/**
 * The body's envelope (400 unparseable, 422 another structure), the fixture's asset ids mapped to the catalogue's,
 * then the query's and the body's attributes decoded (409 missing or unknown, 400 a bad value), the query's first.
 */
export const decoded = (p: Prepared, r: RequestRecord): ApiError | undefined => {
  const { op } = p
  if (op.method !== "GET") {
    const body = r.body
    // A leading byte order mark is not part of the JSON text (RFC 8259 §8.1), nor of what was signed.
    const parsed = parseWrappedBody(body.length === 0 ? "{}" : body.charCodeAt(0) === 0xfeff ? body.slice(1) : body)
    if (isApiError(parsed)) return parsed
    if (r.context === undefined) r.context = parsed.context
    r.item = parsed.item
  }
  const assetIds = p.assetIds
  if (assetIds.any) {
    // The fixture's asset ids, in the path, the query and the body, become the catalogue's.
    if (r.params.assetId !== undefined) r.params = { ...r.params, assetId: assetIds.fromWire(r.params.assetId) }
    r.query = mapAssetIds(r.query, assetIds.fromWire, p.assetIdKeys) as Record<string, string>
    r.item = mapAssetIds(r.item, assetIds.fromWire) as JsonObject
  }
  const paginated = pagedAt(op, r.apiVersion)
  r.paginated = paginated
  const query = (paginated ? p.pagedQuery : p.plainQuery)(r.query)
  if (isApiError(query)) return query
  // A query's values are text (URLSearchParams), and its schemas decode text to text.
  r.query = query as Record<string, string>
  if (paginated && op.defaultLimit !== undefined && r.query.limit === undefined) r.query = { ...r.query, limit: String(op.defaultLimit) }
  const decodeBody = p.bodyDecoders.get(r.apiVersion)
  if (decodeBody === undefined) return undefined
  const item = decodeBody(r.item)
  if (isApiError(item)) return item
  r.item = item
  return undefined
}

/**
 * A read's x-sim-as-of (400 when it names no position), and where its answer is kept in the read cache: the path
 * alone in the common case (no query, now), the string the request gave, nothing built. A request target holds no
 * raw space, so what follows one cannot be taken for a part of it.
 */
export const positioned = (p: Prepared, r: RequestRecord): ApiError | undefined => {
  const parsedAsOf = parseAsOf(r.header("x-sim-as-of"), p.deps.sim.models)
  if (isApiError(parsedAsOf)) return parsedAsOf
  r.asOf = parsedAsOf
  let cacheTarget = r.rawQuery.length === 0 ? r.path : `${r.path}?${r.rawQuery}`
  if (parsedAsOf !== undefined) cacheTarget = `${cacheTarget} as-of ${parsedAsOf}`
  else if (p.op.clockDependent === true) cacheTarget = `${cacheTarget} at ${p.deps.sim.clock.now()}`
  r.cacheTarget = cacheTarget
  return undefined
}
