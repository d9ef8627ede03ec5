// The transaction objects of #13 (a vault's list, an account's) and #14 (one transaction's detail), per version.
import { Schema } from "effect"
import { symbolField } from "./assets.js"
import { BooleanString } from "./common.js"
import { array, field, named, optional, struct } from "./shape.js"

const unitField = field(Schema.String, { renamed: { "2026-03-20": "amountUnit" } })
const Party = struct({
  address: Schema.String,
  addressType: optional(Schema.String),
  label: optional(Schema.String),
  amount: Schema.String,
  isVaultAddress: BooleanString,
  unitSymbol: unitField,
})
const Fee = struct({ amount: Schema.String, unitSymbol: unitField })
const Direction = Schema.Literals(["incoming", "outgoing", "client-internal", "vault-internal", "internal"])

export const TransactionListItem = named(
  "TransactionListItem",
  struct({
    id: Schema.String,
    transactionId: Schema.String,
    blockchain: Schema.String,
    network: Schema.String,
    createdTimestamp: Schema.Int,
    direction: Direction,
    hasTokenTransfer: BooleanString,
    isInternal: BooleanString,
    minedInBlockHeight: Schema.String,
    status: Schema.String,
    transactionFee: Fee,
    senders: array(Party),
    recipients: array(Party),
  }),
)

/** Always shown from 2026-03-20 on, empty when there is none. */
const listFrom2026 = (item: Parameters<typeof array>[0]) => optional(array(item), { absentAs: { "2026-03-20": [] } })

export const TransactionDetail = struct({
  id: Schema.String,
  // 2026-03-20 no longer echoes the transaction id and blockchain of the path.
  transactionId: field(Schema.String, { until: "2026-03-20" }),
  blockchain: field(Schema.String, { until: "2026-03-20" }),
  direction: Direction,
  network: Schema.String,
  minedInBlockHeight: Schema.String,
  minedInBlockHash: optional(Schema.String),
  status: Schema.String,
  timestamp: field(Schema.Int, { renamed: { "2026-03-20": "dateTime" } }),
  senders: array(Party),
  recipients: array(Party),
  transactionFee: Fee,
  internalTransfers: listFrom2026(
    struct({
      fromAddress: Schema.String,
      toAddress: Schema.String,
      operationId: Schema.String,
      operationType: Schema.String,
      previousTxHash: Schema.String,
      timestamp: Schema.Int,
    }),
  ),
  tokensTransfers: listFrom2026(
    struct({
      amount: Schema.String,
      contract: Schema.String,
      fromAddress: Schema.String,
      toAddress: Schema.String,
      symbol: symbolField,
      tokenName: Schema.String,
      type: Schema.String,
      decimals: Schema.Int,
    }),
  ),
})
