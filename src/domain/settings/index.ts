// Simulator settings that shape answers (exchange rates): events in stream `settings-exchangeRates`.
import type { SimInstant } from "../shared/sim-time.js"

export type SettingsEvent = {
  readonly type: "ExchangeRatesSet"
  /** Symbol → USD rate as a decimal string; merged over the rates in force. */
  readonly data: { readonly rates: Readonly<Record<string, string>>; readonly at: SimInstant }
}

export const exchangeRatesStream = "settings-exchangeRates"

export const isDecimalRate = (s: unknown): s is string => typeof s === "string" && /^(0|[1-9][0-9]{0,20})(\.[0-9]{1,18})?$/.test(s)
