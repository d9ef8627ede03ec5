// The checkpoints of a data directory: `read-models.<position>.checkpoint`, the newest few kept. Choosing one
// checks it against the code and the log; files ahead of a cut-back log are removed before the log is cut.
import { closeSync, openSync, readdirSync, readSync, unlinkSync } from "node:fs"
import { join } from "node:path"
import { Effect } from "effect"
import type { LoadedGraph } from "../projections/storage/graph-codec.js"
import type { EventStoreShape } from "../store/event-store.js"
import { CheckpointRefused, eventDigest, HEADER_BYTES, readCheckpointFile, readCheckpointHeader, type CheckpointHeader } from "./file.js"

const NAME = /^read-models\.(\d+)\.checkpoint$/

export const checkpointFile = (dir: string, position: bigint): string => join(dir, `read-models.${position}.checkpoint`)

/** The directory's checkpoint files, newest (highest position) first. */
export const listCheckpoints = (dir: string): Array<{ readonly file: string; readonly position: bigint }> => {
  let names: Array<string>
  try {
    names = readdirSync(dir)
  } catch {
    return []
  }
  const out: Array<{ file: string; position: bigint }> = []
  for (const name of names) {
    const m = NAME.exec(name)
    if (m !== null) out.push({ file: join(dir, name), position: BigInt(m[1]!) })
  }
  return out.sort((a, b) => (a.position < b.position ? 1 : a.position > b.position ? -1 : 0))
}

/** Removes what a write killed halfway left (a temporary file: never read, only in the way). */
export const dropInterruptedWrites = (dir: string): void => {
  for (const name of readdirSync(dir)) if (/^read-models\.\d+\.checkpoint\.tmp$/.test(name)) unlinkSync(join(dir, name))
}

/** Removes the files beyond `position` (the log is about to be cut back there) and leftovers of interrupted writes. */
export const dropCheckpointsAfter = (dir: string, position: bigint): void => {
  for (const c of listCheckpoints(dir)) if (c.position > position) unlinkSync(c.file)
}

/**
 * After a file at `written` was written: keeps it and the newest `keep - 1` before it. Files beyond it were refused
 * at start (a valid one would have been loaded, and the models would be past it), so they go too.
 */
export const pruneCheckpoints = (dir: string, written: bigint, keep: number): void => {
  const all = listCheckpoints(dir)
  for (const c of all) if (c.position > written) unlinkSync(c.file)
  for (const c of all.filter((c) => c.position <= written).slice(keep)) unlinkSync(c.file)
}

const peekHeader = (file: string): CheckpointHeader => {
  const fd = openSync(file, "r")
  try {
    const buf = Buffer.alloc(HEADER_BYTES)
    const n = readSync(fd, buf, 0, buf.length, 0)
    return readCheckpointHeader(buf.subarray(0, n)).header
  } finally {
    closeSync(fd)
  }
}

export interface ChosenCheckpoint {
  readonly file: string
  readonly header: CheckpointHeader
  readonly encoded: LoadedGraph
}

/**
 * The newest checkpoint that this code wrote from this log: same code fingerprint, its position still in the log
 * with the very event it was taken after, every section whole. Each one refused is reported (`refused`) and skipped.
 */
export const chooseCheckpoint = async (
  dir: string,
  store: EventStoreShape,
  code: string,
  refused: (file: string, reason: string) => void,
): Promise<ChosenCheckpoint | undefined> => {
  for (const { file, position } of listCheckpoints(dir)) {
    try {
      const header = peekHeader(file)
      if (header.code !== code) throw new CheckpointRefused("written by other read-model code")
      if (header.position !== String(position)) throw new CheckpointRefused("its name and header disagree")
      const [event] = await Effect.runPromise(store.readAll({ fromPosition: position, maxCount: 1 }))
      if (event === undefined || event.position !== position)
        throw new CheckpointRefused("ahead of the log (the log was cut back or is another one)")
      if (eventDigest(event) !== header.event) throw new CheckpointRefused("taken from another log (the event at its position differs)")
      const read = readCheckpointFile(file)
      return { file, header: read.header, encoded: read.encoded }
    } catch (e) {
      refused(file, e instanceof CheckpointRefused ? e.message : `unreadable: ${e instanceof Error ? e.message : String(e)}`)
    }
  }
  return undefined
}
