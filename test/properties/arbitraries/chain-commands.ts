// Commands of one simulated chain, each after a step of simulated time: configuration (zero intervals and
// confirmations on purpose), deposits and withdrawals submitted (some again), blocks mined (zero on purpose), faults,
// ticks.
import fc from "fast-check"
import type { ChainDefaults, FaultKind, MiningMode } from "../../../src/chain-sim/index.js"

export type ChainIntent = { readonly dt: number } & (
  | { readonly kind: "configure"; readonly mode?: MiningMode; readonly intervalSeconds?: number; readonly confirmations?: number }
  | { readonly kind: "submit"; readonly withdrawal: boolean }
  /** Submits again one of the transactions submitted before (picked by index), as a racing broadcast does. */
  | { readonly kind: "resubmit"; readonly pick: number }
  | { readonly kind: "mine"; readonly blocks: number }
  | { readonly kind: "fault"; readonly fault: FaultKind; readonly count: number }
  | { readonly kind: "tick" }
)

const mode = fc.constantFrom<MiningMode>("auto", "interval", "manual")
/** Milliseconds before the command: often none, often less than a block, sometimes many blocks. */
const dt = fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 9_000 }), fc.integer({ min: 1, max: 120_000 }))

export const chainDefaults: fc.Arbitrary<ChainDefaults> = fc.record({
  mode,
  intervalSeconds: fc.integer({ min: 5, max: 30 }),
  confirmations: fc.integer({ min: 1, max: 3 }),
})

export const chainIntent: fc.Arbitrary<ChainIntent> = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.record(
      {
        dt,
        kind: fc.constant("configure" as const),
        mode,
        intervalSeconds: fc.integer({ min: 0, max: 30 }),
        confirmations: fc.integer({ min: 0, max: 3 }),
      },
      { requiredKeys: ["dt", "kind"] },
    ),
  },
  { weight: 6, arbitrary: fc.record({ dt, kind: fc.constant("submit" as const), withdrawal: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ dt, kind: fc.constant("resubmit" as const), pick: fc.nat() }) },
  { weight: 3, arbitrary: fc.record({ dt, kind: fc.constant("mine" as const), blocks: fc.integer({ min: 0, max: 3 }) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      dt,
      kind: fc.constant("fault" as const),
      fault: fc.constantFrom<FaultKind>("broadcast-failure", "execution-failure"),
      count: fc.integer({ min: 0, max: 2 }),
    }),
  },
  { weight: 3, arbitrary: fc.record({ dt, kind: fc.constant("tick" as const) }) },
)

export const chainIntents = fc.array(chainIntent, { maxLength: 30, size: "medium" })
