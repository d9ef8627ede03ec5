// Asset entries as the asset and address listings write them; 2026-03-20 renames the symbol and the rate.
import { Schema } from "effect"
import { amountFields, AssetType } from "./common.js"
import { array, field, named, optional, struct, type Shape } from "./shape.js"

export const symbolField = field(Schema.String, { renamed: { "2026-03-20": "assetUnit" } })
/** The asset's exchange rate to USD, a decimal string. */
export const exchangeRateField = field(Schema.String, { renamed: { "2026-03-20": "exchangeRateUnit" } })

export const AssetData = named(
  "AssetData",
  struct({ ...amountFields, contract: optional(Schema.String), standard: optional(Schema.String) }),
  "The four amounts of an asset's balance, and a token's contract.",
)

const entryFields = { assetData: AssetData, exchangeRate: exchangeRateField, symbol: symbolField, type: AssetType } as const

/** #8's entry (assets of one address on one chain). */
export const AddressAssetEntry = named("AddressAsset", struct(entryFields))
/** #11's entry, and of every listing that spans chains. */
export const VaultAssetEntry = named(
  "VaultAsset",
  struct({ ...entryFields, assetId: Schema.String, blockchain: Schema.String, network: Schema.String }),
)

/** `item: { assets: [...] }` (named after its entry's name: `VaultAssets`). */
export const assetsOf = (entry: Shape & { readonly name?: string }): Shape =>
  entry.name === undefined ? struct({ assets: array(entry) }) : named(`${entry.name}s`, struct({ assets: array(entry) }))

const { allocatedAmount: _allocated, ...threeAmounts } = amountFields

/** #10's "Asset balance object". */
export const AssetBalance = struct({
  id: Schema.String,
  symbol: symbolField,
  type: AssetType,
  blockchain: Schema.String,
  ...threeAmounts,
  // Spelled so in the spec's "Asset balance object" (endpoint #10 only).
  allocatedAmaunt: Schema.String,
  exchangeRate: exchangeRateField,
  tokenData: optional(struct({ contractAddress: Schema.String, contractType: Schema.String })),
})

export const AssetVaults = struct({
  exchangeRate: exchangeRateField,
  vaults: array(
    struct({
      vaultId: Schema.String,
      vaultName: Schema.String,
      vaultColor: Schema.String,
      vaultType: Schema.Literals(["general", "smart"]),
      ...amountFields,
    }),
  ),
})
