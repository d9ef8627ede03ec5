// A value's history keyed by log position: O(1) append, O(log n) lookup "as of" a position.
export class History<T> {
  private readonly positions: Array<bigint> = []
  private readonly values: Array<T> = []

  /** Records `value` as of `position`; positions must not decrease. */
  set(position: bigint, value: T): void {
    const n = this.positions.length
    if (n > 0 && this.positions[n - 1] === position) this.values[n - 1] = value
    else {
      this.positions.push(position)
      this.values.push(value)
    }
  }

  latest(): T | undefined {
    return this.values[this.values.length - 1]
  }

  /** The value in force after the event at `position` (undefined before the first change). */
  at(position: bigint | undefined): T | undefined {
    if (position === undefined) return this.latest()
    const i = upperBound(this.positions, position) - 1
    return i >= 0 ? this.values[i] : undefined
  }

  get length(): number {
    return this.values.length
  }

  entries(): ReadonlyArray<readonly [bigint, T]> {
    return this.positions.map((p, i) => [p, this.values[i] as T] as const)
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

/** A value set at most once (e.g. where a transaction was mined): History's reading interface, one allocation. */
export class Once<T> {
  private position: bigint | undefined
  private value: T | undefined

  set(position: bigint, value: T): void {
    if (this.position !== undefined) return
    this.position = position
    this.value = value
  }

  latest(): T | undefined {
    return this.value
  }

  at(position: bigint | undefined): T | undefined {
    return position === undefined || (this.position !== undefined && this.position <= position) ? this.value : undefined
  }
}
