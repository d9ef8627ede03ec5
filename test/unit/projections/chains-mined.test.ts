// The chains model's fold of a mined block: each id the block names is found at the row kept under it, whichever
// order the block names them in, and an id submitted again is found at its latest row.
import { describe, expect, it } from "vitest"
import { ReadModels } from "../../../src/projections/read-models.js"
import type { RecordedEvent } from "../../../src/store/event-store.js"

const chain = "ethereum.sepolia"
let position = 0n
const event = (type: string, data: Record<string, unknown>): RecordedEvent => {
  position++
  return {
    id: `e${position}`,
    type,
    data: data as never,
    metadata: { at: 1_000 + Number(position), schemaVersion: 1 },
    stream: `chain-${chain}`,
    revision: position - 1n,
    position,
  }
}
const submitted = (transactionId: string, to: string) =>
  event("ChainTxSubmitted", {
    chain,
    at: 1_000,
    transactionId,
    recordId: `r-${transactionId}`,
    kind: "deposit",
    assetId: "ETH_TEST5",
    from: "0xfrom",
    to,
    amount: "1",
    fee: "0",
    vout: null,
  })

describe("ChainsModel, a mined block", () => {
  it("finds each named id at the row kept under it, in any order, the latest row of an id submitted again, and skips an unknown id", () => {
    position = 0n
    const models = new ReadModels()
    models.apply(
      event("ChainConfigured", { chain, mode: "manual", intervalSeconds: 12, confirmations: 1, anchorHeight: 10, anchorAt: 1_000 }),
    )
    for (const [id, to] of [
      ["0xa", "0x1"],
      ["0xb", "0x2"],
      ["0xc", "0x3"],
      ["0xd", "0x4"],
      ["0xb", "0x5"],
    ] as const)
      models.apply(submitted(id, to))
    const c = models.chains
    const rows = ["0xa", "0xb", "0xc", "0xd"].map((id) => c.rowOf(id))
    expect(rows).toEqual([0, 4, 2, 3])
    // Named out of order, with the id submitted again right after 0xa (the row after 0xa's is 0xb's first, no longer
    // kept under it), and an id never submitted.
    const block = event("ChainBlocksMined", {
      chain,
      fromHeight: 11,
      toHeight: 11,
      blockHash: "0xblock",
      transactionIds: ["0xc", "0xd", "0xa", "0xb", "0xnone"],
      blockAt: 2_000,
      at: 2_000,
    })
    models.apply(block)
    const mined = c.chain(chain)!.minedDeposits
    expect(Array.from({ length: mined.length }, (_, i) => mined.at(i).row)).toEqual([2, 3, 0, 4])
    expect(Array.from({ length: mined.length }, (_, i) => mined.at(i).transfer.to)).toEqual(["0x3", "0x4", "0x1", "0x5"])
    for (const row of [2, 3, 0, 4]) expect(c.view(row).mined.latest()).toEqual({ height: 11, blockHash: "0xblock", blockAt: 2_000 })
    // The first submission of 0xb, no longer kept under its id, is not mined by it.
    expect(c.view(1).mined.latest()).toBeUndefined()
  })
})
