// The calls each fault has matched (/_sim/faults: the k-th of `every`, the draw of `probability`), and
// <data-dir>/fault-calls.json that keeps them over a restart. A call that is not hit writes no event, so the log
// alone knows only the call of each fault's last hit: without the file, a restarted schedule would count on from
// there. The file is written at most every WRITE_AFTER_MS while calls are counted (a SIGKILL loses at most that
// much of the count) and at close; to a temporary file renamed over the old one, as clock.json is. A snapshot keeps
// the counts it was taken with and its revert puts them back, as it puts back the clock.
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs"
import { join } from "node:path"

const FORMAT = "custody-sim/fault-calls@1"
const WRITE_AFTER_MS = 100

export interface FaultCalls {
  /** The number of this call among the fault's matching calls (1-based), never at or below its last hit's. */
  readonly next: (faultId: string, lastHitCall: number) => number
  /** Writes the counts of the faults in force now, if they are kept in a file. */
  readonly save: () => void
  /** The counts now, for a snapshot to put back at its revert (snapshots/snapshots.ts). */
  readonly capture: () => ReadonlyMap<string, number>
  /** Puts back counts captured earlier: every count not among them is dropped (its fault counts from its last hit). */
  readonly restore: (image: ReadonlyMap<string, number>) => void
}

const callsPath = (dataDir: string): string => join(dataDir, "fault-calls.json")

/** The counts last written, or none when there is no file or it cannot be read (each fault then counts from its last hit). */
const readCalls = (dataDir: string): Map<string, number> => {
  const file = callsPath(dataDir)
  if (!existsSync(file)) return new Map()
  try {
    const parsed = JSON.parse(readFileSync(file, "utf8")) as { format?: unknown; calls?: unknown }
    if (parsed.format !== FORMAT || typeof parsed.calls !== "object" || parsed.calls === null) return new Map()
    return new Map(
      Object.entries(parsed.calls).filter((e): e is [string, number] => typeof e[1] === "number" && Number.isInteger(e[1]) && e[1] >= 0),
    )
  } catch {
    return new Map()
  }
}

/** Counts in memory, resumed from and kept in `dataDir` when given; `inForce` prunes faults removed since. */
export const makeFaultCalls = (dataDir: string | undefined, inForce: (faultId: string) => boolean): FaultCalls => {
  const calls = dataDir === undefined ? new Map<string, number>() : readCalls(dataDir)
  let pending: ReturnType<typeof setTimeout> | undefined
  const save = (): void => {
    if (pending !== undefined) clearTimeout(pending)
    pending = undefined
    if (dataDir === undefined) return
    for (const id of [...calls.keys()]) if (!inForce(id)) calls.delete(id)
    const file = callsPath(dataDir)
    writeFileSync(`${file}.tmp`, `${JSON.stringify({ format: FORMAT, calls: Object.fromEntries(calls) })}\n`, { mode: 0o600 })
    renameSync(`${file}.tmp`, file)
  }
  const changed = (): void => {
    if (dataDir !== undefined && pending === undefined) {
      pending = setTimeout(save, WRITE_AFTER_MS)
      pending.unref()
    }
  }
  return {
    next: (faultId, lastHitCall) => {
      const call = Math.max(calls.get(faultId) ?? 0, lastHitCall) + 1
      calls.set(faultId, call)
      changed()
      return call
    },
    save,
    capture: () => new Map(calls),
    restore: (image) => {
      calls.clear()
      for (const [id, n] of image) calls.set(id, n)
      changed()
    },
  }
}
