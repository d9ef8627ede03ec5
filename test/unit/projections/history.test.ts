// Compact histories answer exactly what a list of (position, value) pairs answers, at every position.
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { BalanceHistory, balanceOf } from "../../../src/projections/balances/histories.js"
import { History } from "../../../src/projections/storage/history.js"

/** Ascending positions with repeats (several changes by one event), each with a value. */
const changes = fc.array(fc.tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: -50, max: 50 })), { maxLength: 40 }).map((steps) => {
  let p = 0n
  return steps.map(([gap, v]) => {
    p += BigInt(gap)
    return [p, v] as const
  })
})

/** The reference: the last value set at or before `asOf`. */
const reference = <T>(xs: ReadonlyArray<readonly [bigint, T]>, asOf: bigint | undefined): T | undefined => {
  let out: T | undefined
  for (const [p, v] of xs) if (asOf === undefined || p <= asOf) out = v
  return out
}

const merged = <T>(xs: ReadonlyArray<readonly [bigint, T]>) => {
  const out: Array<readonly [bigint, T]> = []
  for (const [p, v] of xs) {
    if (out.length > 0 && out[out.length - 1]![0] === p) out[out.length - 1] = [p, v]
    else out.push([p, v])
  }
  return out
}

describe("History", () => {
  it("answers as of every position like the list of its changes; one entry per position", () => {
    fc.assert(
      fc.property(changes, (xs) => {
        const h = new History<number>()
        for (const [p, v] of xs) h.set(p, v)
        const last = xs.length === 0 ? 0n : xs[xs.length - 1]![0]
        for (let q = -1n; q <= last + 1n; q++) expect(h.at(q)).toBe(reference(xs, q))
        expect(h.at(undefined)).toBe(reference(xs, undefined))
        expect(h.latest()).toBe(reference(xs, undefined))
        expect(h.entries()).toEqual(merged(xs))
        expect(h.length).toBe(merged(xs).length)
      }),
    )
  })
})

describe("BalanceHistory", () => {
  it("stores totals and blocked amounts and derives the same balances a fold of balanceOf would have stored", () => {
    fc.assert(
      fc.property(changes, fc.bigInt({ min: 0n, max: 20n }), (xs, reserve) => {
        const h = new BalanceHistory(reserve)
        const stored: Array<readonly [bigint, ReturnType<typeof balanceOf>]> = []
        let before = { total: 0n, blocked: 0n }
        for (const [p, v] of xs) {
          const total = BigInt(v)
          const blocked = BigInt(v % 3)
          h.adjust(p, total, blocked)
          const after = balanceOf(before.total + total, before.blocked + blocked, reserve)
          stored.push([p, after])
          before = after
        }
        const last = xs.length === 0 ? 0n : xs[xs.length - 1]![0]
        for (let q = -1n; q <= last + 1n; q++) expect(h.at(q)).toEqual(reference(stored, q))
        expect(h.latest()).toEqual(reference(stored, undefined))
        expect(h.entries()).toEqual(merged(stored))
      }),
    )
  })

  it("reads a balance recorded as it is back verbatim, and adjusts from it", () => {
    const h = new BalanceHistory(0n)
    h.adjust(1n, 10n, 0n)
    h.set(2n, { total: 11n, available: -1n, blocked: 0n, allocated: 0n })
    expect(h.at(1n)).toEqual({ total: 10n, available: 10n, blocked: 0n, allocated: 0n })
    expect(h.at(2n)).toEqual({ total: 11n, available: -1n, blocked: 0n, allocated: 0n })
    h.adjust(3n, 1n, 2n)
    expect(h.latest()).toEqual({ total: 12n, available: 10n, blocked: 2n, allocated: 0n })
    expect(h.length).toBe(3)
  })
})
