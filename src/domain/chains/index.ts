// Public surface of the chain & asset catalogue and of address derivation/validation.
export * from "./types.js"
export { assetIdOf } from "./asset-id.js"
export {
  allAssets,
  allNetworks,
  assetsOf,
  findAsset,
  findAssetByContract,
  findNetwork,
  isUtxo,
  nativeAsset,
  networksOf,
} from "./catalogue.js"
export { makeAssetIds, mapAssetIds } from "./asset-aliases.js"
export type { AssetAlias, AssetIds } from "./asset-aliases.js"
export { DEFAULT_EXCHANGE_RATES, exchangeRateOf } from "./exchange-rates.js"
export * from "./addresses/index.js"
