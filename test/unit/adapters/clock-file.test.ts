// Where the clock stood, kept in clock.json: what a start resumes from it (the wall clock is a variable here).
import { readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { resumeClock } from "../../../src/adapters/clock-file.js"
import { tempDir } from "../../support/temp-dir.js"

const T = Date.UTC(2026, 0, 1)
const dir = () => tempDir("custody-sim-clock-file-")

describe("resumeClock", () => {
  it("a frozen clock resumes frozen where it stood; an earlier frozenAt does not take it back, a later one moves it on", () => {
    const d = dir()
    const first = resumeClock({ frozenAt: T, dataDir: d })
    first.advance(3_600_000)
    expect(JSON.parse(readFileSync(join(d, "clock.json"), "utf8"))).toEqual({
      format: "custody-sim/clock@1",
      mode: "frozen",
      at: T + 3_600_000,
      offset: 0,
    })
    const again = resumeClock({ dataDir: d })
    expect([again.now(), again.isFrozen()]).toEqual([T + 3_600_000, true])
    expect(resumeClock({ frozenAt: T, dataDir: d }).now()).toBe(T + 3_600_000)
    expect(resumeClock({ frozenAt: T + 7_200_000, dataDir: d }).now()).toBe(T + 7_200_000)
  })

  it("a wall clock keeps its offset, and never resumes below the time saved when the wall clock went back", () => {
    const d = dir()
    let wall = T
    const first = resumeClock({ wall: () => wall, dataDir: d })
    first.advance(60_000)
    wall += 10_000
    const resumed = resumeClock({ wall: () => wall, dataDir: d })
    expect([resumed.now(), resumed.isFrozen()]).toEqual([T + 70_000, false])
    wall = T - 1_000_000 // the machine's clock set back
    const back = resumeClock({ wall: () => wall, dataDir: d })
    expect(back.now()).toBe(T + 60_000)
    wall += 5_000
    expect([back.now(), back.isFrozen()]).toEqual([T + 65_000, false]) // and follows the wall clock on from there
  })

  it("a switch between modes is saved at once", () => {
    const d = dir()
    let wall = T
    const c = resumeClock({ wall: () => wall, dataDir: d })
    c.freeze()
    wall += 50_000
    expect(resumeClock({ wall: () => wall, dataDir: d }).now()).toBe(T)
    c.follow()
    expect(resumeClock({ wall: () => wall, dataDir: d }).isFrozen()).toBe(false)
  })

  it("a file that is not a clock file is ignored: the start decides as if there were none", () => {
    const d = dir()
    writeFileSync(join(d, "clock.json"), '{"format":"custody-sim/clock@1","mode":"frozen","at":"soon"}')
    expect(resumeClock({ frozenAt: T, dataDir: d }).now()).toBe(T)
    writeFileSync(join(d, "clock.json"), "{")
    expect(resumeClock({ wall: () => T, dataDir: d }).now()).toBe(T)
  })
})
