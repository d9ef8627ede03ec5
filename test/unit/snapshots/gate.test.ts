// The gate that serializes snapshot/revert with requests: a request answered at once stays synchronous when no
// world-replacing task is about, and waits for one that is.
import { describe, expect, it } from "vitest"
import { makeGate } from "../../../src/snapshots/gate.js"

describe("the request gate", () => {
  it("answers a synchronous task at once, without a promise, when nothing exclusive waits or runs", () => {
    const gate = makeGate()
    expect(gate.shared(() => 42)).toBe(42)
  })

  it("starts a task that arrives while an exclusive task runs only after it, and the exclusive one after tasks in flight", async () => {
    const gate = makeGate()
    const order: Array<string> = []
    let finishInFlight = () => {}
    const inFlight = gate.shared(() => new Promise<void>((resolve) => (finishInFlight = resolve)).then(() => void order.push("in flight")))
    const exclusive = gate.exclusive(async () => void order.push("exclusive"))
    const later = gate.shared(() => void order.push("later"))
    expect(later).toBeInstanceOf(Promise)
    expect(order).toEqual([])
    finishInFlight()
    await Promise.all([inFlight, exclusive, later])
    expect(order).toEqual(["in flight", "exclusive", "later"])
  })

  it("lets the next task in after a synchronous task throws", async () => {
    const gate = makeGate()
    expect(() =>
      gate.shared(() => {
        throw new Error("boom")
      }),
    ).toThrow("boom")
    await gate.exclusive(async () => {})
    expect(gate.shared(() => "after")).toBe("after")
  })
})
