// Balance histories per (address, asset): columns of (position, total, blocked), the rest derived on read.
import { countAtOrBefore, keyOfArray } from "../storage/at-or-before.js"

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

/**
 * History<Balance>'s reading interface over columns: positions (numbers, as History keeps them) and
 * [total, blocked, …]: a change costs one bigint (the new total) instead of a Balance and its four amounts.
 * Available and allocated follow from total, blocked and the asset's reserve, so reads rebuild the same Balance
 * the fold would have stored.
 */
export class BalanceHistory {
  private readonly ps: Array<number> = []
  /** [total, blocked, …], two per entry of `ps`. */
  private readonly xs: Array<bigint> = []
  /** Balances recorded as they are (setBalance), by entry index: read back verbatim. */
  private exact: Map<number, Balance> | undefined = undefined
  /** Tron stakes, [position, staked, …], only for the histories that ever staked (allocated with the reserve). */
  private stakes: Array<bigint> | undefined = undefined

  constructor(readonly reserve: bigint) {}

  /** Adds `total`, `blocked` (and `staked`) to the balance in force and records the result as of `position`. */
  adjust(position: bigint, total: bigint, blocked: bigint, staked = 0n): void {
    if (staked !== 0n) {
      const st = (this.stakes ??= [])
      const now = st.length === 0 ? 0n : st[st.length - 1]!
      if (st.length > 0 && st[st.length - 2] === position) st[st.length - 1] = now + staked
      else st.push(position, now + staked)
    }
    const ps = this.ps
    const xs = this.xs
    const n = ps.length
    const p = Number(position)
    if (n === 0) {
      ps.push(p)
      xs.push(total, blocked)
      return
    }
    const t = total === 0n ? xs[2 * n - 2]! : xs[2 * n - 2]! + total
    const b = blocked === 0n ? xs[2 * n - 1]! : xs[2 * n - 1]! + blocked
    if (ps[n - 1] === p) {
      xs[2 * n - 2] = t
      xs[2 * n - 1] = b
      this.exact?.delete(n - 1)
    } else {
      ps.push(p)
      xs.push(t, b)
    }
  }

  /** Records a balance as it is (the audit's tests use it to corrupt a model on purpose). */
  set(position: bigint, value: Balance): void {
    const ps = this.ps
    const xs = this.xs
    const n = ps.length
    const p = Number(position)
    if (n > 0 && ps[n - 1] === p) {
      xs[2 * n - 2] = value.total
      xs[2 * n - 1] = value.blocked
    } else {
      ps.push(p)
      xs.push(value.total, value.blocked)
    }
    ;(this.exact ??= new Map()).set(ps.length - 1, value)
  }

  private read(i: number): Balance {
    const exact = this.exact?.get(i)
    if (exact !== undefined) return exact
    const staked = this.stakes === undefined ? 0n : this.stakedAt(BigInt(this.ps[i]!))
    return balanceOf(this.xs[2 * i]!, this.xs[2 * i + 1]!, this.reserve + staked)
  }

  /** What is staked after the event at `position` (now when undefined). */
  stakedAt(position: bigint | undefined): bigint {
    const st = this.stakes
    if (st === undefined) return 0n
    let found = 0n
    for (let i = 0; i < st.length; i += 2) {
      if (position !== undefined && st[i]! > position) break
      found = st[i + 1]!
    }
    return found
  }

  get length(): number {
    return this.ps.length
  }

  latest(): Balance | undefined {
    return this.ps.length === 0 ? undefined : this.read(this.ps.length - 1)
  }

  /** The balance in force after the event at `asOf` (undefined before the first change). */
  at(asOf: bigint | undefined): Balance | undefined {
    if (asOf === undefined) return this.latest()
    const n = countAtOrBefore(this.ps, this.ps.length, keyOfArray, Number(asOf))
    return n > 0 ? this.read(n - 1) : undefined
  }

  entries(): ReadonlyArray<readonly [bigint, Balance]> {
    const out: Array<readonly [bigint, Balance]> = []
    for (let i = 0; i < this.ps.length; i++) out.push([BigInt(this.ps[i]!), this.read(i)])
    return out
  }
}
