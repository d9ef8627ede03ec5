// Run budgets: each property takes a share of the global numRuns (test/setup.ts: FC_NUM_RUNS, fixed in CI), so
// `npm run test:props -- --runs N` scales every property and the slow ones stay proportionate.
import fc from "fast-check"

export const runs = (share: number): number => Math.max(1, Math.round((fc.readConfigureGlobal().numRuns ?? 100) * share))

/**
 * A hang guard for properties that run whole simulators, not a speed check: their work is bounded by their runs,
 * and on a loaded 2-core machine the model's 30 runs took 85 s (vitest's 30 s default cut it off). 300 s at the
 * default 100 runs, growing with the run count: at `--runs 1000` the model's 300 runs took 514 s at load 10, and a
 * fixed 300 s cut them off.
 */
export const PROPERTY_TIMEOUT_MS = 3_000 * Math.max(100, fc.readConfigureGlobal().numRuns ?? 100)
