// "Two in-process functions, ops/s, interleaved": every repetition gives a side a fresh state (a new store, a new
// temp file) and times the same operations on it; repetitions of the two sides are interleaved by time.
import { fmt, fullGc, median } from "./stats.js"
import type { Measurement, RunOptions } from "./types.js"

export interface OpsRound {
  /** Operation i (0 ≤ i < ops); a returned promise is awaited (decided by the first call's result). */
  readonly op: (i: number) => unknown
  /** After the timed loop (untimed): check the work was done, release files. */
  readonly teardown?: () => unknown
}

/** Makes one round's state (untimed). */
export type OpsSide = () => OpsRound | Promise<OpsRound>

export interface CompareOpsOptions extends RunOptions {
  readonly subject: OpsSide
  readonly baseline: OpsSide
  /** Operations per repetition; each repetition starts from a fresh state (same streams, same events). */
  readonly ops: number
  /** Interleaved pairs (default 7; quick 1). */
  readonly rounds?: number
  /** A round alternates repetitions (fresh state + ops) until each side has this much timed work (default 400 ms; quick 60 ms). */
  readonly minRoundMs?: number
  /** Work units per operation (e.g. 100 events per batch append), so the figure reads in those units. */
  readonly unitsPerOp?: number
  /** Default "ops/s". */
  readonly unit?: string
  readonly note?: string
}

const isThenable = (x: unknown): x is PromiseLike<unknown> =>
  x !== null && (typeof x === "object" || typeof x === "function") && typeof (x as { then?: unknown }).then === "function"

interface Timed {
  readonly seconds: number
  /** The process's CPU seconds (user + system, every thread) over the same span. */
  readonly cpu: number
}

/** Wall and CPU seconds taken by ops operations on a fresh state (setup and teardown untimed). */
const timeRepetition = async (side: OpsSide, ops: number): Promise<Timed> => {
  const round = await side()
  const op = round.op
  const cpuStarted = process.cpuUsage()
  const started = performance.now()
  const first = op(0)
  if (isThenable(first)) {
    await first
    for (let i = 1; i < ops; i++) await op(i)
  } else {
    for (let i = 1; i < ops; i++) op(i)
  }
  const seconds = (performance.now() - started) / 1000
  const cpu = process.cpuUsage(cpuStarted)
  await round.teardown?.()
  return { seconds, cpu: (cpu.user + cpu.system) / 1e6 }
}

interface Pair {
  readonly subject: number
  readonly baseline: number
  /** CPU seconds per operation. */
  readonly subjectCpu: number
  readonly baselineCpu: number
  readonly repetitions: number
}

/**
 * One round: repetitions (fresh state + ops) interleaved by time (the side with less timed work so far goes
 * next, `baselineFirst` breaking the first tie) until each side has at least minMs, so drift in the machine's
 * load hits both sides alike.
 */
const timePair = async (o: CompareOpsOptions, minMs: number, baselineFirst: boolean): Promise<Pair> => {
  let s = 0
  let b = 0
  let sCpu = 0
  let bCpu = 0
  let sReps = 0
  let bReps = 0
  while (s * 1000 < minMs || b * 1000 < minMs) {
    if (b < s || (b === s && baselineFirst)) {
      const t = await timeRepetition(o.baseline, o.ops)
      b += t.seconds
      bCpu += t.cpu
      bReps++
    } else {
      const t = await timeRepetition(o.subject, o.ops)
      s += t.seconds
      sCpu += t.cpu
      sReps++
    }
  }
  return {
    subject: (o.ops * sReps) / s,
    baseline: (o.ops * bReps) / b,
    subjectCpu: sCpu / (o.ops * sReps),
    baselineCpu: bCpu / (o.ops * bReps),
    repetitions: sReps + bReps,
  }
}

export const compareOps = async (o: CompareOpsOptions): Promise<Measurement> => {
  const rounds = o.rounds ?? (o.quick ? 1 : 7)
  const minMs = o.minRoundMs ?? (o.quick ? 60 : 400)
  const perOp = o.unitsPerOp ?? 1
  const unit = o.unit ?? "ops/s"
  // One full collection before the untimed warm-up round (the JIT), none between the timed rounds. Each repetition
  // opens a fresh state and drops it; a forced collection frees the dropped ones, and V8 then discards the optimised
  // code that had inlined their functions (deoptimisations for "weak objects"). The SQLite adapter's append runs
  // through the effect runtime and takes several repetitions to be optimised again, the raw loop one: with a forced
  // collection before every round, most of the adapter's timed work ran unoptimised, at 2-3x its steady CPU cost
  // (docs/benchmarks.md, "The SQLite append benchmarks and the forced collections"). A process holds one store for
  // its life and never forces a collection. Each side's garbage is collected on its own clock as it allocates. The
  // warm-up round is three rounds long, the repetitions the adapter needs to be optimised.
  fullGc()
  await timePair(o, 3 * minMs, false)
  const subject: Array<number> = []
  const baseline: Array<number> = []
  const ratios: Array<number> = []
  const subjectCpu: Array<number> = []
  const baselineCpu: Array<number> = []
  const cpuRatios: Array<number> = []
  let repetitions = 0
  for (let round = 0; round < rounds; round++) {
    const pair = await timePair(o, minMs, round % 2 === 1)
    repetitions += pair.repetitions
    subject.push(pair.subject * perOp)
    baseline.push(pair.baseline * perOp)
    ratios.push(pair.subject / pair.baseline)
    subjectCpu.push((pair.subjectCpu * 1e6) / perOp)
    baselineCpu.push((pair.baselineCpu * 1e6) / perOp)
    // As a throughput ratio: baseline CPU over subject CPU (above 1 when the subject spends less).
    cpuRatios.push(pair.baselineCpu / pair.subjectCpu)
    o.log(
      `  round ${round + 1}/${rounds}: subject ${fmt(subject[round])} ${unit}, baseline ${fmt(baseline[round])} ${unit}, ratio ${ratios[round]!.toFixed(3)}; ` +
        `CPU per unit ${fmt(subjectCpu[round])} vs ${fmt(baselineCpu[round])} µs, ratio ${cpuRatios[round]!.toFixed(3)}`,
    )
  }
  return {
    subject: median(subject),
    baseline: median(baseline),
    unit,
    ratio: median(ratios),
    note:
      `${rounds} rounds of ≥ ${minMs} ms per side, interleaving ${repetitions} fresh repetitions of ` +
      `${o.ops.toLocaleString("en-US")} ops; CPU per unit ${fmt(median(subjectCpu))} vs ${fmt(median(baselineCpu))} µs ` +
      `(ratio by CPU ${median(cpuRatios).toFixed(3)})${o.note !== undefined ? `; ${o.note}` : ""}`,
    samples: { subject, baseline, ratios },
    details: {
      subjectCpuMicrosPerUnit: median(subjectCpu),
      baselineCpuMicrosPerUnit: median(baselineCpu),
      cpuRatio: median(cpuRatios),
    },
  }
}
