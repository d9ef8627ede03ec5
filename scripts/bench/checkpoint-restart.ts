// Restart of a SQLite data dir with a read-model checkpoint 10,000 events old (1% of a shorter log) against a full
// rebuild of the same log, in the same run, rounds interleaved: the time from opening the store to a simulator ready to answer.
// Budget: ≤ 0.1× the rebuild. In the runner the log has 100,000 events (20,000 with --quick); the million-event
// figure takes minutes: `node --max-old-space-size=6000 --import tsx scripts/bench/checkpoint-restart.ts --events 1000000`.
// Beside it: the restart's parts timed apart (reading and checking the file, decoding the models, folding the tail),
// and how long the event loop is held while the checkpoint thread is fed the tail (per page handed over, and the
// loop's longest delay meanwhile), then writes a checkpoint on its thread.
import { mkdtempSync, rmSync, unlinkSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { monitorEventLoopDelay } from "node:perf_hooks"
import { Effect } from "effect"
import { ReadModels } from "../../src/projections/read-models.js"
import { makeProjectionRunner } from "../../src/projections/runner.js"
import { chooseCheckpoint, listCheckpoints, checkpointFile } from "../../src/checkpoints/directory.js"
import { startCheckpointer } from "../../src/checkpoints/checkpoints.js"
import { eventDigest, writeCheckpointFile } from "../../src/checkpoints/file.js"
import { modelCodeFingerprint } from "../../src/checkpoints/model-code.js"
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
  /**
   * The process's CPU seconds of each side (user + system, the collector's threads included): on a machine whose cores
   * other processes take, a restart's decoding (mostly collection, which wants every core) loses more wall time than a
   * rebuild does, so the wall ratio measures the load as well as the code.
   */
  readonly rebuildCpu: ReadonlyArray<number>
  readonly restartCpu: ReadonlyArray<number>
  /**
   * CPU seconds of the first settlement pass of a simulator restarted from the checkpoint (what its clock's first tick
   * runs: every chain ticked and settled): it walks only the deposits the log does not show credited.
   */
  readonly firstSettlementCpu: number
  /** The restart's parts, seconds, one untimed restart done by hand after the rounds. */
  readonly parts: { readonly choose: number; readonly decode: number; readonly tail: number }
  /** The same parts by the process's CPU seconds (user + system): the wall figures carry the machine's load. */
  readonly partsCpu: { readonly choose: number; readonly decode: number; readonly tail: number }
  /** Feeding the checkpoint thread the tail, then a write on the thread. */
  readonly feeding: {
    readonly pages: number
    readonly events: number
    readonly p50Ms: number
    readonly p99Ms: number
    readonly maxMs: number
    /** The event loop's longest delay while the tail was handed over and the thread wrote (ms). */
    readonly loopMaxMs: number
    readonly loopP99Ms: number
    /** The same over an idle second just before, with no thread: what the machine alone does to the loop. */
    readonly idleLoopMaxMs: number
    readonly idleLoopP99Ms: number
    /** Until the thread had written the checkpoint at the head (decoded the old one, folded the tail, encoded, wrote). */
    readonly threadSeconds: number
  }
}

/**
 * Opens a simulator on the data dir, timed until it is ready to answer, and closes it. Nothing of it is left
 * reachable when this returns: a simulator still held while the next side opens (the models of a million events are
 * gigabytes) would make that side pay for marking it, which a restart — a new process — never does.
 */
const openAndClose = async (
  dir: string,
  checkpoints: boolean,
): Promise<{ seconds: number; cpuSeconds: number; restoredFrom: bigint | undefined }> => {
  const c0 = process.cpuUsage()
  const t0 = performance.now()
  const sim = await createSimulator({
    store: makeSqliteStore({ file: join(dir, "events.sqlite") }),
    seed: LOG_SEED,
    clock: { frozenAt: 0 },
    webhooks: false,
    ...(checkpoints ? { checkpoints: { dir, every: 1_000_000_000, atClose: false } } : {}),
  })
  const seconds = (performance.now() - t0) / 1000
  const c = process.cpuUsage(c0)
  const restoredFrom = sim.restoredFrom
  await sim.close()
  return { seconds, cpuSeconds: (c.user + c.system) / 1e6, restoredFrom }
}

