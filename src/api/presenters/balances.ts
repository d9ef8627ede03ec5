// Wire shapes shared by the asset and address endpoints: amounts as decimal strings, booleans as the spec says.
import type { AssetInfo } from "../../domain/chains/index.js"
import { formatAmount } from "../../domain/shared/money.js"
import type { Balance } from "../../projections/balances/holdings.js"
import { ZERO_BALANCE } from "../../projections/balances/holdings.js"

export const amounts = (b: Balance, decimals: number) => ({
  totalAmount: formatAmount(b.total, decimals),
  availableAmount: formatAmount(b.available, decimals),
  blockedAmount: formatAmount(b.blocked, decimals),
  allocatedAmount: formatAmount(b.allocated, decimals),
})

export const sum = (a: Balance, b: Balance): Balance => ({
  total: a.total + b.total,
  available: a.available + b.available,
  blocked: a.blocked + b.blocked,
  allocated: a.allocated + b.allocated,
})

export const sumAll = (bs: Iterable<Balance>): Balance => {
  let acc = ZERO_BALANCE
  for (const b of bs) acc = sum(acc, b)
  return acc
}

/** `contract` and `standard` are shown for tokens only (a coin has neither). */
export const tokenFields = (a: AssetInfo) => (a.type === "TOKEN" ? { contract: a.contract, standard: a.standard } : {})
