// The answers of the tron resource endpoints: a resource request, an address's resource overview.
import { Schema } from "effect"
import { array, field, optional, struct } from "./shape.js"

export const ManageResourceAnswer = struct({
  id: Schema.String,
  transactionRequestId: Schema.String,
  transactionRequestStatus: Schema.String,
  blockchain: Schema.String,
  network: Schema.String,
  fromAddress: Schema.String,
  type: Schema.String,
  resource: Schema.String,
  amount: optional(Schema.String),
  // 2026-03-20 renames a transaction request's `unit` to `amountUnit` (the contract's diff, row #15).
  unit: field(Schema.String, { renamed: { "2026-03-20": "amountUnit" } }),
  toAddress: optional(Schema.String),
  lock: optional(Schema.Boolean),
  lockPeriod: optional(Schema.String),
  note: optional(Schema.String),
})

const Int = Schema.Int
const trx = Schema.String

const Resource = struct({
  limit: Int,
  used: Int,
  available: Int,
  freeLimit: optional(Int),
  freeUsed: optional(Int),
  stakedLimit: Int,
  stakedUsed: Int,
  staked: trx,
  delegatedToOthers: trx,
  delegatedFromOthers: trx,
})

export const ResourceOverview = struct({
  address: Schema.String,
  network: Schema.String,
  balance: struct({ total: Schema.String, available: Schema.String, staked: Schema.String, unit: Schema.String }),
  resources: struct({ bandwidth: Resource, energy: Resource }),
  unfreezing: array(struct({ amount: trx, withdrawableFrom: Int })),
  withdrawable: trx,
  delegations: array(
    struct({
      fromAddress: Schema.String,
      toAddress: Schema.String,
      resource: Schema.String,
      amount: trx,
      lockedAmount: trx,
      lockedUntilBlock: Int,
    }),
  ),
})
