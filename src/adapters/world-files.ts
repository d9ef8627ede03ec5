// <data-dir>/worlds/: the worlds of a SQLite server (docs/worlds.md, "Stores"), each in a directory of its own named
// by its id: its event log (events.sqlite), its clock (clock.json), its fault counters, and world.json, what
// reopening it needs besides its log (its seed, admin token, asset ids). world.json is written last, once the log
// holds the world's creation, and removed first when the world is deleted: a directory without one is a world never
// acknowledged, or one deleted, and the next start removes it. `made` counts the worlds ever created (their ids).
// A new world's log starts as a copy of an empty one made at start (.empty.sqlite): creating a log file and turning
// it to WAL costs its fsyncs, some 20 ms, where a copy costs one.
import {
  closeSync,
  copyFileSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from "node:fs"
import { join } from "node:path"
import { makeSqliteStore, type SqliteStore } from "../store/sqlite.js"
import { secureDataDir } from "./data-dir.js"

const RECORD = "world.json"
const MADE = "made"
const EMPTY = ".empty.sqlite"
const NAME = /^[A-Za-z0-9_-]{1,64}$/

export interface SavedWorldFile {
  readonly id: string
  /** world.json as parsed: its reader checks it. */
  readonly record: unknown
}

export interface WorldFiles {
  readonly root: string
  /** The worlds kept, in the order of their names; directories without a world.json removed. */
  readonly saved: () => ReadonlyArray<SavedWorldFile>
  /** A world's log, opened in its directory (created when new). */
  readonly open: (id: string) => { readonly store: SqliteStore; readonly dir: string }
  /** Writes world.json (to a temporary file renamed over it): from now on a start reopens the world. */
  readonly keep: (id: string, record: unknown) => void
  /** Removes world.json: no start reopens the world any more (its log may still be open). */
  readonly forget: (id: string) => void
  /** Removes the world's directory (its log closed). */
  readonly remove: (id: string) => void
  readonly made: () => number
  readonly setMade: (n: number) => void
}

export interface WorldFilesOptions {
  /** "full": every file written is synced to the disk, as the log's appends are (survives a power loss). */
  readonly durability?: "normal" | "full"
}

/** Writes `text` to `file` through a temporary file renamed over it: a reader sees the old text or the new. */
const writeAtomically = (file: string, text: string, sync: boolean) => {
  const fd = openSync(`${file}.tmp`, "w", 0o600)
  try {
    writeSync(fd, text)
    if (sync) fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
  renameSync(`${file}.tmp`, file)
}

/** An empty log, closed (no -wal beside it): undefined when closing it left one. */
const emptyLog = (root: string): string | undefined => {
  const file = join(root, EMPTY)
  rmSync(`${file}.tmp`, { force: true })
  makeSqliteStore({ file: `${file}.tmp` }).close()
  if (existsSync(`${file}.tmp-wal`)) return undefined
  renameSync(`${file}.tmp`, file)
  return file
}

const synced = (file: string) => {
  const fd = openSync(file, "r+")
  try {
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
}

const named = (id: string) => {
  if (!NAME.test(id)) throw new Error(`world id ${JSON.stringify(id)} cannot name a directory`)
  return id
}

export const openWorldFiles = (root: string, options: WorldFilesOptions = {}): WorldFiles => {
  const sync = options.durability === "full"
  mkdirSync(root, { recursive: true, mode: 0o700 })
  const empty = emptyLog(root)
  secureDataDir(root)
  const dirOf = (id: string) => join(root, named(id))
  const saved = (): ReadonlyArray<SavedWorldFile> => {
    const found: Array<SavedWorldFile> = []
    for (const entry of readdirSync(root, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (!entry.isDirectory() || !NAME.test(entry.name)) continue
      const file = join(root, entry.name, RECORD)
      if (!existsSync(file)) {
        rmSync(join(root, entry.name), { recursive: true, force: true })
        continue
      }
      let record: unknown
      try {
        record = JSON.parse(readFileSync(file, "utf8"))
      } catch (e) {
        throw new Error(`${file}: ${(e as Error).message} (move the world's directory aside to start without it)`)
      }
      found.push({ id: entry.name, record })
    }
    return found
  }
  return {
    root,
    saved,
    open: (id) => {
      const dir = dirOf(id)
      mkdirSync(dir, { recursive: true, mode: 0o700 })
      const file = join(dir, "events.sqlite")
      if (empty !== undefined && !existsSync(file)) {
        copyFileSync(empty, file)
        if (sync) synced(file)
      }
      const store = makeSqliteStore({ file, durability: options.durability ?? "normal" })
      // SQLite creates the log (and its -wal beside it) with the umask's mode.
      secureDataDir(dir)
      return { store, dir }
    },
    keep: (id, record) => writeAtomically(join(dirOf(id), RECORD), `${JSON.stringify(record)}\n`, sync),
    forget: (id) => rmSync(join(dirOf(id), RECORD), { force: true }),
    remove: (id) => rmSync(dirOf(id), { recursive: true, force: true }),
    made: () => {
      const file = join(root, MADE)
      if (!existsSync(file)) return 0
      const n = Number(readFileSync(file, "utf8").trim())
      return Number.isSafeInteger(n) && n >= 0 ? n : 0
    },
    // Written in place, one fixed width, never truncated: replacing a file (a rename over it, or a truncation)
    // makes ext4 flush it at once, some milliseconds per world. A torn count reads as 0, and the registry skips
    // the ids of the worlds it holds.
    setMade: (n) => {
      const fd = openSync(join(root, MADE), existsSync(join(root, MADE)) ? "r+" : "w", 0o600)
      try {
        writeSync(fd, `${String(n).padStart(15, " ")}\n`, 0)
        if (sync) fsyncSync(fd)
      } finally {
        closeSync(fd)
      }
    },
  }
}
