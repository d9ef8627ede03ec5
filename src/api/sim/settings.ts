// Control plane: the exchange-rate table (`GET`/`PUT /_sim/exchange-rates`), recorded as events.
import { isDecimalRate } from "../../domain/settings/index.js"
import { setExchangeRates } from "../../commands/settings.js"
import { errors, isApiError } from "../errors.js"
import type { SimRoute } from "./common.js"
import { runCommand } from "../use-case.js"

export const settingsRoutes: ReadonlyArray<SimRoute> = [
  {
    method: "GET",
    path: "/_sim/exchange-rates",
    handle: (_, deps) => ({ status: 200, body: { rates: deps.sim.models.settings.exchangeRates(undefined) } }),
  },
  {
    method: "PUT",
    path: "/_sim/exchange-rates",
    handle: async ({ body }, deps) => {
      const rates = body.rates
      if (typeof rates !== "object" || rates === null || Array.isArray(rates)) return errors.missingRequiredAttributes(["rates"])
      const entries = Object.entries(rates as Record<string, unknown>)
      const bad = entries.filter(([symbol, v]) => !/^[A-Za-z0-9.]{1,20}$/.test(symbol) || !isDecimalRate(v))
      if (bad.length > 0 || entries.length === 0)
        return errors.invalidData(
          bad.length > 0
            ? bad.map(([symbol]) => ({ attribute: `rates.${symbol}`, message: 'must be a decimal string such as "65000.5"' }))
            : [{ attribute: "rates", message: "must not be empty" }],
        )
      const r = await runCommand(deps, setExchangeRates(rates as Record<string, string>))
      if (isApiError(r)) return r
      return { status: 200, body: { rates: deps.sim.models.settings.exchangeRates(undefined) } }
    },
  },
]
