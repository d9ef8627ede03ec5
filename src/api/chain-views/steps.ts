// A running total by block height (a balance, a supply, a count of transactions sent), added to in height order:
// what it stood at as of any block is a binary search, not a walk over the chain.
export class Steps {
  private readonly heights: Array<number> = []
  private readonly sums: Array<bigint> = []

  /** Adds `delta` at `height`, no lower than the last height added to. */
  add(height: number, delta: bigint): void {
    const last = this.heights.length - 1
    if (last >= 0 && this.heights[last] === height) this.sums[last] = this.sums[last]! + delta
    else {
      this.heights.push(height)
      this.sums.push((last >= 0 ? this.sums[last]! : 0n) + delta)
    }
  }

  /** The total as of block `height` (0 before the first). */
  at(height: number): bigint {
    const i = lastAtOrBelow(this.heights, height)
    return i < 0 ? 0n : this.sums[i]!
  }
}

/** The index of the last of the first `length` of ascending `values` at or below `v` (-1: none). */
export const lastAtOrBelow = (values: ArrayLike<number>, v: number, length = values.length): number => {
  let lo = 0
  let hi = length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (values[mid]! <= v) lo = mid + 1
    else hi = mid
  }
  return lo - 1
}

/** The index of the first of the first `length` of ascending integers `values` at or above `v` (`length`: none). */
export const firstAtOrAbove = (values: ArrayLike<number>, v: number, length = values.length): number =>
  lastAtOrBelow(values, v - 1, length) + 1
