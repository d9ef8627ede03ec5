// A transfer is kept as a row of columns and read back as the event recorded it: every field of a ChainTransfer
// reads back from the view as given, and a field the event lacks reads as undefined.
import { describe, expect, it } from "vitest"
import type { ChainTransfer } from "../../../src/chain-sim/index.js"
import { AddressKeys } from "../../../src/projections/address-keys.js"
import { ChainsModel } from "../../../src/projections/chains.js"
import { transferFields } from "../../../src/projections/chains-transfers.js"

const submitted = (model: ChainsModel, data: ChainTransfer, at: number, position: bigint) =>
  model.apply({
    position,
    stream: "chain-ethereum.sepolia",
    revision: 0n,
    id: `e${position}`,
    type: "ChainTxSubmitted",
    data: { ...data, chain: "ethereum.sepolia", at },
    metadata: {},
  } as unknown as Parameters<ChainsModel["apply"]>[0])

describe("a transfer's view", () => {
  it("reads back every field of the transfer it was made from", () => {
    // A distinct value per field: a field not kept reads undefined, one read from the wrong column differs.
    const values: Record<string, unknown> = Object.fromEntries(Object.keys(transferFields).map((k, i) => [k, `${k}-${i}`]))
    // A string with a character beyond U+00FF is kept whole, the others a byte per character: both read back.
    Object.assign(values, {
      from: "frøm ✓",
      to: "tø",
      kind: "withdrawal",
      vout: 3,
      failsInExecution: true,
      calls: [{ to: "c", assetId: "ETH_TEST5", amount: "2" }],
      operation: { type: "stake" },
    })
    const data = values as unknown as ChainTransfer
    const model = new ChainsModel(new AddressKeys())
    submitted(model, data, 1_000, 42n)
    const view = model.transfers.get(data.transactionId)!
    for (const k of Object.keys(transferFields) as Array<keyof ChainTransfer>) expect(view.transfer[k], k).toEqual(data[k])
    expect(Object.keys(view.transfer)).toEqual(Object.keys(transferFields))
    expect(view.position).toBe(42n)
    expect(view.submittedAt).toBe(1_000)
    expect([view.chain, view.blockchain, view.network]).toEqual(["ethereum.sepolia", "ethereum", "sepolia"])
  })

  it("reads a field the event's data lacks as undefined", () => {
    const data: ChainTransfer = {
      transactionId: "t",
      recordId: "r",
      kind: "deposit",
      assetId: "ETH_TEST5",
      from: "a",
      to: "b",
      amount: "1",
      fee: "0",
      vout: null,
    }
    const model = new ChainsModel(new AddressKeys())
    submitted(model, data, 0, 1n)
    const t = model.transfers.get("t")!.transfer
    expect(t.feePayer).toBeUndefined()
    expect(t.calls).toBeUndefined()
    expect(t.failsInExecution).toBeUndefined()
    expect(t.vout).toBeNull()
    expect(model.depositsTo(new AddressKeys().of("ethereum", "sepolia", "b")).map((v) => v.transfer.transactionId)).toEqual(["t"])
  })
})
