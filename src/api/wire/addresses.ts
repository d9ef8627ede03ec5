// The answers of the address endpoints: a generated address, a validation, an asset's addresses.
import { Schema } from "effect"
import { exchangeRateField } from "./assets.js"
import { amountFields } from "./common.js"
import { array, field, struct } from "./shape.js"

// 2026-03-20 derives addresses for a vault account (required there) and names it in the answer.
export const GeneratedAddress = struct({
  address: Schema.String,
  createdTimestamp: Schema.String,
  label: Schema.String,
  vaultAccountId: field(Schema.String, { since: "2026-03-20" }),
})

export const Validation = struct({ address: Schema.String, isValid: Schema.Boolean })

export const AssetAddresses = struct({
  addresses: array(struct({ address: Schema.String, addressType: Schema.String, label: Schema.String, ...amountFields })),
  exchangeRate: exchangeRateField,
})
