// An amount in an asset's decimals: a positive decimal string with at most the asset's decimals, decoded to base units.
import type { AssetInfo } from "../../domain/chains/index.js"
import { parsePositiveAmount } from "../../domain/shared/money.js"
import { checks } from "../body.js"
import type { ApiError } from "../errors.js"
import { invalidField } from "./invalid.js"

/** The body check of an amount attribute: a string of 1 to 100 characters (its value is decoded by `amountIn`). */
export const amountCheck = checks.string({ min: 1, max: 100 })

/** `raw` in base units of `asset`, or 400 invalid_data on `attribute`. */
export const amountIn = (raw: string, asset: AssetInfo, attribute = "amount"): bigint | ApiError => {
  const r = parsePositiveAmount(raw, asset.decimals)
  return r.ok ? r.value : invalidField(attribute, `must be a positive decimal string with at most ${asset.decimals} decimals`)
}
