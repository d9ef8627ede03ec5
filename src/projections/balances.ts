// Balance histories per (address, asset): columns of (position, total, blocked), the rest derived on read.
export interface Balance {
  readonly total: bigint
  readonly available: bigint
  readonly blocked: bigint
  readonly allocated: bigint
}

export const ZERO_BALANCE: Balance = { total: 0n, available: 0n, blocked: 0n, allocated: 0n }

/** total = available + blocked + allocated, with allocated the reserve the chain keeps (see README). */
export const balanceOf = (total: bigint, blocked: bigint, reserve: bigint): Balance => {
  const free = total - blocked
  const allocated = free < reserve ? (free > 0n ? free : 0n) : reserve
  return { total, blocked, allocated, available: free - allocated }
}

const STRIDE = 3

/**
 * History<Balance>'s reading interface over one array [position, total, blocked, …]: a change costs one bigint
 * (the new total) instead of a Balance and its four amounts. Available and allocated follow from total, blocked
 * and the asset's reserve, so reads rebuild the same Balance the fold would have stored.
 */
export class BalanceHistory {
  private readonly xs: Array<bigint> = []
  /** Balances recorded as they are (setBalance), by entry index: read back verbatim. */
  private exact: Map<number, Balance> | undefined = undefined

  constructor(readonly reserve: bigint) {}

  /** Adds `total` and `blocked` to the balance in force and records the result as of `position`. */
  adjust(position: bigint, total: bigint, blocked: bigint): void {
    const xs = this.xs
    const n = xs.length
    if (n === 0) {
      xs.push(position, total, blocked)
      return
    }
    const t = total === 0n ? xs[n - 2]! : xs[n - 2]! + total
    const b = blocked === 0n ? xs[n - 1]! : xs[n - 1]! + blocked
    if (xs[n - 3] === position) {
      xs[n - 2] = t
      xs[n - 1] = b
      this.exact?.delete(n / STRIDE - 1)
    } else xs.push(position, t, b)
  }

  /** Records a balance as it is (the audit's tests use it to corrupt a model on purpose). */
  set(position: bigint, value: Balance): void {
    const xs = this.xs
    const n = xs.length
    if (n > 0 && xs[n - 3] === position) {
      xs[n - 2] = value.total
      xs[n - 1] = value.blocked
    } else xs.push(position, value.total, value.blocked)
    ;(this.exact ??= new Map()).set(xs.length / STRIDE - 1, value)
  }

  private read(i: number): Balance {
    return this.exact?.get(i) ?? balanceOf(this.xs[i * STRIDE + 1]!, this.xs[i * STRIDE + 2]!, this.reserve)
  }

  get length(): number {
    return this.xs.length / STRIDE
  }

  latest(): Balance | undefined {
    return this.xs.length === 0 ? undefined : this.read(this.length - 1)
  }

  /** The balance in force after the event at `position` (undefined before the first change). */
  at(position: bigint | undefined): Balance | undefined {
    if (position === undefined) return this.latest()
    let lo = 0
    let hi = this.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (this.xs[mid * STRIDE]! <= position) lo = mid + 1
      else hi = mid
    }
    return lo > 0 ? this.read(lo - 1) : undefined
  }

  entries(): ReadonlyArray<readonly [bigint, Balance]> {
    const out: Array<readonly [bigint, Balance]> = []
    for (let i = 0; i < this.length; i++) out.push([this.xs[i * STRIDE]!, this.read(i)])
    return out
  }
}
