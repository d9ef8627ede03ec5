// Several nodes on one store: which due deliveries this node may attempt. The store's consumer groups give a
// node a delivery's message (shared-dispatch.ts); the delivery is this node's while it holds the message, and the
// message is settled once the attempt is recorded and visible here.
import type { DeliveryView } from "../projections/outbox.js"
import type { Grant, GrantTarget } from "./shared-dispatch.js"

export class Grants implements GrantTarget {
  private readonly held = new Map<string, Grant>()
  // A message that came while its delivery was busy here, kept until that attempt is recorded: it may be the
  // event of that very attempt, which makes the next one due.
  private readonly afterRecord = new Map<string, Grant>()

  /**
   * @param busy deliveries attempted here and not yet recorded.
   * @param admit queues a granted delivery and wakes the worker.
   */
  constructor(
    private readonly busy: ReadonlySet<string>,
    private readonly admit: (d: DeliveryView) => void,
  ) {}

  has(deliveryId: string): boolean {
    return this.held.has(deliveryId)
  }

  grant(d: DeliveryView, g: Grant): void {
    // While an attempt is in flight or being recorded, the message waits for its record: the store may give the
    // attempt's own event (a retry now due) to this node before the attempt is recorded here.
    if (this.busy.has(d.deliveryId)) {
      const before = this.afterRecord.get(d.deliveryId)
      this.afterRecord.set(d.deliveryId, g)
      if (before !== undefined && before !== g) before.settle()
      return
    }
    this.grantNow(d, g)
  }

  revoke(deliveryId: string, g: Grant): boolean {
    if (this.afterRecord.get(deliveryId) === g) {
      this.afterRecord.delete(deliveryId)
      return true
    }
    if (this.held.get(deliveryId) !== g || this.busy.has(deliveryId)) return false
    this.held.delete(deliveryId)
    return true
  }

  /** The attempt of `d` is recorded and visible here: its message is done; a retry comes back as this attempt's. */
  recorded(d: DeliveryView): void {
    const g = this.held.get(d.deliveryId)
    this.held.delete(d.deliveryId)
    g?.settle()
    const next = this.afterRecord.get(d.deliveryId)
    this.afterRecord.delete(d.deliveryId)
    if (next !== undefined) this.grantNow(d, next)
  }

  /** The delivery is this node's to attempt while the message lasts; done at once when nothing is due. */
  private grantNow(d: DeliveryView, g: Grant): void {
    if (d.status !== "pending") return g.settle()
    const before = this.held.get(d.deliveryId)
    this.held.set(d.deliveryId, g)
    if (before !== undefined && before !== g) before.settle()
    this.admit(d)
  }
}
