// The holds of webhook faults (src/webhooks/fault-holds.ts): a delay until its simulated time; a reorder until the
// subscription's next delivery is sent on this node, or an attempt of it is recorded by another node, or its bound.
import { describe, expect, it } from "vitest"
import { FaultHolds, REORDER_BOUND_MS } from "../../../src/webhooks/fault-holds.js"
import type { DeliveryView } from "../../../src/projections/outbox.js"

const delivery = (deliveryId: string, webhookId = "hook-1") => ({ deliveryId, webhookId }) as DeliveryView
const ids = (ds: ReadonlyArray<DeliveryView>) => ds.map((d) => d.deliveryId)

describe("fault holds", () => {
  it("let a delay go when the clock reaches it", () => {
    const holds = new FaultHolds()
    holds.delay(delivery("a"), 5_000)
    expect(holds.nextRelease()).toBe(5_000)
    expect(ids(holds.releasedBy(4_999))).toEqual([])
    expect(ids(holds.releasedBy(5_000))).toEqual(["a"])
    expect(holds.nextRelease()).toBeUndefined()
  })

  it("let a reorder go after the subscription's next send on this node, and only that subscription's", () => {
    const holds = new FaultHolds()
    holds.reorder(delivery("a"), REORDER_BOUND_MS)
    holds.reorder(delivery("b", "hook-2"), REORDER_BOUND_MS)
    expect(ids(holds.afterSent("hook-1"))).toEqual(["a"])
    expect(ids(holds.afterSent("hook-1"))).toEqual([])
    expect(ids(holds.releasedBy(REORDER_BOUND_MS - 1))).toEqual([])
    expect(ids(holds.afterSent("hook-2"))).toEqual(["b"])
  })

  it("let a reorder go once another node has recorded an attempt of the subscription", () => {
    const attempts = new Map([["hook-1", 3]])
    const holds = new FaultHolds((id) => attempts.get(id) ?? 0)
    holds.reorder(delivery("a"), REORDER_BOUND_MS)
    holds.reorder(delivery("b", "hook-2"), REORDER_BOUND_MS)
    expect(ids(holds.releasedBy(0))).toEqual([])
    attempts.set("hook-1", 4)
    expect(ids(holds.releasedBy(0))).toEqual(["a"])
    expect(ids(holds.afterSent("hook-1"))).toEqual([])
    expect(holds.nextRelease()).toBe(REORDER_BOUND_MS)
  })

  it("let a reorder go at its bound when no other delivery comes", () => {
    const holds = new FaultHolds()
    holds.reorder(delivery("a"), 1_000 + REORDER_BOUND_MS)
    expect(holds.nextRelease()).toBe(1_000 + REORDER_BOUND_MS)
    expect(ids(holds.releasedBy(REORDER_BOUND_MS))).toEqual([])
    expect(ids(holds.releasedBy(1_000 + REORDER_BOUND_MS))).toEqual(["a"])
    expect(holds.nextRelease()).toBeUndefined()
  })
})
