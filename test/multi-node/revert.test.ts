// Snapshots where the log is shared: on EventStoreDB (the gRPC double) every node refuses them with 409
// not_supported_on_store and the nodes still agree on one world; simulators sharing a memory store in one
// process refuse them too, instead of cutting the log from under each other.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createApp } from "../../src/api/app.js"
import { digestOf } from "../../src/api/digest/digest.js"
import { RevertNotSupported } from "../../src/snapshots/snapshots.js"
import { createSimulator, type Simulator } from "../../src/simulator.js"
import { makeEsdbStore } from "../../src/store/esdb.js"
import { makeMemoryStore } from "../../src/store/memory.js"
import { startEsdbDouble, type EsdbDouble } from "../support/esdb-double/index.js"
import { BASE, T0 } from "../support/harness.js"

const quiet = { log: { error: () => {}, info: () => {} } }
const admin = async (sim: Simulator, method: string, path: string, body?: unknown) => {
  const res = await createApp(sim, quiet).request(BASE + path, {
    method,
    headers: { authorization: `Bearer ${sim.adminToken}`, "content-type": "application/json" },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  })
  return { status: res.status, body: (await res.json()) as any }
}
const caughtUp = async (sims: ReadonlyArray<Simulator>) => {
  for (const sim of sims) await sim.run(sim.runner.pull)
}

describe("on EventStoreDB, two nodes", () => {
  let double: EsdbDouble
  let a: Simulator
  let b: Simulator
  beforeAll(async () => {
    double = await startEsdbDouble()
    const node = (nodeId: string) =>
      createSimulator({
        store: makeEsdbStore(double.connectionString),
        seed: "esdb-revert",
        clock: { frozenAt: T0 },
        defaultWorkspace: true,
        follow: true,
        nodeId,
        webhooks: false,
      })
    a = await node("a")
    b = await node("b")
  })
  afterAll(async () => {
    await a?.close()
    await b?.close()
    await double?.stop()
  })

  it("refuse snapshot, revert and reset with 409 not_supported_on_store, and still agree on the world", async () => {
    expect((await admin(a, "POST", "/_sim/vaults", { name: "before", type: "test" })).status).toBe(201)
    await caughtUp([a, b])
    const before = await digestOf(a, undefined)
    for (const [sim, method, path] of [
      [a, "POST", "/_sim/snapshots"],
      [b, "POST", "/_sim/snapshots/1/revert"],
      [a, "POST", "/_sim/reset"],
    ] as const) {
      const r = await admin(sim, method, path)
      expect(r.status).toBe(409)
      expect(r.body.error.code).toBe("not_supported_on_store")
      expect(r.body.error.message).toMatch(/esdb store cannot revert/)
    }
    expect((await admin(b, "GET", "/_sim/snapshots")).body).toEqual({ snapshots: [] })
    await caughtUp([a, b])
    expect(await digestOf(b, undefined)).toBe(before)
    expect(await digestOf(a, undefined)).toBe(before)
    expect(a.models.position).toBe(b.models.position)
    await expect(a.snapshot()).rejects.toBeInstanceOf(RevertNotSupported)
  })
})

describe("on a memory store shared by two simulators in one process", () => {
  it("refuses a snapshot while the other is open, and allows it once the store has one simulator again", async () => {
    const store = makeMemoryStore()
    const a = await createSimulator({ store, seed: "shared", clock: { frozenAt: T0 }, defaultWorkspace: true, webhooks: false })
    const b = await createSimulator({ store, seed: "shared", clock: { frozenAt: T0 }, nodeId: "b", webhooks: false })
    const r = await admin(a, "POST", "/_sim/snapshots")
    expect(r.status).toBe(409)
    expect(r.body.error).toEqual({
      code: "not_supported_on_store",
      message: expect.stringMatching(/Other simulators share this memory store/),
    })
    await b.close()
    expect((await admin(a, "POST", "/_sim/snapshots")).status).toBe(201)
    await a.close()
  })
})
