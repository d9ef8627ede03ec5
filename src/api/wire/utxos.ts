// Answers of 2026-03-20's UTXO endpoints: the listed output, and the utxo-transfer request and its preview.
import { Schema } from "effect"
import { Amount } from "./common.js"
import { array, optional, struct } from "./shape.js"

const Value = struct({ amount: Amount, assetUnit: Schema.String })

/** One output of GET /vaults/{vaultId}/utxos (README "UTXOs": the names the spec does not show). */
export const UtxoItem = struct({
  utxoId: Schema.String,
  transactionId: Schema.String,
  outputIndex: Schema.Int,
  address: Schema.String,
  vaultAccountId: Schema.String,
  assetId: Schema.String,
  blockchain: Schema.String,
  network: Schema.String,
  value: Value,
  isSpent: Schema.Boolean,
  isReserved: Schema.Boolean,
  reservedByTransactionRequestId: optional(Schema.String),
  spentInTransactionId: optional(Schema.String),
  createdAtMs: Schema.Int,
})

const Input = struct({ utxoId: Schema.String, address: Schema.String, vaultAccountId: Schema.String, amount: Amount })
const Output = struct({ address: Schema.String, amount: Amount })
const Fee = struct({ amount: Amount, amountUnit: Schema.String })

const previewFields = {
  assetId: Schema.String,
  blockchain: Schema.String,
  network: Schema.String,
  amountUnit: Schema.String,
  feePriority: Schema.String,
  gross: Schema.Boolean,
  senders: array(Input),
  recipients: array(Output),
  change: optional(Output),
  feePayer: optional(Schema.String),
  fee: Fee,
  maxFee: optional(Amount),
  totalTransactionAmount: Amount,
  sizeInVbytes: Schema.Int,
  note: Schema.String,
} as const

/** utxo-transfer/validate: what the request would do, fees included; nothing reserved. */
export const UtxoTransferPreview = struct({ isValid: Schema.Boolean, ...previewFields })

/** utxo-transfer: the request created, with what it reserved. */
export const UtxoTransferRequest = struct({
  transactionRequestId: Schema.String,
  transactionRequestStatus: Schema.String,
  ...previewFields,
})

/** multiple-transfer: the request created by coin selection over one vault account. */
export const MultipleTransferRequest = struct({
  transactionRequestId: Schema.String,
  transactionRequestStatus: Schema.String,
  vaultAccountId: Schema.String,
  assetId: Schema.String,
  amountUnit: Schema.String,
  feePriority: Schema.String,
  prepareStrategy: Schema.String,
  gross: Schema.Boolean,
  recipients: array(struct({ address: Schema.String, amount: Amount, amountUnit: Schema.String })),
  totalTransactionAmount: Amount,
  fee: Fee,
  maxFee: optional(Amount),
  note: Schema.String,
})
