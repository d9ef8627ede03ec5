// Asset ids of the catalogue used by tests, looked up rather than hard-coded.
import { assetsOf } from "../../src/domain/chains/index.js"

export const assetId = (blockchain: string, network: string, symbol: string): string => {
  const a = assetsOf({ blockchain: blockchain as never, network: network as never }).find((x) => x.symbol === symbol)
  if (a === undefined) throw new Error(`no ${symbol} on ${blockchain}/${network}`)
  return a.id
}
