// The one search behind every "as of" read: histories, creation orders, the timeline and the outbox's changes are
// kept in position (or time) order, and a read wants the last entry at or before a point.

/**
 * How many of the `length` entries of `entries` have a key at or before `x`, keys never decreasing with the index:
 * the index just past the last such entry, 0 when there is none. O(log length). `keyAt` reads entry `i`'s key; pass
 * a function made once (a module constant), not a closure made per call: a read allocates nothing.
 */
export const countAtOrBefore = <C, K extends number | bigint>(
  entries: C,
  length: number,
  keyAt: (entries: C, i: number) => K,
  x: K,
): number => {
  let lo = 0
  let hi = length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (keyAt(entries, mid) <= x) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** `keyAt` for a plain array of keys. */
export const keyOfArray = <K>(keys: ArrayLike<K>, i: number): K => keys[i]!
