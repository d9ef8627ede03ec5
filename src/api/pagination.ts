// Cursor pagination: `limit` (default 50, or the operation's `defaultLimit`; at most 500) and `startingAfter` (id of
// the previous page's last item).
import { errors, type ApiError } from "./errors.js"
import type { Page } from "./envelope.js"
import type { FieldCheck } from "./body.js"

export const DEFAULT_LIMIT = 50
export const MAX_LIMIT = 500

export const paginationQuery: Readonly<Record<string, FieldCheck>> = {
  limit: (v) => (typeof v === "string" && /^[0-9]{1,9}$/.test(v) ? undefined : "must be a positive integer"),
  startingAfter: (v) => (typeof v === "string" && v.length > 0 && v.length <= 200 ? undefined : "must be an item id"),
}

export const paginate = <T>(
  items: ReadonlyArray<T>,
  idOf: (item: T) => string,
  query: { readonly limit?: string; readonly startingAfter?: string },
): Page<T> | ApiError => {
  const limit = query.limit === undefined ? DEFAULT_LIMIT : Number(query.limit)
  if (!Number.isInteger(limit) || limit < 1) return errors.invalidPagination("limit", "must be an integer of at least 1")
  if (limit > MAX_LIMIT) return errors.limitGreaterThanAllowed(MAX_LIMIT)
  let start = 0
  if (query.startingAfter !== undefined) {
    const i = items.findIndex((x) => idOf(x) === query.startingAfter)
    if (i < 0) return errors.invalidPagination("startingAfter", "is not the id of an item of this listing")
    start = i + 1
  }
  const page = items.slice(start, start + limit)
  return {
    limit,
    ...(query.startingAfter !== undefined ? { startingAfter: query.startingAfter } : {}),
    hasMore: start + limit < items.length,
    items: page,
  }
}
