// Run budgets: each property takes a share of the global numRuns (test/setup.ts: FC_NUM_RUNS, fixed in CI), so
// `npm run test:props -- --runs N` scales every property and the slow ones stay proportionate.
import fc from "fast-check"

export const runs = (share: number): number => Math.max(1, Math.round((fc.readConfigureGlobal().numRuns ?? 100) * share))
