// The benchmark module contract: the runner (scripts/bench/run.ts) holds a registry array of these.

/**
 * What a benchmark must achieve. Ratio budgets compare against a baseline measured in the same run (the
 * machines are shared and noisy); absolute budgets are for figures with no fair in-run baseline.
 */
export type Budget =
  | { readonly kind: "ratio-min"; readonly value: number }
  | { readonly kind: "ratio-max"; readonly value: number }
  | { readonly kind: "absolute-min"; readonly value: number; readonly unit: string }
  | { readonly kind: "absolute-max"; readonly value: number; readonly unit: string }

/** subject ≥ value × baseline (throughputs). */
export const ratioAtLeast = (value: number): Budget => ({ kind: "ratio-min", value })
/** subject ≤ value × baseline (latencies). */
export const ratioAtMost = (value: number): Budget => ({ kind: "ratio-max", value })
/** subject ≥ value, in unit (no baseline). */
export const absoluteAtLeast = (value: number, unit: string): Budget => ({ kind: "absolute-min", value, unit })
/** subject ≤ value, in unit (no baseline). */
export const absoluteAtMost = (value: number, unit: string): Budget => ({ kind: "absolute-max", value, unit })

export interface RunOptions {
  /** Shorter durations and fewer rounds: a smoke run, not a measurement. */
  readonly quick: boolean
  /** Progress lines (to stderr); the runner's own lines go to stdout. */
  readonly log: (line: string) => void
}

export interface Measurement {
  /** Sub-result label, for benchmarks reporting several figures (e.g. one per chain family). */
  readonly label?: string
  /** The product's figure. */
  readonly subject: number
  /** The baseline's figure, measured in the same run (absent for absolute budgets). */
  readonly baseline?: number
  /** Unit of subject and baseline, e.g. "req/s", "appends/s", "ms". */
  readonly unit: string
  /** subject / baseline, or a better estimate (median of interleaved pair ratios); computed when absent. */
  readonly ratio?: number
  /** Free text shown after the line (workload, caveats). */
  readonly note?: string
  /** Raw per-round figures, kept in the JSON report. */
  readonly samples?: {
    readonly subject: ReadonlyArray<number>
    readonly baseline?: ReadonlyArray<number>
    readonly ratios?: ReadonlyArray<number>
  }
  /** This figure's own budget, for benchmarks whose figures have different budgets (default: the benchmark's). */
  readonly budget?: Budget
  /** Supporting figures for the JSON report (e.g. server CPU per request, latency percentiles). */
  readonly details?: Readonly<Record<string, number | string>>
}

/** A benchmark that cannot run here (e.g. its module is absent); reported, never a failure. */
export interface Skipped {
  readonly skipped: string
}

export const skip = (reason: string): Skipped => ({ skipped: reason })

export interface Benchmark {
  readonly name: string
  /** One line: what is measured against what. */
  readonly description: string
  readonly budget: Budget
  readonly run: (options: RunOptions) => Promise<Measurement | ReadonlyArray<Measurement> | Skipped>
}
