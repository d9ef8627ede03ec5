// <data-dir>/clock.json: where the simulated clock stood, written at every move that is not the wall clock's own
// (advance, freeze, follow, a revert) and at a clean stop, so that a restart, even after SIGKILL, resumes at or
// after it (README: "Restarts and the clock"). Written to a temporary file and renamed over the old one: a reader
// sees the old state or the new one, never half of either.
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { Result, Schema } from "effect"
import { makeClock, type ClockMode, type ClockState, type ControllableClock } from "./clock.js"

const FORMAT = "custody-sim/clock@1"

const ClockFile = Schema.Struct({
  format: Schema.Literal(FORMAT),
  mode: Schema.Literals(["frozen", "wall"]),
  /** Simulated time, UNIX ms, when it was written. */
  at: Schema.Number.check(Schema.isFinite()),
  /** Wall mode: simulated time minus wall time. */
  offset: Schema.Number.check(Schema.isFinite()),
})
const decode = Schema.decodeUnknownResult(ClockFile)

const clockPath = (dataDir: string): string => join(dataDir, "clock.json")

/** The state last written, or undefined when there is none (or it cannot be read: the log's last time decides then). */
const readClockFile = (dataDir: string): ClockState | undefined => {
  const file = clockPath(dataDir)
  if (!existsSync(file)) return undefined
  let parsed: unknown
  try {
    parsed = JSON.parse(readFileSync(file, "utf8"))
  } catch {
    return undefined
  }
  const r = decode(parsed)
  return Result.isFailure(r) ? undefined : { frozen: r.success.mode === "frozen", at: r.success.at, offset: r.success.offset }
}

export const writeClockFile = (dataDir: string, s: ClockState): void => {
  const file = clockPath(dataDir)
  writeFileSync(`${file}.tmp`, `${JSON.stringify({ format: FORMAT, mode: s.frozen ? "frozen" : "wall", at: s.at, offset: s.offset })}\n`, {
    mode: 0o600,
  })
  renameSync(`${file}.tmp`, file)
}

export interface ClockOptions {
  /** Frozen at this time (UNIX ms) until advanced; without it, the clock follows the wall clock. */
  readonly frozenAt?: number
  readonly wall?: () => number
  /** Keep the clock's state in this directory's clock.json and resume from it. */
  readonly dataDir?: string
}

/**
 * The clock a start resumes. With a saved state, a frozen clock resumes frozen where it stood; a clock that followed
 * the wall clock follows it again with the same offset (the time it was stopped passed for the world too), and never
 * below the time saved. `frozenAt` freezes it, at that time or where it stood if that is later.
 */
export const resumeClock = (o: ClockOptions): ControllableClock => {
  const wall = o.wall ?? (() => Date.now())
  const saved = o.dataDir === undefined ? undefined : readClockFile(o.dataDir)
  const stood = saved === undefined ? undefined : saved.frozen ? saved.at : Math.max(saved.at, wall() + saved.offset)
  const mode: ClockMode =
    o.frozenAt !== undefined
      ? { _tag: "Frozen", at: Math.max(o.frozenAt, stood ?? o.frozenAt) }
      : saved?.frozen === true
        ? { _tag: "Frozen", at: saved.at }
        : { _tag: "Wall", offset: saved?.offset ?? 0 }
  const dir = o.dataDir
  const clock = makeClock(mode, wall, dir === undefined ? undefined : (s) => writeClockFile(dir, s))
  if (stood !== undefined && stood > clock.now()) clock.advance(stood - clock.now())
  return clock
}
