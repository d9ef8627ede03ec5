// The vault account object of 2026-03-20 (create, list, details, edit); 2024-05-09's create answer is its first fields.
import { Schema } from "effect"
import { symbolField } from "./assets.js"
import { Amount, AssetType, NetworkType } from "./common.js"
import { array, converted, field, named, optional, struct, type Shape } from "./shape.js"

const SINCE = { since: "2026-03-20" } as const

const AccountBalance = struct({
  assetId: Schema.String,
  assetName: Schema.String,
  symbol: symbolField,
  blockchain: Schema.String,
  exchangeRateUnit: Schema.Literal("USD"),
  latestExchangeRateToUSD: Schema.String,
  totalAmount: Amount,
})

const asString = converted(Schema.String, String)

/**
 * The service writes the favourite flag `isFavoriteInDashboard` in lists and `isFavorityInDashboard` in details,
 * and the index as an integer in lists, a string elsewhere; create shows no favourite flag.
 */
export const vaultAccountShape = (variant: { readonly favourite?: "list" | "details"; readonly index: "integer" | "string" }): Shape =>
  named(
    variant.favourite === "list" ? "VaultAccountListItem" : variant.favourite === "details" ? "VaultAccountDetails" : "VaultAccount",
    struct({
      vaultAccountId: Schema.String,
      name: field(Schema.String, { renamed: { "2026-03-20": "vaultAccountName" } }),
      vaultId: field(Schema.String, SINCE),
      color: field(Schema.String, { renamed: { "2026-03-20": "vaultAccountColour" } }),
      isHiddenInDashboard: Schema.Boolean,
      ...(variant.favourite === undefined
        ? {}
        : {
            isFavoriteInDashboard: field(Schema.Boolean, {
              ...SINCE,
              ...(variant.favourite === "details" ? { renamed: { "2026-03-20": "isFavorityInDashboard" } } : {}),
            }),
          }),
      index: field(variant.index === "string" ? asString : Schema.Int, SINCE),
      createdTimestamp: field(Schema.Int, { renamed: { "2026-03-20": "createdAt" } }),
      addressesCount: field(asString, SINCE),
      balances: field(array(AccountBalance), SINCE),
    }),
  )

export const VaultAccountAsset = struct({
  assetId: Schema.String,
  symbol: symbolField,
  availableAmount: Amount,
  blockchain: Schema.String,
  exchangeRateToUsd: Schema.String,
})

export const VaultAccountAddress = struct({
  address: Schema.String,
  addressId: Schema.String,
  blockchain: Schema.String,
  network: Schema.String,
  label: Schema.String,
  balances: array(struct({ amount: Amount, assetId: Schema.String, symbol: symbolField })),
})

export const AddedAsset = struct({
  address: Schema.String,
  label: Schema.String,
  assetId: Schema.String,
  blockchain: Schema.String,
  network: Schema.String,
  vaultAccountId: Schema.String,
})

/** #5's item; 2026-03-20 names the id `assetId`, the name `aassetName` (sic) and adds the USD price. */
export const SupportedAsset = struct({
  id: field(Schema.String, { renamed: { "2026-03-20": "assetId" } }),
  symbol: symbolField,
  name: field(Schema.String, { renamed: { "2026-03-20": "aassetName" } }),
  type: AssetType,
  unit: Schema.String,
  decimals: Schema.Int,
  blockchain: Schema.String,
  network: Schema.String,
  networkType: NetworkType,
  tokenData: optional(struct({ contractAddress: Schema.String, contractType: Schema.String })),
  price: field(struct({ amount: Schema.String, unit: Schema.String }), { since: "2026-03-20" }),
})
