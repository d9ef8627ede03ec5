// The spec's operations run for the dashboard: same body checks, same handlers, as a key that sees every vault.
import { auditKey } from "../digest/digest.js"
import type { AsOf } from "../../projections/projection.js"
import { attributeChecker, type JsonObject } from "../body.js"
import type { ApiDeps } from "../deps.js"
import { errors, isApiError } from "../errors.js"
import { pagedAt, type Operation } from "../operation.js"
import { OLDEST_API_VERSION } from "../../domain/api-key/index.js"
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
  const apiVersion = OLDEST_API_VERSION
  const r = await op.handle(
    {
      params: input.params,
      query: input.query ?? {},
      item,
      key: auditKey,
      requestId: deps.nextRequestId(),
      apiVersion,
      asOf: input.asOf,
      paginated: pagedAt(op, apiVersion),
    },
    deps,
  )
  if (isApiError(r)) return r
  // Written as the REST route writes it at that version.
  const present = op.answer?.at(apiVersion).present ?? ((x: unknown) => x)
  return {
    status: r.status,
    body:
      "item" in r
        ? present(r.item)
        : "page" in r
          ? { ...r.page, items: r.page.items.map(present) }
          : "items" in r
            ? { items: r.items.map(present) }
            : present(r.data),
  }
}
