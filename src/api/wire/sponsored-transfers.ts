// The answers of the gas-sponsored transfers (2026-03-20): gas-sponsorship-transfer and batch.
import { Schema } from "effect"
import { array, optional, struct } from "./shape.js"

export const GasSponsorshipAnswer = struct({
  transactionRequestId: Schema.String,
  transactionRequestStatus: Schema.String,
  vaultAccountId: Schema.String,
  assetId: Schema.String,
  fromAddress: Schema.String,
  toAddress: Schema.String,
  amount: Schema.String,
  amountUnit: Schema.String,
  feePayer: Schema.String,
  feePriority: Schema.String,
  maxFee: optional(Schema.String),
  note: Schema.String,
})

export const BatchAnswer = struct({
  transactionRequestId: Schema.String,
  transactionRequestStatus: Schema.String,
  vaultAccountId: Schema.String,
  senderAddress: Schema.String,
  feePayer: struct({ address: Schema.String, assetId: Schema.String }),
  feePriority: Schema.String,
  note: Schema.String,
  recipients: array(struct({ address: Schema.String, amount: Schema.String, assetId: Schema.String, amountUnit: Schema.String })),
})