/** Writes the log and a checkpoint tailOf(events) events before its head, folded and written as the thread writes one. */
const prepare = async (dir: string, total: number, log: (line: string) => void) => {
  log(`generating ${total.toLocaleString("en-US")} events (SQLite)…`)
  const plan = await planLedgerLog(Math.min(1000, Math.max(10, Math.floor(total / 1000))))
  const store = makeSqliteStore({ file: join(dir, "events.sqlite") })
  const events = await writeLedgerLog(store, plan, total)
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
  const encoded = models.encode()
  const checkpointBytes = writeCheckpointFile(
    checkpointFile(dir, position),
    { code: modelCodeFingerprint(), position: String(position), event: eventDigest(last!), count: models.timeline.count },
    encoded,
  )
  const checkpointWriteSeconds = (performance.now() - t0) / 1000
  // What a restart makes again: an object per node, a string per entry of the text (the columns are buffers).
  log(
    `checkpoint at position ${position}: ${(checkpointBytes / 1e6).toFixed(1)} MB (${encoded.kinds.length.toLocaleString("en-US")} objects, ${encoded.ends.length.toLocaleString("en-US")} strings, ${encoded.tags.length.toLocaleString("en-US")} values) in ${checkpointWriteSeconds.toFixed(2)} s`,
  )
  return { events, position, checkpointBytes, checkpointWriteSeconds }
}

/** One restart by hand, its parts timed apart: choosing the file (reading it whole, CRCs, the event at its position), decoding, the tail. */
const restartParts = async (dir: string): Promise<Pick<RestartFigures, "parts" | "partsCpu">> => {
  const store = makeSqliteStore({ file: join(dir, "events.sqlite") })
  const cpu = () => {
    const c = process.cpuUsage()
    return (c.user + c.system) / 1e6
  }
  try {
    fullGc()
    const c0 = cpu()
    const t0 = performance.now()
    const chosen = await chooseCheckpoint(dir, store, modelCodeFingerprint(), (file, reason) => {
      throw new Error(`${file} refused: ${reason}`)
    })
    const c1 = cpu()
    const t1 = performance.now()
    const models = new ReadModels()
    models.load(chosen!.encoded)
    const c2 = cpu()
    const t2 = performance.now()
    await Effect.runPromise(makeProjectionRunner(store, models).pull)
    const c3 = cpu()
    const t3 = performance.now()
    return {
      parts: { choose: (t1 - t0) / 1000, decode: (t2 - t1) / 1000, tail: (t3 - t2) / 1000 },
      partsCpu: { choose: c1 - c0, decode: c2 - c1, tail: c3 - c2 },
    }
  } finally {
    store.close()
  }
}

/** Restarts from the checkpoint and times the first settlement pass; it credits nothing (the log's deposits are all credited). */
const firstSettlement = async (dir: string, position: bigint): Promise<number> => {
  const sim = await createSimulator({
    store: makeSqliteStore({ file: join(dir, "events.sqlite") }),
    seed: LOG_SEED,
    clock: { frozenAt: 0 },
    webhooks: false,
    checkpoints: { dir, every: 1_000_000_000, atClose: false },
  })
  try {
    if (sim.restoredFrom !== position) throw new Error(`the restart did not load the checkpoint at ${position}`)
    fullGc()
    const head = sim.models.position
    const c0 = process.cpuUsage()
    const exit = await sim.run(sim.afterClockAdvance())
    const c = process.cpuUsage(c0)
    if (exit._tag === "Failure") throw new Error(`the settlement pass failed: ${String(exit.cause)}`)
    if (sim.models.position !== head) throw new Error("the settlement pass wrote to the log")
    return (c.user + c.system) / 1e6
  } finally {
    await sim.close()
  }
}

