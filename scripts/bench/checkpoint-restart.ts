// Restart of a SQLite data dir with a read-model checkpoint 10,000 events old (1% of a shorter log) against a full
// rebuild of the same log, in the same run, rounds interleaved: the time from opening the store to a simulator ready to answer.
// Budget: ≤ 0.1× the rebuild. In the runner the log has 100,000 events (20,000 with --quick); the million-event
// figure takes minutes: `npx tsx scripts/bench/checkpoint-restart.ts --events 1000000`.
import { mkdtempSync, rmSync, unlinkSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { Effect } from "effect"
import { ReadModels } from "../../src/projections/read-models.js"
import { listCheckpoints, checkpointFile } from "../../src/runtime/checkpoint-dir.js"
import { eventDigest, writeCheckpointFile } from "../../src/runtime/checkpoint-file.js"
import { modelCodeFingerprint } from "../../src/runtime/model-code.js"
import { createSimulator } from "../../src/simulator.js"
import type { RecordedEvent } from "../../src/store/event-store.js"
import { makeSqliteStore } from "../../src/store/sqlite.js"
import { LOG_SEED, planLedgerLog, writeLedgerLog } from "./lib/ledger-log.js"
import { fullGc, median, sleep } from "./lib/stats.js"
import { ratioAtMost, type Benchmark, type Measurement } from "./lib/types.js"

/** Events after the checkpoint: 10,000 (the figure), or 1% of a shorter log. */
const tailOf = (events: number) => Math.min(10_000, Math.floor(events / 100))

export interface RestartFigures {
  readonly events: number
  readonly checkpointPosition: bigint
  readonly checkpointBytes: number
  /** Seconds to write the checkpoint (encode and write, on the thread in a running simulator). */
  readonly checkpointWriteSeconds: number
  readonly rebuild: ReadonlyArray<number>
  readonly restart: ReadonlyArray<number>
}

const open = async (dir: string, checkpoints: boolean): Promise<{ seconds: number; restoredFrom: bigint | undefined; close: () => Promise<void> }> => {
  const t0 = performance.now()
  const sim = await createSimulator({
    store: makeSqliteStore({ file: join(dir, "events.sqlite") }),
    seed: LOG_SEED,
    clock: { frozenAt: 0 },
    webhooks: false,
    ...(checkpoints ? { checkpoints: { dir, every: 1_000_000_000, atClose: false } } : {}),
  })
  const seconds = (performance.now() - t0) / 1000
  return { seconds, restoredFrom: sim.restoredFrom, close: () => sim.close() }
}

export const measureRestart = async (options: { events: number; rounds: number; log?: (line: string) => void }): Promise<RestartFigures> => {
  const log = options.log ?? (() => {})
  const dir = mkdtempSync(join(tmpdir(), "custody-sim-bench-restart-"))
  try {
    log(`generating ${options.events.toLocaleString("en-US")} events (SQLite)…`)
    const plan = await planLedgerLog(Math.min(1000, Math.max(10, Math.floor(options.events / 1000))))
    const store = makeSqliteStore({ file: join(dir, "events.sqlite") })
    const events = await writeLedgerLog(store, plan, options.events)
    // The checkpoint tailOf(events) events before the head, folded and written as the thread writes one.
    const models = new ReadModels()
    let last: RecordedEvent | undefined
    const upTo = events - tailOf(events)
    while (models.timeline.count < upTo) {
      const from = models.position
      const page = await Effect.runPromise(store.readAll(from < 0n ? { maxCount: 10_000 } : { fromPosition: from, maxCount: 10_001 }))
      for (const e of page) {
        if (e.position <= from || models.timeline.count >= upTo) continue
        models.apply(e)
        last = e
      }
    }
    store.close()
    const position = models.position
    const t0 = performance.now()
    const checkpointBytes = writeCheckpointFile(checkpointFile(dir, position), { code: modelCodeFingerprint(), position: String(position), event: eventDigest(last!), count: models.timeline.count }, models.encode())
    const checkpointWriteSeconds = (performance.now() - t0) / 1000
    log(`checkpoint at position ${position}: ${(checkpointBytes / 1e6).toFixed(1)} MB in ${checkpointWriteSeconds.toFixed(2)} s`)
    const rebuild: Array<number> = []
    const restart: Array<number> = []
    for (let r = 0; r < options.rounds; r++) {
      for (const side of r % 2 === 0 ? ["rebuild", "restart"] : ["restart", "rebuild"]) {
        fullGc()
        const o = await open(dir, side === "restart")
        if (side === "restart" && o.restoredFrom !== position) throw new Error(`the restart did not load the checkpoint at ${position}`)
        ;(side === "restart" ? restart : rebuild).push(o.seconds)
        await o.close()
        for (const c of listCheckpoints(dir)) if (c.position !== position) unlinkSync(c.file)
        // Closing leaves a few scheduled callbacks holding the runtime (and so the read models) for a tick.
        for (let i = 0; i < 3; i++) await sleep(10)
      }
      log(`round ${r + 1}: rebuild ${rebuild[r]!.toFixed(2)} s, restart from the checkpoint ${restart[r]!.toFixed(2)} s`)
    }
    return { events, checkpointPosition: position, checkpointBytes, checkpointWriteSeconds, rebuild, restart }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

export const checkpointRestart: Benchmark = {
  name: "restart-checkpoint",
  description: "restart of a SQLite log with a read-model checkpoint 1% of the log old vs a full rebuild of the same log (100,000 events; 1,000,000 run alone)",
  budget: ratioAtMost(0.1),
  run: async (o): Promise<Measurement> => {
    const f = await measureRestart({ events: o.quick ? 20_000 : 100_000, rounds: o.quick ? 1 : 3, log: o.log })
    const ratios = f.restart.map((s, i) => s / f.rebuild[i]!)
    return {
      subject: median(f.restart) * 1000,
      baseline: median(f.rebuild) * 1000,
      ratio: median(ratios),
      unit: "ms",
      note: `${f.events.toLocaleString("en-US")} events, checkpoint at ${f.checkpointPosition} (${(f.checkpointBytes / 1e6).toFixed(1)} MB, written in ${f.checkpointWriteSeconds.toFixed(2)} s)`,
      samples: { subject: f.restart.map((s) => s * 1000), baseline: f.rebuild.map((s) => s * 1000), ratios },
      details: { checkpointBytes: f.checkpointBytes, checkpointWriteSeconds: f.checkpointWriteSeconds },
    }
  },
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const i = process.argv.indexOf("--events")
  const events = i > 0 ? Number(process.argv[i + 1]) : 1_000_000
  const r = process.argv.indexOf("--rounds")
  const f = await measureRestart({ events, rounds: r > 0 ? Number(process.argv[r + 1]) : 3, log: (l) => process.stderr.write(`${l}\n`) })
  const ratio = median(f.restart.map((s, k) => s / f.rebuild[k]!))
  process.stdout.write(
    `${JSON.stringify({ events: f.events, checkpointPosition: String(f.checkpointPosition), checkpointMB: f.checkpointBytes / 1e6, checkpointWriteSeconds: f.checkpointWriteSeconds, rebuildSeconds: f.rebuild, restartSeconds: f.restart, ratio }, null, 2)}\n`,
  )
}
