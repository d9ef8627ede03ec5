// Default USD exchange rates by asset symbol, as decimal strings; plain data, made settable elsewhere.
import type { AssetInfo } from "./types.js"

/**
 * Keyed by symbol, so an asset on a test network shows the rate of its mainnet twin (test funds are valueless,
 * but a listing of zeros would hide mistakes in amount × rate code), and ETH on an L2 shows the ETH rate.
 */
export const DEFAULT_EXCHANGE_RATES: Readonly<Record<string, string>> = {
  BTC: "65000",
  BCH: "350",
  LTC: "80",
  DOGE: "0.12",
  DASH: "25",
  ZEC: "35",
  ETH: "3200",
  ETC: "20",
  BNB: "580",
  POL: "0.35",
  AVAX: "25",
  TRX: "0.15",
  SOL: "150",
  XRP: "0.6",
  USDT: "1",
  USDC: "1",
}

/** The rate of an asset in a rate table; "0" for a symbol the table does not know. */
export const exchangeRateOf = (
  asset: Pick<AssetInfo, "symbol">,
  rates: Readonly<Record<string, string>> = DEFAULT_EXCHANGE_RATES,
): string => rates[asset.symbol] ?? "0"
