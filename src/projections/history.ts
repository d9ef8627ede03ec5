// A value's history keyed by log position: O(1) append, O(log n) lookup "as of" a position.
// Compact on purpose (a million-event rebuild keeps one per transfer, most with one or two changes): the first two
// entries live in fields, the rest in one array of alternating position and value, created only on the third change.
export class History<T> {
  private p0: bigint | undefined = undefined
  private v0: T | undefined = undefined
  private p1: bigint | undefined = undefined
  private v1: T | undefined = undefined
  /** [position, value, position, value, …] of the entries after the second. */
  private rest: Array<bigint | T> | undefined = undefined

  /** Records `value` as of `position`; positions must not decrease. */
  set(position: bigint, value: T): void {
    const rest = this.rest
    if (rest !== undefined) {
      const n = rest.length
      if (rest[n - 2] === position) rest[n - 1] = value
      else rest.push(position, value)
    } else if (this.p0 === undefined || (this.p1 === undefined && this.p0 === position)) {
      this.p0 = position
      this.v0 = value
    } else if (this.p1 === undefined || this.p1 === position) {
      this.p1 = position
      this.v1 = value
    } else this.rest = [position, value]
  }

  latest(): T | undefined {
    const rest = this.rest
    if (rest !== undefined) return rest[rest.length - 1] as T
    return this.p1 === undefined ? this.v0 : this.v1
  }

  /** The value in force after the event at `position` (undefined before the first change). */
  at(position: bigint | undefined): T | undefined {
    if (position === undefined) return this.latest()
    if (this.p0 === undefined || this.p0 > position) return undefined
    if (this.p1 === undefined || this.p1 > position) return this.v0
    const rest = this.rest
    if (rest === undefined) return this.v1
    // Entries of `rest` at pair index i: position rest[2i], value rest[2i + 1]; find the last position ≤ `position`.
    let lo = 0
    let hi = rest.length >>> 1
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if ((rest[mid << 1] as bigint) <= position) lo = mid + 1
      else hi = mid
    }
    return lo === 0 ? this.v1 : (rest[(lo << 1) - 1] as T)
  }

  get length(): number {
    return this.p0 === undefined ? 0 : this.p1 === undefined ? 1 : 2 + (this.rest === undefined ? 0 : this.rest.length >>> 1)
  }

  entries(): ReadonlyArray<readonly [bigint, T]> {
    if (this.p0 === undefined) return []
    const out: Array<readonly [bigint, T]> = [[this.p0, this.v0 as T]]
    if (this.p1 !== undefined) out.push([this.p1, this.v1 as T])
    const rest = this.rest ?? []
    for (let i = 0; i < rest.length; i += 2) out.push([rest[i] as bigint, rest[i + 1] as T])
    return out
  }
}

/** Index of the first element greater than `x` in an ascending array. */
export const upperBound = (xs: ReadonlyArray<bigint>, x: bigint): number => {
  let lo = 0
  let hi = xs.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (xs[mid]! <= x) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** An append-only list ordered by creation position; `upTo(p)` is the prefix created at or before p. */
export class CreationOrder<T> {
  private readonly positions: Array<bigint> = []
  readonly items: Array<T> = []

  push(position: bigint, item: T): void {
    this.positions.push(position)
    this.items.push(item)
  }

  upTo(position: bigint | undefined): ReadonlyArray<T> {
    if (position === undefined) return this.items
    return this.items.slice(0, upperBound(this.positions, position))
  }

  get length(): number {
    return this.items.length
  }
}

/**
 * A value set at most once (e.g. where a transaction was mined): History's reading interface, one allocation. A
 * record that has one such value may extend it and be its own (field names here are chosen not to collide).
 */
export class Once<T> {
  private onceAt: bigint | undefined = undefined
  private onceValue: T | undefined = undefined

  set(position: bigint, value: T): void {
    if (this.onceAt !== undefined) return
    this.onceAt = position
    this.onceValue = value
  }

  latest(): T | undefined {
    return this.onceValue
  }

  at(position: bigint | undefined): T | undefined {
    return position === undefined || (this.onceAt !== undefined && this.onceAt <= position) ? this.onceValue : undefined
  }
}
