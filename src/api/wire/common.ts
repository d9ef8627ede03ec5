// Schemas several answers share.
import { Schema } from "effect"

export const NetworkType = Schema.Literals(["main", "test"])
export const AssetType = Schema.Literals(["COIN", "TOKEN"])
/** A decimal amount in an asset's units. */
export const Amount = Schema.String.annotate({
  identifier: "Amount",
  description: "A decimal amount in the asset's units (a string: no precision is lost).",
})
/** "true" or "false": booleans the spec writes as strings. */
export const BooleanString = Schema.Literals(["true", "false"])

/** The four amounts of a balance, in this order wherever an answer shows them. */
export const amountFields = { totalAmount: Amount, availableAmount: Amount, blockedAmount: Amount, allocatedAmount: Amount } as const
