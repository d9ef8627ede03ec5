// What a read-model checkpoint covers: every model of ReadModels (a model added as a field is saved without more
// ado; this list says which ones are, and a new one fails here until it is added), each encoded and decoded back
// to the same state, with every class it holds registered.
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { ReadModels } from "../../../src/projections/read-models.js"
import { startHarness } from "../../support/harness.js"
import { runScenario, scenarioFixture } from "../../support/scenario.js"

const covered = [
  "keys",
  "timeline",
  "workspace",
  "holdings",
  "settings",
  "faults",
  "chains",
  "txRequests",
  "transactions",
  "outbox",
  "utxos",
  "tron",
  "settledDeposits",
  "lastSeq",
  "lastEpoch",
]

const bytesOf = (models: ReadModels) => {
  const e = models.encode()
  const b64 = (a: ArrayBufferView) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString("base64")
  return [e.table, e.text, b64(e.ends), b64(e.kinds), b64(e.tags), b64(e.values), b64(e.floats), b64(e.blobs)]
}

describe("read-model checkpoints cover", () => {
  it("exactly the listed models", () => {
    expect(Object.keys(new ReadModels().parts()).sort()).toEqual([...covered].sort())
  })

  it("each model of a scenario's world (every read model populated): decoded, it encodes to the same bytes, with the same classes", {
    timeout: 300_000,
  }, async () => {
    const h = await startHarness({ fixture: scenarioFixture })
    try {
      await runScenario(h)
      const models = new ReadModels()
      for (const e of await Effect.runPromise(h.sim.store.readAll())) models.apply(e)
      const decoded = ReadModels.decode(models.encode())
      expect(decoded.position).toBe(models.position)
      const before = models.parts() as unknown as Record<string, unknown>
      const after = decoded.parts() as unknown as Record<string, unknown>
      for (const name of covered) expect(Object.getPrototypeOf(after[name]), name).toBe(Object.getPrototypeOf(before[name]))
      expect(bytesOf(decoded)).toEqual(bytesOf(models))
      // The decoded models go on folding as the originals do.
      expect(decoded.workspace.vaultList(undefined)).toEqual(models.workspace.vaultList(undefined))
    } finally {
      await h.close()
    }
  })
})
