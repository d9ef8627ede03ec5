// Settings read model: the exchange-rate table over time (defaults from the catalogue until set).
import { DEFAULT_EXCHANGE_RATES } from "../domain/chains/index.js"
import type { SettingsEvent } from "../domain/settings/index.js"
import type { StoredOf } from "../events/stored-event.js"
import { History } from "./storage/history.js"
import type { AsOf } from "./projection.js"

export const settingsFoldTypes = ["ExchangeRatesSet"] as const satisfies ReadonlyArray<SettingsEvent["type"]>

export class SettingsModel {
  private readonly rates = new History<Readonly<Record<string, string>>>()

  exchangeRates(asOf: AsOf): Readonly<Record<string, string>> {
    return this.rates.at(asOf) ?? DEFAULT_EXCHANGE_RATES
  }

  rateOf(symbol: string, asOf: AsOf): string {
    return this.exchangeRates(asOf)[symbol] ?? "0"
  }

  apply(event: StoredOf<(typeof settingsFoldTypes)[number]>): void {
    if (event.type === "ExchangeRatesSet") this.rates.set(event.position, { ...this.exchangeRates(undefined), ...event.data.rates })
  }
}
