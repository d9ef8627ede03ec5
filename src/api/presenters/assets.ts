// An asset a vault or address holds, as the asset and address endpoints list it.
import type { AssetInfo } from "../../domain/chains/index.js"
import type { Balance } from "../../projections/balances/holdings.js"
import type { AsOf } from "../../projections/projection.js"
import type { ApiDeps } from "../deps.js"
import { amounts, tokenFields } from "./balances.js"

export const vaultAssetEntry = (deps: ApiDeps, asset: AssetInfo, b: Balance, asOf: AsOf) => ({
  assetData: { ...amounts(b, asset.decimals), ...tokenFields(asset) },
  exchangeRate: deps.reads.rate(asset.symbol, asOf),
  symbol: asset.symbol,
  type: asset.type,
  assetId: asset.id,
  blockchain: asset.blockchain,
  network: asset.network,
})
