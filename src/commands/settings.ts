// Use case: set exchange rates (control plane); appended to the settings stream whatever its revision.
import { Effect } from "effect"
import { exchangeRatesStream } from "../domain/settings/index.js"
import { EventStore } from "../store/event-store.js"
import { toNewEvents } from "./run-decider.js"
import { SimClock } from "./services.js"

export const setExchangeRates = Effect.fn("setExchangeRates")(function* (rates: Readonly<Record<string, string>>) {
  const at = yield* (yield* SimClock).now
  const events = yield* toNewEvents([{ type: "ExchangeRatesSet", data: { rates, at } }])
  const r = yield* (yield* EventStore).append(exchangeRatesStream, events, "any")
  return { position: r.position }
})
