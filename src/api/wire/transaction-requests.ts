// Transaction request answers: the detail (#15 and the v-2 path of 2026-03-20, which renames `unit` and
// `additionalDetails`) and the create answers of single-transfer and of the 2025-09-23 vault-level paths.
import { Schema } from "effect"
import { Amount } from "./common.js"
import { array, field, optional, struct } from "./shape.js"

const amountUnit = field(Schema.String, { renamed: { "2026-03-20": "amountUnit" } })

export const TxRequestDetail = struct({
  transactionRequestId: Schema.String,
  vaultId: Schema.String,
  blockchain: Schema.String,
  network: Schema.String,
  feePriority: Schema.String,
  transactionType: Schema.Literals(["coin", "token", "batch"]),
  unit: amountUnit,
  totalTransactionAmount: Amount,
  transactionId: Schema.String,
  additionalDetails: field(Schema.String, { renamed: { "2026-03-20": "note" } }),
  transactionRequestStatus: Schema.String,
  recipients: array(struct({ address: Schema.String, amount: Amount, unit: amountUnit })),
})

/** `maxFee` is echoed from 2025-09-23 on, when the request named one (native coin units). */
const maxFeeEcho = optional(Schema.String, { since: "2025-09-23" })

export const SingleTransferCreated = struct({
  transactionRequestId: Schema.String,
  transactionRequestStatus: Schema.Literal("created"),
  vaultAccountId: Schema.String,
  assetId: Schema.String,
  fromAddress: Schema.String,
  toAddress: Schema.String,
  amount: Amount,
  feePriority: Schema.String,
  note: optional(Schema.String),
  maxFee: maxFeeEcho,
})

const Recipient = struct({ address: Schema.String, amount: Amount })

/** #17 (UTXO from the whole vault; from 2025-09-23 also account-based chains with one sender). */
export const VaultTransferCreated = struct({
  feePriority: optional(Schema.String),
  recipients: array(Recipient),
  senders: optional(array(struct({ address: Schema.String })), { since: "2025-09-23" }),
  totalTransactionAmount: Amount,
  transactionRequestId: Schema.String,
  transactionRequestStatus: Schema.Literal("created"),
  note: optional(Schema.String),
  maxFee: maxFeeEcho,
})

/** 2025-09-23: a token transfer from an address named in the body. */
export const VaultTokenTransferCreated = struct({
  feePriority: optional(Schema.String),
  recipients: array(Recipient),
  senders: struct({ address: Schema.String }),
  tokenTypeSpecificData: struct({ contractAddress: Schema.String }),
  transactionRequestId: Schema.String,
  transactionRequestStatus: Schema.Literal("created"),
  note: optional(Schema.String),
  maxFee: optional(Schema.String),
})

/** The 2024-05-09 address-path creates (#18–#21): what each echoes of the request it made. */
const created = { transactionRequestId: Schema.String, transactionRequestStatus: Schema.String, note: optional(Schema.String) }
const recipientOf = struct({ address: Schema.String, amount: Amount })
const unitRecipient = struct({ address: Schema.String, amount: Amount, unit: Schema.String })

export const CoinRequestCreated = struct({
  feePriority: Schema.String,
  recipients: array(recipientOf),
  senders: struct({ address: Schema.String }),
  ...created,
})

export const TokenRequestCreated = struct({
  feePriority: Schema.String,
  recipients: array(recipientOf),
  senders: struct({ address: Schema.String }),
  tokenTypeSpecificData: struct({ contractAddress: Schema.String }),
  ...created,
})

export const FeelessRequestCreated = struct({
  recipient: array(unitRecipient),
  sender: struct({ address: Schema.String }),
  totalAmount: struct({ unit: Schema.String, value: Amount }),
  ...created,
})

export const FeelessTokenRequestCreated = struct({
  recipient: array(unitRecipient),
  sender: struct({ address: Schema.String }),
  tokenTypeSpecificData: struct({ contractAddress: Schema.String, feeLimit: optional(Schema.String), symbol: Schema.String }),
  ...created,
})
