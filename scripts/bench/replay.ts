// Replay and rebuild of a 1,000,000-event log: from SQLite against a bare SELECT + JSON.parse scan of the same
// file (budget ≥ 0.7×), and from the memory store (budget ≥ 1,000,000 events/s).
// Run alone: `npx tsx scripts/bench/replay.ts [--quick] [--events N]`.
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import Database from "better-sqlite3"
import { openReplayed } from "../../src/scenario/replay.js"
import type { EventStoreShape } from "../../src/store/event-store.js"
import { makeMemoryStore } from "../../src/store/memory.js"
import { makeSqliteStore } from "../../src/store/sqlite.js"
import { LOG_SEED, planLedgerLog, writeLedgerLog } from "./lib/ledger-log.js"
import { fullGc, median, sleep } from "./lib/stats.js"
import { absoluteAtLeast, ratioAtLeast, type Benchmark, type Measurement, type RunOptions } from "./lib/types.js"

export interface ReplayFigures {
  readonly events: number
  /** Events/s rebuilding every read model from the SQLite file (open store, createSimulator's pull). */
  readonly sqliteRebuild: ReadonlyArray<number>
  /** Events/s of a bare SELECT … ORDER BY position over the same file, JSON.parse of data and metadata. */
  readonly sqliteScan: ReadonlyArray<number>
  /** Events/s rebuilding every read model from the memory store. */
  readonly memoryRebuild: ReadonlyArray<number>
}

/** Seconds a rebuild of every read model takes over `store` (what replay, audit and a restart do). */
const rebuild = async (store: EventStoreShape & { close?: () => void }): Promise<number> => {
  const t0 = performance.now()
  const sim = await openReplayed(store, LOG_SEED)
  const seconds = (performance.now() - t0) / 1000
  await sim.close()
  // Closing leaves a few scheduled callbacks holding the runtime (and so the read models) for a tick.
  for (let i = 0; i < 3; i++) await sleep(10)
  return seconds
}

const scan = (file: string, expected: number): number => {
  const db = new Database(file, { readonly: true })
  try {
    const t0 = performance.now()
    let n = 0
    const rows = db.prepare<[], [number, string, number, string, string, string, string]>("SELECT position, stream, revision, id, type, data, metadata FROM events ORDER BY position").raw()
    for (const row of rows.iterate()) {
      JSON.parse(row[5])
      JSON.parse(row[6])
      n++
    }
    const seconds = (performance.now() - t0) / 1000
    if (n !== expected) throw new Error(`scan read ${n} events, not ${expected}`)
    return seconds
  } finally {
    db.close()
  }
}

export const measureReplay = async (options: { events?: number; rounds?: number; log?: (line: string) => void } = {}): Promise<ReplayFigures> => {
  const events = options.events ?? 1_000_000
  const rounds = options.rounds ?? 3
  const log = options.log ?? (() => {})
  const plan = await planLedgerLog(Math.min(1000, Math.max(10, Math.floor(events / 1000))))
  const dir = mkdtempSync(join(tmpdir(), "custody-sim-bench-replay-"))
  const file = join(dir, "events.sqlite")
  try {
    // The SQLite rounds run before the memory log exists: a restart from the file has no second copy of the log in
    // its heap, and a resident one would make every full collection during the rebuild (never during the scan) mark it.
    log(`generating ${events.toLocaleString("en-US")} events (SQLite)…`)
    const sqlite = makeSqliteStore({ file })
    const total = await writeLedgerLog(sqlite, plan, events)
    sqlite.close()
    const sqliteRebuild: Array<number> = []
    const sqliteScan: Array<number> = []
    const memoryRebuild: Array<number> = []
    for (let r = 0; r < rounds; r++) {
      fullGc()
      sqliteScan.push(total / scan(file, total))
      fullGc()
      sqliteRebuild.push(total / (await rebuild(makeSqliteStore({ file }))))
      log(`round ${r + 1}: scan ${Math.round(sqliteScan[r]!)}/s, sqlite rebuild ${Math.round(sqliteRebuild[r]!)}/s`)
    }
    log(`generating ${events.toLocaleString("en-US")} events (memory)…`)
    const memory = makeMemoryStore()
    if ((await writeLedgerLog(memory, plan, events)) !== total) throw new Error("the memory log differs in length from the SQLite one")
    for (let r = 0; r < rounds; r++) {
      fullGc()
      memoryRebuild.push(total / (await rebuild(memory)))
      log(`round ${r + 1}: memory rebuild ${Math.round(memoryRebuild[r]!)}/s`)
    }
    return { events: total, sqliteRebuild, sqliteScan, memoryRebuild }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

// One generated log serves both benchmarks of a run.
let shared: Promise<ReplayFigures> | undefined
const figures = (o: RunOptions) => (shared ??= measureReplay({ events: o.quick ? 100_000 : 1_000_000, rounds: o.quick ? 1 : 3, log: o.log }))

export const replaySqlite: Benchmark = {
  name: "replay-sqlite-rebuild",
  description: "events/s rebuilding every read model from a 1M-event SQLite log vs a bare SELECT + JSON.parse scan of the same file",
  budget: ratioAtLeast(0.7),
  run: async (o): Promise<Measurement> => {
    const f = await figures(o)
    const ratios = f.sqliteRebuild.map((s, i) => s / f.sqliteScan[i]!)
    return {
      subject: median(f.sqliteRebuild),
      baseline: median(f.sqliteScan),
      ratio: median(ratios),
      unit: "events/s",
      note: `${f.events.toLocaleString("en-US")} events: deposits in blocks of 10 (submitted, mined, credited, notified)`,
      samples: { subject: f.sqliteRebuild, baseline: f.sqliteScan, ratios },
    }
  },
}

export const replayMemory: Benchmark = {
  name: "replay-memory-rebuild",
  description: "events/s rebuilding every read model from a 1M-event log in the memory store",
  budget: absoluteAtLeast(1_000_000, "events/s"),
  run: async (o): Promise<Measurement> => {
    const f = await figures(o)
    return { subject: median(f.memoryRebuild), unit: "events/s", note: `${f.events.toLocaleString("en-US")} events`, samples: { subject: f.memoryRebuild } }
  },
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const quick = process.argv.includes("--quick")
  const i = process.argv.indexOf("--events")
  const events = i > 0 ? Number(process.argv[i + 1]) : quick ? 100_000 : 1_000_000
  const f = await measureReplay({ events, rounds: quick ? 1 : 3, log: (l) => process.stderr.write(`${l}\n`) })
  const ratio = median(f.sqliteRebuild.map((s, k) => s / f.sqliteScan[k]!))
  process.stdout.write(
    `${JSON.stringify({ events: f.events, sqliteRebuildPerSecond: median(f.sqliteRebuild), sqliteScanPerSecond: median(f.sqliteScan), sqliteRatio: ratio, memoryRebuildPerSecond: median(f.memoryRebuild) }, null, 2)}\n`,
  )
}
