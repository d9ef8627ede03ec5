// A chain's schedule and height as of each position: a configuration sets the schedule, each block anchors it at
// the block and keeps the rest, and a read as of an earlier position sees the state then.
import { describe, expect, it } from "vitest"
import { ChainStates } from "../../../src/projections/chains-state.js"

const schedule = { mode: "interval" as const, intervalSeconds: 12, confirmations: 3, anchorHeight: 0, anchorAt: 1_000 }

describe("a chain's states", () => {
  it("read as of a position give the configuration and the block then; none before the first", () => {
    const s = new ChainStates()
    expect(s.latest()).toBeUndefined()
    s.mined(5n, 1, 2_000, 1)
    expect(s.length).toBe(0)
    s.configure(10n, schedule, 0)
    s.mined(20n, 2, 13_000, 2)
    s.configure(30n, { ...schedule, mode: "manual", confirmations: 6, anchorHeight: 2, anchorAt: 14_000 }, 2)
    s.mined(40n, 5, 50_000, 5)
    expect(s.at(9n)).toBeUndefined()
    expect(s.at(10n)).toEqual({ schedule, height: 0 })
    expect(s.at(25n)).toEqual({ schedule: { ...schedule, anchorHeight: 2, anchorAt: 13_000 }, height: 2 })
    expect(s.at(40n)).toEqual({
      schedule: { mode: "manual", intervalSeconds: 12, confirmations: 6, anchorHeight: 5, anchorAt: 50_000 },
      height: 5,
    })
    expect(s.latest()).toEqual(s.at(undefined))
    expect(s.latest()).toEqual(s.at(40n))
    expect(s.latestHeight()).toBe(5)
    expect(s.latestInterval()).toBe(12)
    expect(s.entries().map(([p, x]) => [p, x.height, x.schedule.mode])).toEqual([
      [10n, 0, "interval"],
      [20n, 2, "interval"],
      [30n, 2, "manual"],
      [40n, 5, "manual"],
    ])
  })

  it("a second change at one position replaces the first", () => {
    const s = new ChainStates()
    s.configure(10n, schedule, 0)
    s.mined(10n, 3, 5_000, 3)
    expect(s.entries()).toEqual([[10n, { schedule: { ...schedule, anchorHeight: 3, anchorAt: 5_000 }, height: 3 }]])
  })
})
