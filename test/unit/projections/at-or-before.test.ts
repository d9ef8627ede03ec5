// The as-of search: the number of keys at or before a point is what a scan counts, for numbers, bigints and pairs;
// the timeline and the creation order read through it answer as a scan of their entries does.
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { countAtOrBefore, keyOfArray } from "../../../src/projections/storage/at-or-before.js"
import { CreationOrder } from "../../../src/projections/storage/history.js"
import { Timeline } from "../../../src/projections/timeline.js"

/** Keys that never decrease, with repeats. */
const sorted = fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 40 }).map((gaps) => {
  let k = 0
  return gaps.map((g) => (k += g))
})

const scan = (keys: ReadonlyArray<number>, x: number) => keys.filter((k) => k <= x).length

describe("countAtOrBefore", () => {
  it("counts the keys at or before a point, as a scan does, for numbers and bigints", () => {
    fc.assert(
      fc.property(sorted, fc.integer({ min: -2, max: 130 }), (keys, x) => {
        expect(countAtOrBefore(keys, keys.length, keyOfArray, x)).toBe(scan(keys, x))
        expect(countAtOrBefore(keys.map(BigInt), keys.length, keyOfArray, BigInt(x))).toBe(scan(keys, x))
      }),
    )
  })

  it("reads keys through its accessor: every other element of a pair list", () => {
    fc.assert(
      fc.property(sorted, fc.integer({ min: -2, max: 130 }), (keys, x) => {
        const pairs = keys.flatMap((k) => [k, `v${k}`])
        expect(countAtOrBefore(pairs, keys.length, (p, i) => p[2 * i] as number, x)).toBe(scan(keys, x))
      }),
    )
  })
})

describe("the timeline and the creation order", () => {
  it("turn a time into the last position at or before it, and a position into the time in force", () => {
    fc.assert(
      fc.property(sorted, fc.integer({ min: -2, max: 130 }), (times, t) => {
        const timeline = new Timeline()
        times.forEach((at, i) => {
          timeline.record(BigInt(i + 1), at)
        })
        const before = times.filter((at) => at <= t).length
        expect(timeline.positionAtTime(t)).toBe(before === 0 ? -1n : BigInt(before))
        for (let p = 1; p <= times.length; p++) expect(timeline.timeAt(BigInt(p))).toBe(times[p - 1])
        expect(timeline.timeAt(BigInt(times.length + 1))).toBeUndefined()
      }),
    )
  })

  it("lists what was created at or before a position", () => {
    fc.assert(
      fc.property(sorted, fc.integer({ min: -2, max: 130 }), (positions, p) => {
        const order = new CreationOrder<number>()
        positions.forEach((q, i) => {
          order.push(BigInt(q), i)
        })
        expect(order.upTo(BigInt(p))).toEqual(positions.flatMap((q, i) => (q <= p ? [i] : [])))
        expect(order.upTo(undefined)).toEqual(positions.map((_, i) => i))
      }),
    )
  })
})
