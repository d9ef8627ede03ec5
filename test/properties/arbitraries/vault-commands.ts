// Commands of the vault aggregate as intents (picks resolved against the reference when they run), weighted
// towards money: deposits, requests and their moves; every command also aimed where it must be refused.
import fc from "fast-check"
import { ASSETS, NETWORKS } from "./catalogue.js"
import { smallUnits, baseUnits } from "./base-units.js"
import { accountPick, depositTx, pick } from "./ids.js"
import { draftIntent, type DraftIntent } from "./drafts.js"

export type VaultIntent =
  | { readonly kind: "create-vault" }
  | { readonly kind: "set-policy"; readonly mode: "auto" | "manual"; readonly levels: 1 | 2 }
  | { readonly kind: "create-account"; readonly account: number }
  | {
      readonly kind: "add-asset"
      readonly account: number
      readonly asset: number
      readonly target: { readonly _tag: "Label" } | { readonly _tag: "Address"; readonly pick: number }
    }
  | { readonly kind: "generate-address"; readonly account: number | null; readonly network: number }
  | {
      readonly kind: "credit"
      readonly deposits: ReadonlyArray<{ readonly address: number; readonly asset: number; readonly amount: bigint; readonly tx: string }>
    }
  | { readonly kind: "create-request"; readonly draft: DraftIntent }
  | { readonly kind: "approve" | "reject" | "fail" | "succeed"; readonly request: number }
  | { readonly kind: "mine"; readonly request: number; readonly withErrors: boolean; readonly fee: bigint }

const deposit = fc.record({ address: pick, asset: fc.nat({ max: ASSETS.length - 1 }), amount: smallUnits, tx: depositTx })

export const vaultIntent: fc.Arbitrary<VaultIntent> = fc.oneof(
  { weight: 1, arbitrary: fc.constant({ kind: "create-vault" as const }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("set-policy" as const),
      mode: fc.constantFrom("auto" as const, "manual" as const),
      levels: fc.constantFrom(1 as const, 2 as const),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("create-account" as const), account: accountPick }) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("add-asset" as const),
      account: accountPick,
      asset: fc.nat({ max: ASSETS.length - 1 }),
      target: fc.oneof(fc.constant({ _tag: "Label" as const }), fc.record({ _tag: fc.constant("Address" as const), pick })),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("generate-address" as const),
      account: fc.option(accountPick, { nil: null }),
      network: fc.nat({ max: NETWORKS.length - 1 }),
    }),
  },
  {
    weight: 5,
    arbitrary: fc.record({ kind: fc.constant("credit" as const), deposits: fc.array(deposit, { minLength: 1, maxLength: 3 }) }),
  },
  { weight: 6, arbitrary: fc.record({ kind: fc.constant("create-request" as const), draft: draftIntent }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constantFrom("approve" as const, "reject" as const, "fail" as const, "succeed" as const),
      request: pick,
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("mine" as const),
      request: pick,
      withErrors: fc.nat({ max: 3 }).map((n) => n === 0),
      fee: baseUnits(20_000n),
    }),
  },
)

/** Given a vault with an account holding every asset (refusals of an absent vault have their own property). */
export const GIVEN: ReadonlyArray<VaultIntent> = [
  { kind: "create-vault" },
  { kind: "create-account", account: 0 },
  ...ASSETS.map((_, asset) => ({ kind: "add-asset" as const, account: 0, asset, target: { _tag: "Label" as const } })),
]

export const vaultIntents = fc
  .array(vaultIntent, { maxLength: 40, size: "medium" })
  .map((xs): ReadonlyArray<VaultIntent> => [...GIVEN, ...xs])
