// Replay and rebuild of a 1,000,000-event log: from SQLite against a bare SELECT + JSON.parse scan of the same
// file (budget ≥ 0.8×, the performance issue's goal), and from the memory store (budget ≥ 1,000,000 events/s).
// Run alone: `npx tsx scripts/bench/replay.ts [--quick] [--events N]`.
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import Database from "better-sqlite3"
import { openReplayed } from "../../src/simulator.js"
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
  /**
   * The same three per second of the process's CPU time (user + system, the collector's threads included): on a
   * machine whose cores other processes take, wall time measures the wait for a core as much as the work.
   */
  readonly cpu: {
    readonly sqliteRebuild: ReadonlyArray<number>
    readonly sqliteScan: ReadonlyArray<number>
    readonly memoryRebuild: ReadonlyArray<number>
  }
  /** Memory held once the log is loaded from SQLite (a simulator open on it), after a full collection. */
  readonly memory: MemoryFigures
}

export interface MemoryFigures {
  /** Bytes of the log as JSON: one line per event, `{position, stream, revision, id, type, data, metadata}`. */
  readonly jsonBytes: number
  /** Growth of the resident set and of the heap (used, external included) from before opening to after. */
  readonly rssBytes: number
  readonly heapBytes: number
  /** The process's resident set and heap (used, external included) with the simulator open. */
  readonly rssTotalBytes: number
  readonly heapTotalBytes: number
}

interface Timed {
  readonly seconds: number
  readonly cpuSeconds: number
}

const cpuNow = (): number => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1e6
}

/** Seconds a rebuild of every read model takes over `store` (what replay, audit and a restart do). */
const rebuild = async (store: EventStoreShape & { close?: () => void }): Promise<Timed> => {
  const t0 = performance.now()
  const c0 = cpuNow()
  const sim = await openReplayed(store, LOG_SEED)
  const timed = { seconds: (performance.now() - t0) / 1000, cpuSeconds: cpuNow() - c0 }
  await sim.close()
  // Closing leaves a few scheduled callbacks holding the runtime (and so the read models) for a tick.
  for (let i = 0; i < 3; i++) await sleep(10)
  return timed
}

/** Bytes of the log written as JSON lines (what an export holds), read back from the file. */
const jsonBytes = (file: string): number => {
  const db = new Database(file, { readonly: true })
  try {
    let bytes = 0
    const rows = db
      .prepare<[], [number, string, number, string, string, string, string]>(
        "SELECT position, stream, revision, id, type, data, metadata FROM events ORDER BY position",
      )
      .raw()
    for (const [position, stream, revision, id, type, data, metadata] of rows.iterate())
      bytes += Buffer.byteLength(
        `{"position":${position},"stream":${JSON.stringify(stream)},"revision":${revision},"id":${JSON.stringify(id)},"type":${JSON.stringify(type)},"data":${data},"metadata":${metadata}}\n`,
      )
    return bytes
  } finally {
    db.close()
  }
}

/**
 * V8's used heap and the memory outside it. The read models' grown columns are SharedArrayBuffers, which V8 leaves out
 * of `external` (projections/storage/columns.ts says why) and Node counts in `arrayBuffers` with every other ArrayBuffer; the
 * larger of the two stands for the memory outside the heap (each leaves out only the other's small part).
 */
const heapNow = (): number => {
  const m = process.memoryUsage()
  return m.heapUsed + Math.max(m.external, m.arrayBuffers)
}

/** What a simulator open on the file holds, after a full collection on each side (the models, the runtime, the store). */
const loadedMemory = async (file: string): Promise<Omit<MemoryFigures, "jsonBytes">> => {
  for (let i = 0; i < 3; i++) await sleep(10)
  fullGc()
  const rss0 = process.memoryUsage().rss
  const heap0 = heapNow()
  const sim = await openReplayed(makeSqliteStore({ file }), LOG_SEED)
  for (let i = 0; i < 3; i++) await sleep(10)
  fullGc()
  const rss = process.memoryUsage().rss
  const heap = heapNow()
  const figures = { rssBytes: rss - rss0, heapBytes: heap - heap0, rssTotalBytes: rss, heapTotalBytes: heap }
  await sim.close()
  return figures
}

const scan = (file: string, expected: number): Timed => {
  const db = new Database(file, { readonly: true })
  try {
    const t0 = performance.now()
    const c0 = cpuNow()
    let n = 0
    const rows = db
      .prepare<[], [number, string, number, string, string, string, string]>(
        "SELECT position, stream, revision, id, type, data, metadata FROM events ORDER BY position",
      )
      .raw()
    for (const row of rows.iterate()) {
      JSON.parse(row[5])
      JSON.parse(row[6])
      n++
    }
    const timed = { seconds: (performance.now() - t0) / 1000, cpuSeconds: cpuNow() - c0 }
    if (n !== expected) throw new Error(`scan read ${n} events, not ${expected}`)
    return timed
  } finally {
    db.close()
  }
}

