// Public surface of address derivation and validation.
export { createAddressDeriver, deriveAddress, derivationPathOf } from "./deriver.js"
export type { AddressDeriver } from "./deriver.js"
export { canonicalExternalAddress, validateAddress } from "./validate.js"
