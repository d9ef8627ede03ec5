// The pipeline's last step: a handler's result, a refusal or a defect written as the answer of the request's version.
import { mapAssetIds } from "../../domain/chains/index.js"
import { errorBody } from "../envelope.js"
import { type ApiError, errors, isApiError } from "../errors.js"
import { requestAborted } from "../request-body.js"
import { envelopeWith } from "../respond.js"
import type { OperationResult } from "./operation.js"
import type { Prepared } from "./prepared.js"
import type { RequestRecord } from "./request.js"

export const fail = (p: Prepared, r: RequestRecord, e: ApiError): Response =>
  p.answer(r.c, e.status, errorBody(r.apiVersion, r.requestId, r.context, e), e.headers)

/** A throw or rejection: a client gone before its body ended is a quiet 400, anything else a logged 500. */
export const defect = (p: Prepared, r: RequestRecord, error: unknown): Response => {
  if (requestAborted(r.c)) {
    p.deps.log.info(`${p.op.method} ${p.op.path}: request body aborted by the client (request ${r.requestId})`)
    return fail(p, r, errors.bodyAborted())
  }
  p.deps.log.error({ requestId: r.requestId, operation: p.op.id, defect: error })
  return fail(p, r, errors.internal())
}

/** A read's answer found in the read cache (serialised data). */
export const cached = (p: Prepared, r: RequestRecord, data: string): Response =>
  p.answer(r.c, 200, envelopeWith(r.apiVersion, r.requestId, r.context, data))

/** The handler's result in the version's names; a read's 200 is kept in the read cache under `r.cacheTarget`. */
export const finish = (p: Prepared, r: RequestRecord, result: OperationResult): Response => {
  if (isApiError(result)) return fail(p, r, result)
  const present = p.presenters.get(r.apiVersion)
  const value =
    present === undefined
      ? "item" in result
        ? { item: result.item }
        : "page" in result
          ? result.page
          : "items" in result
            ? { items: result.items }
            : result.data
      : "item" in result
        ? { item: present(result.item) }
        : "page" in result
          ? { ...result.page, items: result.page.items.map(present) }
          : "items" in result
            ? { items: result.items.map(present) }
            : present(result.data)
  const assetIds = p.assetIds
  const data = JSON.stringify(assetIds.any ? mapAssetIds(value, assetIds.toWire, p.assetIdKeys) : value)
  if (r.cacheTarget !== undefined && result.status === 200) p.reads!.set(r.apiVersion, r.key!, r.cacheTarget, data)
  return p.answer(r.c, result.status, envelopeWith(r.apiVersion, r.requestId, r.context, data))
}
