// The answer of approximate-fee (2026-03-20; the spec shows none): the fee if mined now and the most it may cost.
import { Schema } from "effect"
import { Amount } from "./common.js"
import { optional, struct } from "./shape.js"

const FeeAmount = struct({ amount: Amount, amountUnit: Schema.String, assetId: Schema.String })

export const ApproximateFee = struct({
  transactionType: Schema.Literals(["single", "multiple", "batch"]),
  blockchain: Schema.String,
  network: Schema.String,
  assetId: Schema.String,
  vaultAccountId: Schema.String,
  fromAddress: optional(Schema.String),
  feePayer: optional(Schema.String),
  feePriority: Schema.String,
  prepareStrategy: optional(Schema.String),
  fee: FeeAmount,
  maxFee: FeeAmount,
})
