// Cursor pagination, one input part of every paged operation: `limit` (default 50, or the operation's
// `defaultLimit`; at most 500) and `startingAfter` (id of the previous page's last item). The pipeline adds the
// query part to the query of every operation paged at the request's version (pipeline/prepared.ts) and sets the
// operation's default limit; the page is decoded where the listing is known, after the operation's own checks, so
// that a request with a bad vault and a bad limit is refused for its vault as before.
import { errors, type ApiError, isApiError } from "../errors.js"
import type { Page } from "../envelope.js"
import type { FieldCheck } from "../body.js"

export const DEFAULT_LIMIT = 50
export const MAX_LIMIT = 500

/** The query attributes of a paged listing, checked with the operation's own (409 unknown, 400 malformed). */
export const paginationQuery: Readonly<Record<string, FieldCheck>> = {
  limit: (v) => (typeof v === "string" && /^[0-9]{1,9}$/.test(v) ? undefined : "must be a positive integer"),
  startingAfter: (v) => (typeof v === "string" && v.length > 0 && v.length <= 200 ? undefined : "must be an item id"),
}

/** A page asked for, decoded. */
interface PageRequest {
  readonly limit: number
  readonly startingAfter: string | undefined
}

/** The page a query asks for: `limit` from 1 to MAX_LIMIT (400 invalid_pagination, 400 limit greater than allowed). */
const pageRequest = (query: {
  readonly limit?: string | undefined
  readonly startingAfter?: string | undefined
}): PageRequest | ApiError => {
  const limit = query.limit === undefined ? DEFAULT_LIMIT : Number(query.limit)
  if (!Number.isInteger(limit) || limit < 1) return errors.invalidPagination("limit", "must be an integer of at least 1")
  if (limit > MAX_LIMIT) return errors.limitGreaterThanAllowed(MAX_LIMIT)
  return { limit, startingAfter: query.startingAfter }
}

/** The page of `items` a query asks for (400 invalid_pagination when `startingAfter` is no item's id). */
export const paginate = <T>(
  items: ReadonlyArray<T>,
  idOf: (item: T) => string,
  query: { readonly limit?: string | undefined; readonly startingAfter?: string | undefined },
): Page<T> | ApiError => {
  const asked = pageRequest(query)
  if (isApiError(asked)) return asked
  const { limit, startingAfter } = asked
  let start = 0
  if (startingAfter !== undefined) {
    const i = items.findIndex((x) => idOf(x) === startingAfter)
    if (i < 0) return errors.invalidPagination("startingAfter", "is not the id of an item of this listing")
    start = i + 1
  }
  const page = items.slice(start, start + limit)
  return {
    limit,
    ...(startingAfter !== undefined ? { startingAfter } : {}),
    hasMore: start + limit < items.length,
    items: page,
  }
}
