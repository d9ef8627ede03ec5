// Webhook subscriptions and deliveries as they stood at an earlier log position, from the changes the outbox
// records with their positions (the dashboard's timeline, `asOf` on the control plane's webhook reads).
import type { AsOf } from "./projection.js"
import { countAtOrBefore } from "./storage/at-or-before.js"
import type { DeliveryView, SubscriptionView } from "./outbox.js"

const changePosition = (changes: ReadonlyArray<{ readonly position: bigint }>, i: number): bigint => changes[i]!.position

/** The last recorded change at or before `asOf`; undefined when there is none (the state as created). */
const lastAt = <C extends { readonly position: bigint }>(changes: ReadonlyArray<C>, asOf: bigint): C | undefined => {
  const n = countAtOrBefore(changes, changes.length, changePosition, asOf)
  return n === 0 ? undefined : changes[n - 1]
}

/** A delivery as of a position: undefined before its notification was raised. */
export const deliveryAt = (d: DeliveryView, asOf: AsOf): DeliveryView | undefined => {
  if (asOf === undefined) return d
  if (d.notification.position > asOf) return undefined
  const c = lastAt(d.changes, asOf)
  if (c === undefined)
    return { ...d, status: "pending", nextAttemptAt: d.notification.at, failuresInRound: 0, redeliveries: 0, attempts: [], changes: [] }
  if (c === d.changes[d.changes.length - 1]) return d
  return {
    ...d,
    status: c.status,
    nextAttemptAt: c.nextAttemptAt,
    failuresInRound: c.failuresInRound,
    redeliveries: c.redeliveries,
    attempts: d.attempts.slice(0, c.attempts),
    changes: d.changes.filter((x) => x.position <= asOf),
  }
}

/** A subscription as of a position, with the deliveries it had then: undefined before it was created. */
export const subscriptionAt = (s: SubscriptionView, asOf: AsOf): SubscriptionView | undefined => {
  if (asOf === undefined) return s
  if (s.createdPosition > asOf) return undefined
  const c = lastAt(s.changes, asOf)
  const deliveries = s.deliveries.flatMap((d) => deliveryAt(d, asOf) ?? [])
  const state =
    c === undefined
      ? { status: "pending" as const, verifiedAt: null, lastVerification: null, verificationAttempts: 0 }
      : { status: c.status, verifiedAt: c.verifiedAt, lastVerification: c.lastVerification, verificationAttempts: c.verificationAttempts }
  return { ...s, ...state, deliveries, changes: s.changes.filter((x) => x.position <= asOf) }
}