/** Starts the checkpoint writer from the checkpoint: it is handed the tail (timed per page), then writes one at the head. */
const feedThread = async (dir: string, position: bigint): Promise<RestartFigures["feeding"]> => {
  const store = makeSqliteStore({ file: join(dir, "events.sqlite") })
  const idle = monitorEventLoopDelay({ resolution: 1 })
  const loop = monitorEventLoopDelay({ resolution: 1 })
  try {
    fullGc()
    idle.enable()
    await sleep(1000)
    idle.disable()
    loop.enable()
    const t0 = performance.now()
    const writer = await startCheckpointer({ dir, every: 1_000_000_000, keep: 10, atClose: false }, store, {
      file: checkpointFile(dir, position),
      position,
    })
    const written = await writer.save()
    const threadSeconds = (performance.now() - t0) / 1000
    loop.disable()
    if (written === null) throw new Error("the checkpoint thread wrote nothing")
    const h = writer.handovers()
    await writer.close()
    unlinkSync(checkpointFile(dir, written))
    return {
      ...h,
      loopMaxMs: loop.max / 1e6,
      loopP99Ms: loop.percentile(99) / 1e6,
      idleLoopMaxMs: idle.max / 1e6,
      idleLoopP99Ms: idle.percentile(99) / 1e6,
      threadSeconds,
    }
  } finally {
    store.close()
  }
}

