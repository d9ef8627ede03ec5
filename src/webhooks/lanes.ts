// One lane per subscription: its due deliveries in order and its attempts in flight, so that a slow or hanging
// receiver holds only its own slots and a backlog in one lane takes no other lane's turn.
import type { DeliveryView } from "../projections/outbox.js"
import { DueQueue, type DueEntry } from "./due-queue.js"

export interface Lane {
  readonly queue: DueQueue
  inFlight: number
  /** A fault's hit on one of its deliveries is being recorded: the lane starts nothing else until it is (faults.ts). */
  blocked: boolean
}

export class Lanes {
  private readonly lanes = new Map<string, Lane>()

  /** @param attemptable whether a queued delivery may be attempted now (pending, due as queued, not busy, ours). */
  constructor(private readonly attemptable: (entry: DueEntry) => boolean) {}

  of(webhookId: string): Lane {
    let lane = this.lanes.get(webhookId)
    if (lane === undefined) this.lanes.set(webhookId, (lane = { queue: new DueQueue(), inFlight: 0, blocked: false }))
    return lane
  }

  enqueue(d: DeliveryView): void {
    this.of(d.webhookId).queue.push(d)
  }

  all(): IterableIterator<Lane> {
    return this.lanes.values()
  }

  /** The lane's first attemptable entry (stale ones dropped on the way). */
  head(lane: Lane): DueEntry | undefined {
    for (let top = lane.queue.peek(); top !== undefined; top = lane.queue.peek()) {
      if (this.attemptable(top)) return top
      lane.queue.pop()
    }
    return undefined
  }

  /** When the next delivery of any lane is due (undefined: none queued); empty, idle lanes are dropped. */
  nextDue(): number | undefined {
    let at: number | undefined
    for (const [id, lane] of this.lanes) {
      const top = this.head(lane)
      if (top === undefined) {
        if (lane.inFlight === 0) this.lanes.delete(id)
        continue
      }
      if (at === undefined || top.at < at) at = top.at
    }
    return at
  }
}
