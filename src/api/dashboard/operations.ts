// The spec's operations run for the dashboard: same body checks, same handlers, as a key that sees every vault.
import { auditKey } from "../../audit/snapshot.js"
import type { AsOf } from "../../projections/projection.js"
import { attributeChecker, type JsonObject } from "../body.js"
import type { ApiDeps } from "../deps.js"
import { errors, isApiError } from "../errors.js"
import type { Operation } from "../operation.js"
import type { SimResult } from "../sim/common.js"

/** Runs operation `id` as its REST route would after authentication; the answer is its `item`, `page` or `data`. */
export const runOperation = async (
  operations: ReadonlyArray<Operation>,
  id: string,
  deps: ApiDeps,
  input: { params: Record<string, string>; query?: Record<string, string>; item?: JsonObject; asOf?: AsOf },
): Promise<SimResult> => {
  const op = operations.find((o) => o.id === id)
  if (op === undefined) return errors.uriNotFound()
  const item = input.item ?? {}
  if (op.body !== undefined) {
    const bad = attributeChecker(op.body, errors.extraBodyAttributes)(item)
    if (bad !== undefined) return bad
  }
  const r = await op.handle(
    { params: input.params, query: input.query ?? {}, item, key: auditKey, requestId: deps.nextRequestId(), apiVersion: deps.defaultApiVersion, asOf: input.asOf },
    deps,
  )
  if (isApiError(r)) return r
  return { status: r.status, body: "item" in r ? r.item : "page" in r ? r.page : r.data }
}