export const measureRestart = async (options: {
  events: number
  rounds: number
  log?: (line: string) => void
}): Promise<RestartFigures> => {
  const log = options.log ?? (() => {})
  const dir = mkdtempSync(join(tmpdir(), "custody-sim-bench-restart-"))
  try {
    const { events, position, checkpointBytes, checkpointWriteSeconds } = await prepare(dir, options.events, log)
    const rebuild: Array<number> = []
    const restart: Array<number> = []
    const rebuildCpu: Array<number> = []
    const restartCpu: Array<number> = []
    /** Heap in use before each side opens (after a full collection): the same each time when nothing is held. */
    const heapMB: Array<number> = []
    for (let r = 0; r < options.rounds; r++) {
      for (const side of r % 2 === 0 ? ["rebuild", "restart"] : ["restart", "rebuild"]) {
        // Closing leaves a few scheduled callbacks holding the runtime (and so the read models) for a tick.
        for (let i = 0; i < 3; i++) await sleep(10)
        fullGc()
        heapMB.push(process.memoryUsage().heapUsed / 1e6)
        const o = await openAndClose(dir, side === "restart")
        if (side === "restart" && o.restoredFrom !== position) throw new Error(`the restart did not load the checkpoint at ${position}`)
        ;(side === "restart" ? restart : rebuild).push(o.seconds)
        ;(side === "restart" ? restartCpu : rebuildCpu).push(o.cpuSeconds)
        for (const c of listCheckpoints(dir)) if (c.position !== position) unlinkSync(c.file)
      }
      log(
        `round ${r + 1}: rebuild ${rebuild[r]!.toFixed(2)} s, restart from the checkpoint ${restart[r]!.toFixed(2)} s, ratio ${(restart[r]! / rebuild[r]!).toFixed(3)}; CPU ${rebuildCpu[r]!.toFixed(2)} s vs ${restartCpu[r]!.toFixed(2)} s, ratio ${(restartCpu[r]! / rebuildCpu[r]!).toFixed(3)} (heap before each side: ${heapMB
          .slice(-2)
          .map((h) => h.toFixed(0))
          .join(", ")} MB)`,
      )
    }
    const { parts, partsCpu } = await restartParts(dir)
    log(
      `restart's parts: choosing and checking the file ${parts.choose.toFixed(2)} s (CPU ${partsCpu.choose.toFixed(2)} s), decoding ${parts.decode.toFixed(2)} s (CPU ${partsCpu.decode.toFixed(2)} s), the tail ${parts.tail.toFixed(2)} s (CPU ${partsCpu.tail.toFixed(2)} s)`,
    )
    const feeding = await feedThread(dir, position)
    log(
      `feeding the checkpoint thread ${feeding.events} events in ${feeding.pages} pages: p50 ${feeding.p50Ms.toFixed(2)} ms, p99 ${feeding.p99Ms.toFixed(2)} ms, max ${feeding.maxMs.toFixed(2)} ms per page; event loop delay p99 ${feeding.loopP99Ms.toFixed(1)} ms, max ${feeding.loopMaxMs.toFixed(1)} ms (idle just before: p99 ${feeding.idleLoopP99Ms.toFixed(1)} ms, max ${feeding.idleLoopMaxMs.toFixed(1)} ms); written on the thread after ${feeding.threadSeconds.toFixed(1)} s`,
    )
    const firstSettlementCpu = await firstSettlement(dir, position)
    log(`the first settlement pass after a restart from the checkpoint: ${firstSettlementCpu.toFixed(3)} s of CPU`)
    return {
      events,
      checkpointPosition: position,
      checkpointBytes,
      checkpointWriteSeconds,
      rebuild,
      restart,
      rebuildCpu,
      restartCpu,
      parts,
      partsCpu,
      feeding,
      firstSettlementCpu,
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const fmtS = (s: number) => `${s.toFixed(2)} s`

export const checkpointRestart: Benchmark = {
  name: "restart-checkpoint",
  description:
    "restart of a SQLite log with a read-model checkpoint 1% of the log old vs a full rebuild of the same log (100,000 events; 1,000,000 run alone)",
  budget: ratioAtMost(0.1),
  run: async (o): Promise<Measurement> => {
    const f = await measureRestart({ events: o.quick ? 20_000 : 100_000, rounds: o.quick ? 1 : 3, log: o.log })
    const ratios = f.restart.map((s, i) => s / f.rebuild[i]!)
    return {
      subject: median(f.restart) * 1000,
      baseline: median(f.rebuild) * 1000,
      ratio: median(ratios),
      unit: "ms",
      note: `${f.events.toLocaleString("en-US")} events, checkpoint at ${f.checkpointPosition} (${(f.checkpointBytes / 1e6).toFixed(1)} MB, written in ${f.checkpointWriteSeconds.toFixed(2)} s); restart = file ${fmtS(f.parts.choose)} + decode ${fmtS(f.parts.decode)} + tail ${fmtS(f.parts.tail)}; feeding the thread: p99 ${f.feeding.p99Ms.toFixed(2)} ms, max ${f.feeding.maxMs.toFixed(2)} ms per page (${f.feeding.pages} pages), event loop delay max ${f.feeding.loopMaxMs.toFixed(1)} ms (idle: ${f.feeding.idleLoopMaxMs.toFixed(1)} ms)`,
      samples: { subject: f.restart.map((s) => s * 1000), baseline: f.rebuild.map((s) => s * 1000), ratios },
      details: {
        checkpointBytes: f.checkpointBytes,
        checkpointWriteSeconds: f.checkpointWriteSeconds,
        restartChooseSeconds: f.parts.choose,
        restartDecodeSeconds: f.parts.decode,
        restartTailSeconds: f.parts.tail,
        restartChooseCpuSeconds: f.partsCpu.choose,
        restartDecodeCpuSeconds: f.partsCpu.decode,
        restartTailCpuSeconds: f.partsCpu.tail,
        feedingPages: f.feeding.pages,
        feedingEvents: f.feeding.events,
        feedingPageP50Ms: f.feeding.p50Ms,
        feedingPageP99Ms: f.feeding.p99Ms,
        feedingPageMaxMs: f.feeding.maxMs,
        feedingLoopDelayP99Ms: f.feeding.loopP99Ms,
        feedingLoopDelayMaxMs: f.feeding.loopMaxMs,
        idleLoopDelayP99Ms: f.feeding.idleLoopP99Ms,
        idleLoopDelayMaxMs: f.feeding.idleLoopMaxMs,
        threadWriteSeconds: f.feeding.threadSeconds,
        firstSettlementCpuSeconds: f.firstSettlementCpu,
      },
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
    `${JSON.stringify({ events: f.events, checkpointPosition: String(f.checkpointPosition), checkpointMB: f.checkpointBytes / 1e6, checkpointWriteSeconds: f.checkpointWriteSeconds, rebuildSeconds: f.rebuild, restartSeconds: f.restart, ratio, rebuildCpuSeconds: f.rebuildCpu, restartCpuSeconds: f.restartCpu, cpuRatio: median(f.restartCpu.map((s, k) => s / f.rebuildCpu[k]!)), restartParts: f.parts, restartPartsCpu: f.partsCpu, firstSettlementCpuSeconds: f.firstSettlementCpu, feeding: f.feeding }, null, 2)}\n`,
  )
}
