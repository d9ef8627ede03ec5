// Deliveries a webhook fault holds back on this node: a `delay` until a simulated time, a `reorder` until the
// subscription's next delivery has been sent. Held deliveries are the worker's alone (kept busy, so nothing else
// attempts them); a restart forgets the holds, and the deliveries are due again as the log says.
import type { DeliveryView } from "../projections/outbox.js"

export class FaultHolds {
  /** Held by a `delay`, with the simulated time each is released. */
  private delayed: Array<{ readonly until: number; readonly delivery: DeliveryView }> = []
  /** Held by a `reorder`, per subscription, in the order held. */
  private readonly reordered = new Map<string, Array<DeliveryView>>()

  delay(delivery: DeliveryView, until: number): void {
    this.delayed.push({ until, delivery })
  }

  reorder(delivery: DeliveryView): void {
    const held = this.reordered.get(delivery.webhookId)
    if (held === undefined) this.reordered.set(delivery.webhookId, [delivery])
    else held.push(delivery)
  }

  /** When the next delayed delivery is released (undefined: none held). */
  nextRelease(): number | undefined {
    let at: number | undefined
    for (const { until } of this.delayed) if (at === undefined || until < at) at = until
    return at
  }

  /** The delayed deliveries released by `now`, in the order held, taken out. */
  releasedBy(now: number): Array<DeliveryView> {
    if (this.delayed.length === 0) return []
    const out = this.delayed.filter((h) => h.until <= now).map((h) => h.delivery)
    if (out.length > 0) this.delayed = this.delayed.filter((h) => h.until > now)
    return out
  }

  /** The subscription's deliveries held by a `reorder`, taken out: another of its deliveries has been sent. */
  afterSent(webhookId: string): Array<DeliveryView> {
    const held = this.reordered.get(webhookId)
    if (held === undefined) return []
    this.reordered.delete(webhookId)
    return held
  }
}