const mb = (bytes: number) => (bytes / 1e6).toFixed(1)

export const measureReplay = async (
  options: { events?: number; rounds?: number; log?: (line: string) => void } = {},
): Promise<ReplayFigures> => {
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
    // Measured first thing after the log is written, so that the rounds' garbage does not blur the resident set.
    const json = jsonBytes(file)
    const held = await loadedMemory(file)
    const loaded: MemoryFigures = { jsonBytes: json, ...held }
    log(
      `loaded: rss +${mb(held.rssBytes)} MB (${mb(held.rssTotalBytes)} MB), heap +${mb(held.heapBytes)} MB (${mb(held.heapTotalBytes)} MB), log JSON ${mb(json)} MB (${(held.rssBytes / json).toFixed(2)}× / ${(held.heapBytes / json).toFixed(2)}×)`,
    )
    const sqliteRebuild: Array<number> = []
    const sqliteScan: Array<number> = []
    const memoryRebuild: Array<number> = []
    const cpu = { sqliteRebuild: [] as Array<number>, sqliteScan: [] as Array<number>, memoryRebuild: [] as Array<number> }
    for (let r = 0; r < rounds; r++) {
      fullGc()
      const s = scan(file, total)
      sqliteScan.push(total / s.seconds)
      cpu.sqliteScan.push(total / s.cpuSeconds)
      fullGc()
      const b = await rebuild(makeSqliteStore({ file }))
      sqliteRebuild.push(total / b.seconds)
      cpu.sqliteRebuild.push(total / b.cpuSeconds)
      log(
        `round ${r + 1}: scan ${Math.round(sqliteScan[r]!)}/s (${Math.round(cpu.sqliteScan[r]!)}/CPU s), sqlite rebuild ${Math.round(sqliteRebuild[r]!)}/s (${Math.round(cpu.sqliteRebuild[r]!)}/CPU s)`,
      )
    }
    log(`generating ${events.toLocaleString("en-US")} events (memory)…`)
    const memory = makeMemoryStore()
    if ((await writeLedgerLog(memory, plan, events)) !== total) throw new Error("the memory log differs in length from the SQLite one")
    for (let r = 0; r < rounds; r++) {
      fullGc()
      const b = await rebuild(memory)
      memoryRebuild.push(total / b.seconds)
      cpu.memoryRebuild.push(total / b.cpuSeconds)
      log(`round ${r + 1}: memory rebuild ${Math.round(memoryRebuild[r]!)}/s (${Math.round(cpu.memoryRebuild[r]!)}/CPU s)`)
    }
    return { events: total, sqliteRebuild, sqliteScan, memoryRebuild, cpu, memory: loaded }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

// One generated log serves both benchmarks of a run.
let shared: Promise<ReplayFigures> | undefined
const figures = (o: RunOptions) =>
  (shared ??= measureReplay({ events: o.quick ? 100_000 : 1_000_000, rounds: o.quick ? 1 : 3, log: o.log }))

export const replaySqlite: Benchmark = {
  name: "replay-sqlite-rebuild",
  description: "events/s rebuilding every read model from a 1M-event SQLite log vs a bare SELECT + JSON.parse scan of the same file",
  budget: ratioAtLeast(0.8),
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
    return {
      subject: median(f.memoryRebuild),
      unit: "events/s",
      note: `${f.events.toLocaleString("en-US")} events`,
      samples: { subject: f.memoryRebuild },
    }
  },
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const quick = process.argv.includes("--quick")
  const i = process.argv.indexOf("--events")
  const events = i > 0 ? Number(process.argv[i + 1]) : quick ? 100_000 : 1_000_000
  const f = await measureReplay({ events, rounds: quick ? 1 : 3, log: (l) => process.stderr.write(`${l}\n`) })
  const ratio = median(f.sqliteRebuild.map((s, k) => s / f.sqliteScan[k]!))
  process.stdout.write(
    `${JSON.stringify(
      {
        events: f.events,
        sqliteRebuildPerSecond: median(f.sqliteRebuild),
        sqliteScanPerSecond: median(f.sqliteScan),
        sqliteRatio: ratio,
        memoryRebuildPerSecond: median(f.memoryRebuild),
        sqliteRebuild: f.sqliteRebuild,
        sqliteScan: f.sqliteScan,
        memoryRebuild: f.memoryRebuild,
        cpu: { ...f.cpu, sqliteRatio: median(f.cpu.sqliteRebuild.map((s, k) => s / f.cpu.sqliteScan[k]!)) },
        memory: {
          ...f.memory,
          rssBytesPerEvent: f.memory.rssBytes / f.events,
          heapBytesPerEvent: f.memory.heapBytes / f.events,
          jsonBytesPerEvent: f.memory.jsonBytes / f.events,
          rssToJson: f.memory.rssBytes / f.memory.jsonBytes,
          heapToJson: f.memory.heapBytes / f.memory.jsonBytes,
        },
      },
      null,
      2,
    )}\n`,
  )
}
