// Public surface of address validation (HD derivation, which keeps caches, is an adapter: adapters/hd/).
export { canonicalExternalAddress, validateAddress } from "./validate.js"
