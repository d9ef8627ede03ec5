// The fee ceiling of a transfer (`maxFee`), one rule for every transfer kind (README "Decisions"): a non-negative
// decimal string in the chain's native coin. "0" is a real ceiling, not a refusal: the request is created only if
// mining it now would cost nothing (a tron transfer inside its free bandwidth), else it is 400 MAX_FEE_EXCEEDED
// like any ceiling below the fee.
import { type NetworkInfo, nativeAsset } from "../../domain/chains/index.js"
import { parseAmount } from "../../domain/shared/money.js"
import type { ApiError } from "../errors.js"
import { invalidField } from "./invalid.js"

/** `maxFee` in base units of the network's coin; null when not sent; 400 invalid_data when malformed. */
export const maxFeeOf = (raw: string | undefined, n: NetworkInfo, attribute = "maxFee"): bigint | null | ApiError => {
  if (raw === undefined) return null
  const native = nativeAsset(n.blockchain, n.network)!
  const r = parseAmount(raw, native.decimals)
  return r.ok
    ? r.value
    : invalidField(attribute, `must be a non-negative decimal string of ${native.unit} with at most ${native.decimals} decimals`)
}
