// Deliveries by due time, then log position: a binary min-heap. Entries may be stale (the delivery moved on);
// the worker checks each popped entry against the outbox.
import type { DeliveryView } from "../projections/outbox.js"

export interface DueEntry {
  readonly at: number
  /** The notification's log position, as a number: bigint comparisons are slow in a hot loop. */
  readonly order: number
  readonly delivery: DeliveryView
}

const before = (a: DueEntry, b: DueEntry) => a.at < b.at || (a.at === b.at && a.order < b.order)

export class DueQueue {
  private readonly heap: Array<DueEntry> = []

  get size(): number {
    return this.heap.length
  }

  push(delivery: DeliveryView): void {
    if (delivery.nextAttemptAt === null) return
    const h = this.heap
    h.push({ at: delivery.nextAttemptAt, order: Number(delivery.notification.position), delivery })
    let i = h.length - 1
    while (i > 0) {
      const parent = (i - 1) >> 1
      if (!before(h[i]!, h[parent]!)) break
      ;[h[i], h[parent]] = [h[parent]!, h[i]!]
      i = parent
    }
  }

  peek(): DueEntry | undefined {
    return this.heap[0]
  }

  pop(): DueEntry | undefined {
    const h = this.heap
    const top = h[0]
    const last = h.pop()
    if (h.length === 0 || last === undefined) return top
    h[0] = last
    let i = 0
    for (;;) {
      const l = 2 * i + 1
      const r = l + 1
      let m = i
      if (l < h.length && before(h[l]!, h[m]!)) m = l
      if (r < h.length && before(h[r]!, h[m]!)) m = r
      if (m === i) return top
      ;[h[i], h[m]] = [h[m]!, h[i]!]
      i = m
    }
  }
}
