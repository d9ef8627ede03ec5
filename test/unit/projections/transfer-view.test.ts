// A transfer's view holds the transfer's fields itself (one object per transfer): every field of a ChainTransfer reads
// back from the view as the event recorded it, and a field the event lacks reads as undefined.
import { describe, expect, it } from "vitest"
import type { ChainTransfer } from "../../../src/chain-sim/index.js"
import { Submitted, transferFields } from "../../../src/projections/chains.js"

describe("a transfer's view", () => {
  it("reads back every field of the transfer it was made from", () => {
    // A distinct value per field: a field the view forgot to copy reads undefined, one copied from the wrong field differs.
    const data = Object.fromEntries(Object.keys(transferFields).map((k, i) => [k, `${k}-${i}`])) as unknown as ChainTransfer
    const view = new Submitted("ethereum.sepolia", "ethereum", "sepolia", data, 1_000, 42n, undefined)
    for (const k of Object.keys(transferFields) as Array<keyof ChainTransfer>) expect(view.transfer[k], k).toBe(data[k])
    expect(view.position).toBe(42n)
    expect(view.submittedAt).toBe(1_000)
  })

  it("reads a field the event's data lacks as undefined", () => {
    const data: ChainTransfer = { transactionId: "t", recordId: "r", kind: "deposit", assetId: "ETH_TEST5", from: "a", to: "b", amount: "1", fee: "0", vout: null }
    const view = new Submitted("ethereum.sepolia", "ethereum", "sepolia", data, 0, 1n, undefined)
    expect(view.transfer.feePayer).toBeUndefined()
    expect(view.transfer.calls).toBeUndefined()
    expect(view.transfer.vout).toBeNull()
  })
})
