// An address on a network: valid for the network's chain and kind (mainnet or testnet form).
import { type Blockchain, type NetworkInfo, type NetworkName, validateAddress } from "../../domain/chains/index.js"
import { checks } from "../body.js"
import type { ApiError } from "../errors.js"
import { invalidField } from "./invalid.js"

/** The body check of an address attribute: a string of 1 to 200 characters (its form is checked by `addressOn`). */
export const addressCheck = checks.string({ min: 1, max: 200 })

/** Whether `address` is an address of the network `n`. */
const isAddressOn = (n: NetworkInfo, address: string): boolean =>
  validateAddress(n.blockchain as Blockchain, n.network as NetworkName, address)

/** undefined when `raw` is an address of `n`, else 400 invalid_data on `attribute`. */
export const addressOn = (n: NetworkInfo, raw: string, attribute: string): ApiError | undefined =>
  isAddressOn(n, raw) ? undefined : invalidField(attribute, `is not a valid ${n.blockchain}/${n.network} address`)
