// Transaction request drafts as intents: which asset, which sender (a pick, or one outside the vault on purpose),
// how much, the most fee, and for UTXO requests which unspent outputs (reserved or missing ones on purpose).
import fc from "fast-check"
import { ASSETS } from "./catalogue.js"
import { baseUnits } from "./base-units.js"
import { pick } from "./ids.js"

export interface DraftIntent {
  readonly asset: number
  readonly sender: number
  /** A sender that is no address of the vault: must be refused. */
  readonly foreign: boolean
  readonly amount: bigint
  readonly maxFee: bigint
  /** UTXO: picks among the vault's outputs; one past the end names an output that does not exist. */
  readonly inputs: ReadonlyArray<number>
  readonly change: boolean
}

export const draftIntent: fc.Arbitrary<DraftIntent> = fc.record({
  asset: fc.nat({ max: ASSETS.length - 1 }),
  sender: pick,
  foreign: fc.nat({ max: 9 }).map((n) => n === 0),
  amount: baseUnits(1_000_000n),
  maxFee: fc.oneof(fc.constant(0n), baseUnits(20_000n)),
  inputs: fc.array(pick, { minLength: 1, maxLength: 3 }),
  change: fc.boolean(),
})
