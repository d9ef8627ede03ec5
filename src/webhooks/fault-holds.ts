// Deliveries a webhook fault holds back on this node: a `delay` until a simulated time, a `reorder` until the
// subscription's next delivery has been sent (by this node, or recorded attempted by another node sharing the
// store), or REORDER_BOUND_MS of simulated time if none comes before. Held
// deliveries are the worker's alone (kept busy, so nothing else attempts them); the holds are in memory only: a
// restart (or a revert) forgets them, and the deliveries are due again as the log says.
import type { DeliveryView } from "../projections/outbox.js"

/** How long a `reorder` holds a delivery at most when the subscription has no later delivery: 60 simulated seconds. */
export const REORDER_BOUND_MS = 60_000

interface Hold {
  /** Simulated time it is released at the latest, UNIX ms. */
  readonly until: number
  readonly delivery: DeliveryView
  /** A reorder's: the attempts its subscription's deliveries had recorded when it was held. */
  readonly seen?: number
}

export class FaultHolds {
  /** Held by a `delay`, with the simulated time each is released. */
  private delayed: Array<Hold> = []
  /** Held by a `reorder`, per subscription, in the order held, each with its bound. */
  private readonly reordered = new Map<string, Array<Hold>>()

  /** `attemptsOf`: the attempts recorded of a subscription's deliveries, by any node (the outbox read model). */
  constructor(private readonly attemptsOf: (webhookId: string) => number = () => 0) {}

  delay(delivery: DeliveryView, until: number): void {
    this.delayed.push({ until, delivery })
  }

  /** Holds `delivery` until another of its subscription's has been sent, or until `bound` (simulated, UNIX ms). */
  reorder(delivery: DeliveryView, bound: number): void {
    const hold = { until: bound, delivery, seen: this.attemptsOf(delivery.webhookId) }
    const held = this.reordered.get(delivery.webhookId)
    if (held === undefined) this.reordered.set(delivery.webhookId, [hold])
    else held.push(hold)
  }

  /** When the next held delivery is released by the clock: a delay's end or a reorder's bound (undefined: none held). */
  nextRelease(): number | undefined {
    let at: number | undefined
    for (const { until } of this.allHeld()) if (at === undefined || until < at) at = until
    return at
  }

  /**
   * The deliveries released by `now`, taken out: delays ended, and reorders past their bound or whose subscription
   * has recorded an attempt since (another node sent one of its deliveries), in the order held.
   */
  releasedBy(now: number): Array<DeliveryView> {
    const out: Array<DeliveryView> = []
    if (this.delayed.length > 0) {
      out.push(...this.delayed.filter((h) => h.until <= now).map((h) => h.delivery))
      if (out.length > 0) this.delayed = this.delayed.filter((h) => h.until > now)
    }
    for (const [webhookId, held] of this.reordered) {
      const attempts = this.attemptsOf(webhookId)
      const due = held.filter((h) => h.until <= now || attempts > (h.seen ?? 0))
      if (due.length === 0) continue
      out.push(...due.map((h) => h.delivery))
      const rest = held.filter((h) => !due.includes(h))
      if (rest.length === 0) this.reordered.delete(webhookId)
      else this.reordered.set(webhookId, rest)
    }
    return out
  }

  /** The subscription's deliveries held by a `reorder`, taken out: another of its deliveries has been sent. */
  afterSent(webhookId: string): Array<DeliveryView> {
    const held = this.reordered.get(webhookId)
    if (held === undefined) return []
    this.reordered.delete(webhookId)
    return held.map((h) => h.delivery)
  }

  private *allHeld(): Iterable<Hold> {
    yield* this.delayed
    for (const held of this.reordered.values()) yield* held
  }
}
