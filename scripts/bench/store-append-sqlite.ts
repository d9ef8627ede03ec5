// The SQLite adapter's appends vs raw better-sqlite3 inserts of the same rows, same pragmas (budget: ≥ 0.7×).
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import Database from "better-sqlite3"
import { Effect } from "effect"
import type { ExpectedRevision } from "../../src/store/event-store.js"
import { makeSqliteStore } from "../../src/store/sqlite.js"
import { compareOps } from "./lib/compare-ops.js"
import { makeWorkload } from "./lib/events.js"
import { ratioAtLeast, type Benchmark, type RunOptions } from "./lib/types.js"

// A copy of the adapter's table (src/store/sqlite.ts); checked against the adapter's file before measuring.
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
`

/** The adapter's pragmas at durability "normal". */
const applyPragmas = (db: Database.Database) => {
  db.pragma("locking_mode = EXCLUSIVE")
  db.pragma("journal_mode = WAL")
  db.pragma("synchronous = NORMAL")
  db.pragma("wal_autocheckpoint = 10000")
}

const removeDb = (file: string) => {
  for (const suffix of ["", "-wal", "-shm", "-journal"]) rmSync(file + suffix, { force: true })
}

const schemaOf = (file: string): string => {
  const db = new Database(file, { readonly: true })
  try {
    const rows = db.prepare<[], { sql: string }>("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name").all()
    return rows
      .map((r) =>
        r.sql
          .replace(/\s+/g, " ")
          .replace(/ IF NOT EXISTS/g, "")
          .trim(),
      )
      .join(";\n")
  } finally {
    db.close()
  }
}

/**
 * `inFlight` appends are started together per operation (as that many connections would send them): the adapter
 * commits them in one transaction (group commit), the baseline one transaction each, as the adapter did before.
 */
const compareSqlite = async (options: RunOptions, streamCount: number, appends: number, batchSize: number, inFlight = 1) => {
  const dir = mkdtempSync(join(tmpdir(), "custody-sim-bench-"))
  let files = 0
  const freshFile = () => join(dir, `bench-${++files}.sqlite`)
  try {
    // The baseline must write the adapter's table: compare the two files' schemas first.
    const probeA = freshFile()
    makeSqliteStore({ file: probeA, durability: "normal" }).close()
    const probeB = freshFile()
    const raw = new Database(probeB)
    applyPragmas(raw)
    raw.exec(schema)
    raw.close()
    const [a, b] = [schemaOf(probeA), schemaOf(probeB)]
    if (a !== b) throw new Error(`the baseline's schema differs from the adapter's:\nadapter:  ${a}\nbaseline: ${b}`)
    removeDb(probeA)
    removeDb(probeB)

    const w = makeWorkload(streamCount, appends, batchSize)
    const total = appends * batchSize
    const streamOf = w.batches.map((_, i) => w.streams[i % streamCount]!)
    const expected: Array<ExpectedRevision> = w.before.map((n) => (n === 0 ? "no_stream" : BigInt(n - 1)))

    return await compareOps({
      ...options,
      ops: appends / inFlight,
      unitsPerOp: batchSize * inFlight,
      rounds: options.quick ? 1 : 7,
      minRoundMs: options.quick ? 60 : 300,
      unit: batchSize === 1 ? "appends/s" : "events/s",
      note: `${streamCount} streams, ${appends.toLocaleString("en-US")} appends of ${batchSize} per repetition${inFlight > 1 ? `, ${inFlight} in flight at once` : ""}, a fresh WAL file each, synchronous=NORMAL`,
      subject: () => {
        const file = freshFile()
        const store = makeSqliteStore({ file, durability: "normal" })
        return {
          op: (j) => {
            if (inFlight === 1) return Effect.runPromise(store.append(streamOf[j]!, w.batches[j]!, expected[j]!))
            const started: Array<Promise<unknown>> = []
            for (let i = j * inFlight; i < (j + 1) * inFlight; i++)
              started.push(Effect.runPromise(store.append(streamOf[i]!, w.batches[i]!, expected[i]!)))
            return Promise.all(started)
          },
          teardown: () => {
            const head = Effect.runSync(store.headPosition)
            store.close()
            removeDb(file)
            // Positions are rowids (1-based here); the count is what matters.
            if (head < BigInt(total - 1)) throw new Error(`sqlite store head ${head} after ${total} events`)
          },
        }
      },
      baseline: () => {
        const file = freshFile()
        const db = new Database(file)
        applyPragmas(db)
        db.exec(schema)
        const begin = db.prepare("BEGIN")
        const commit = db.prepare("COMMIT")
        const insert = db.prepare("INSERT INTO events (stream, revision, id, type, data, metadata) VALUES (?, ?, ?, ?, ?, ?)")
        return {
          op: (j) => {
            for (let i = j * inFlight; i < (j + 1) * inFlight; i++) {
              const stream = streamOf[i]!
              let revision = w.before[i]!
              begin.run()
              for (const e of w.batches[i]!)
                insert.run(stream, revision++, e.id, e.type, JSON.stringify(e.data), JSON.stringify(e.metadata))
              commit.run()
            }
          },
          teardown: () => {
            const n = db.prepare<[], number>("SELECT count(*) FROM events").pluck().get()
            db.close()
            removeDb(file)
            if (n !== total) throw new Error(`baseline table holds ${n} rows, not ${total}`)
          },
        }
      },
    })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

export const storeAppendSqliteSingle: Benchmark = {
  name: "store-append-sqlite-single",
  description:
    "single-event appends/s, 10 in flight at once (as from 10 connections), SQLite adapter (one transaction per turn) vs raw better-sqlite3 (same table, pragmas, a transaction per append)",
  budget: ratioAtLeast(0.7),
  run: (options) => compareSqlite(options, 100, options.quick ? 1_000 : 2_000, 1, 10),
}

export const storeAppendSqliteBatch100: Benchmark = {
  name: "store-append-sqlite-batch100",
  description: "100-event batch appends (events/s), SQLite adapter vs raw better-sqlite3 (same table, pragmas, a transaction per batch)",
  budget: ratioAtLeast(0.7),
  run: (options) => compareSqlite(options, 10, options.quick ? 20 : 100, 100),
}
