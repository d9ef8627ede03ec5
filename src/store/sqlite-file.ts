// The SQLite adapter's file (sqlite.ts): its schema and rows, how it is opened (one owner, WAL), and which of the
// driver's errors mean the store cannot serve.
import { mkdirSync } from "node:fs"
import { dirname } from "node:path"
import Database from "better-sqlite3"
import { Effect } from "effect"
import { StoreUnavailable } from "./event-store.js"

export interface SqliteStoreOptions {
  readonly file: string
  /** "normal" survives a killed process, "full" also a power loss (an fsync per append). */
  readonly durability?: "normal" | "full"
}

// Only the rowid and one index: each extra index costs another page write per single-event commit. Rows are
// deleted only from the end of the log (a revert), so the rowid (max + 1) is the position the log continues at:
// without AUTOINCREMENT, a revert's next event takes the position the first removed one had.
const schema = `
  CREATE TABLE IF NOT EXISTS events (
    position INTEGER PRIMARY KEY,
    stream TEXT NOT NULL,
    revision INTEGER NOT NULL,
    id TEXT NOT NULL,
    type TEXT NOT NULL,
    data TEXT NOT NULL,
    metadata TEXT NOT NULL
  );
  CREATE UNIQUE INDEX IF NOT EXISTS events_by_stream ON events (stream, revision);
  CREATE TABLE IF NOT EXISTS marks (name TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
`

export type StreamRow = [position: number, revision: number, id: string, type: string, data: string, metadata: string]
export type LogRow = [position: number, stream: string, revision: number, id: string, type: string, data: string, metadata: string]

export const open = (options: SqliteStoreOptions): Database.Database => {
  mkdirSync(dirname(options.file), { recursive: true })
  // No waiting for a lock (better-sqlite3 waits 5 s by default, on each statement): the file is locked only by
  // another process that owns it for as long as it runs, so a data dir in use is refused at once.
  const db = new Database(options.file, { timeout: 100 })
  try {
    // One owner: an exclusive lock spares the lock calls of every transaction and the shared-memory index (it
    // must precede WAL mode), and makes a second process fail to open the file rather than write under our cache.
    db.pragma("locking_mode = EXCLUSIVE")
    db.pragma("journal_mode = WAL")
    db.pragma(`synchronous = ${options.durability === "full" ? "FULL" : "NORMAL"}`)
    // Fewer checkpoints: a hot index page is written back once per 10,000 frames rather than per 1,000.
    db.pragma("wal_autocheckpoint = 10000")
    db.exec(schema)
    return db
  } catch (cause) {
    db.close()
    throw cause
  }
}

// SQLite reads a negative LIMIT as "no limit".
export const limit = (maxCount: number | undefined) => (maxCount === undefined ? -1 : Math.max(0, maxCount))

export const unavailable = (cause: unknown) =>
  new StoreUnavailable({ reason: `sqlite: ${cause instanceof Error ? cause.message : String(cause)}`, cause })

// I/O, locking and corruption errors mean the store cannot serve; a broken constraint or a closed handle is a bug.
export const failed = (cause: unknown): Effect.Effect<never, StoreUnavailable> =>
  cause instanceof Database.SqliteError && !cause.code.startsWith("SQLITE_CONSTRAINT") ? Effect.fail(unavailable(cause)) : Effect.die(cause)

export const attempt = <A>(read: () => A): Effect.Effect<A, StoreUnavailable> =>
  Effect.suspend(() => {
    try {
      return Effect.succeed(read())
    } catch (cause) {
      return failed(cause)
    }
  })
