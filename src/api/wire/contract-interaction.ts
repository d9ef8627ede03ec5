// The answer of tron's contract-interaction request (2026-03-20).
import { Schema } from "effect"
import { optional, struct } from "./shape.js"

export const ContractInteractionAnswer = struct({
  assetUnit: Schema.String,
  assetId: Schema.String,
  contractInteractionDetails: struct({
    contractAddress: Schema.String,
    method: Schema.String,
    functionSignature: Schema.String,
    owner: Schema.String,
    spender: Schema.String,
    allowance: optional(Schema.String),
    recipient: optional(Schema.String),
    amount: optional(Schema.String),
  }),
  transactionRequestId: Schema.String,
  transactionRequestStatus: Schema.String,
  blockchain: Schema.String,
  network: Schema.String,
  vaultAccountId: Schema.String,
  fromAddress: Schema.String,
  feePayer: Schema.String,
  toAddress: optional(Schema.String),
  amount: optional(Schema.String),
  maxFee: optional(Schema.String),
  note: Schema.String,
})
