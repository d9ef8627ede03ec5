// The in-memory adapter against the conformance suite, and its layer.
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { EventStore } from "../../src/store/event-store.js"
import { layerMemory, makeMemoryStore } from "../../src/store/memory.js"
import { describeEventStoreConformance } from "./conformance.js"

describeEventStoreConformance("memory", async () => ({ store: makeMemoryStore(), close: async () => {} }), {
  freshStore: true,
  truncates: true,
})

describe("layerMemory", () => {
  it("gives every program that builds it a store of its own", async () => {
    const program = Effect.gen(function* () {
      const store = yield* EventStore
      const result = yield* store.append(
        "layerTest-1",
        [{ id: "e1", type: "T", data: {}, metadata: { at: 0, schemaVersion: 1 } }],
        "no_stream",
      )
      return { kind: store.kind, result }
    }).pipe(Effect.provide(layerMemory))
    const first = await Effect.runPromise(program)
    const second = await Effect.runPromise(program)
    expect(first).toEqual({ kind: "memory", result: { nextExpectedRevision: 0n, position: 1n } })
    expect(second).toEqual(first)
  })
})
