// Node identities in id generation, the start-up workspace race and node slot claims, in process on one store.
import { createHmac } from "node:crypto"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { createVault } from "../../src/commands/workspace.js"
import { makeIds, seedBytes } from "../../src/adapters/ids.js"
import { claimNodeSlot, NODE_REGISTRY } from "../../src/adapters/node-claim.js"
import { createStartupWorkspace } from "../../src/workspace/bootstrap.js"
import { createSimulator, type Simulator } from "../../src/simulator.js"
import { makeEsdbStore } from "../../src/store/esdb.js"
import type { EventStoreShape } from "../../src/store/event-store.js"
import { makeMemoryStore } from "../../src/store/memory.js"
import { startEsdbDouble } from "../support/esdb-double/index.js"
import { T0 } from "../support/harness.js"

/** The ids a single simulator has always generated: HMAC(seed, `<kind>:<sequence>`), 12 bytes in hex. */
const plainId = (seed: string, label: string) => createHmac("sha256", seedBytes(seed)).update(label).digest().toString("hex", 0, 12)

const start = (store: EventStoreShape, nodeId?: string) =>
  createSimulator({
    store,
    seed: "nodes",
    clock: { frozenAt: T0 },
    defaultWorkspace: true,
    follow: true,
    webhooks: false,
    ...(nodeId !== undefined ? { nodeId } : {}),
  })

const all = (store: EventStoreShape) => Effect.runPromise(store.readAll({}))

describe("ids of a node", () => {
  it("are exactly a single simulator's ids for the lone node, and apart for every other node", () => {
    const lone = makeIds("s")
    const same = makeIds("s", "")
    const a = makeIds("s", "a")
    const b = makeIds("s", "~1")
    const firsts = [lone.next("vault"), same.next("vault"), a.next("vault"), b.next("vault")]
    expect(firsts[0]).toBe(plainId("s", "vault:1"))
    expect(firsts[1]).toBe(firsts[0])
    expect(new Set(firsts).size).toBe(3)
    const seen = new Set<string>()
    for (const ids of [makeIds("s"), makeIds("s", "a"), makeIds("s", "b"), makeIds("s", "~1"), makeIds("s", "a.b")])
      for (let i = 0; i < 500; i++) {
        seen.add(ids.next("vaultAccount"))
        seen.add(ids.eventId())
      }
    expect(seen.size).toBe(5 * 1000)
    expect(() => makeIds("s", "a:b")).toThrow(RangeError)
    expect(() => makeIds("s", "a@b")).toThrow(RangeError)
  })

  it("a lone simulator's default workspace keeps the ids it always had", async () => {
    const sim = await start(makeMemoryStore())
    try {
      const vaults = sim.models.workspace.vaultList(undefined).map((v) => v.profile.vaultId)
      expect(vaults.sort()).toEqual([plainId("nodes", "vault:1"), plainId("nodes", "vault:3")].sort())
    } finally {
      await sim.close()
    }
  })
})

describe("two nodes starting together on one empty store", () => {
  it("create one default workspace, whichever wins, and then never collide", async () => {
    for (let round = 0; round < 8; round++) {
      const store = makeMemoryStore()
      const [a, b] = await Promise.all([start(store, round % 2 === 0 ? "a" : undefined), start(store, "b")])
      try {
        const events = await all(store)
        expect(events.filter((e) => e.type === "VaultCreated")).toHaveLength(2)
        expect(events.filter((e) => e.type === "ApiKeyCreated")).toHaveLength(1)
        const vaults = (s: Simulator) =>
          s.models.workspace
            .vaultList(undefined)
            .map((v) => v.profile.vaultId)
            .sort()
        expect(vaults(a)).toEqual([plainId("nodes", "vault:1"), plainId("nodes", "vault:3")].sort())
        expect(vaults(b)).toEqual(vaults(a))
        expect(a.createdCredentials.length + b.createdCredentials.length).toBeGreaterThanOrEqual(1)

        const created = await Promise.all(
          Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? a : b).run(createVault({ name: `v${i}`, type: "test" }))),
        )
        expect(created.every((x) => x._tag === "Success")).toBe(true)
        const after = await all(store)
        expect(new Set(after.map((e) => e.id)).size).toBe(after.length)
        expect(new Set(after.filter((e) => e.type === "VaultCreated").map((e) => e.stream)).size).toBe(22)
      } finally {
        await a.close()
        await b.close()
      }
    }
  })
})

describe("the start-up workspace race, step by step", () => {
  const defaults = {
    vaults: [
      { name: "Test vault", type: "test" as const },
      { name: "Main vault", type: "main" as const },
    ],
    apiKeys: [{ name: "default" }],
  }

  it("on the esdb double (real round trips): both nodes repeat the same appends idempotently and print the same key", async () => {
    for (let round = 0; round < 4; round++) {
      const double = await startEsdbDouble()
      const [a, b] = await Promise.all([
        start(makeEsdbStore(double.connectionString), "a"),
        start(makeEsdbStore(double.connectionString), "b"),
      ])
      try {
        const events = await all(a.store)
        expect(events.filter((e) => e.type === "VaultCreated")).toHaveLength(2)
        expect(events.filter((e) => e.type === "ApiKeyCreated")).toHaveLength(1)
        for (const c of [...a.createdCredentials, ...b.createdCredentials])
          expect(c).toEqual(a.createdCredentials[0] ?? b.createdCredentials[0])
      } finally {
        await a.close()
        await b.close()
        await double.stop()
      }
    }
  })

  it("a node that finds the workspace already there stops at once, writes nothing and reports no credentials", async () => {
    const store = makeMemoryStore()
    const a = await start(store, "a")
    const b = await start(store, "b")
    try {
      const before = (await all(store)).length
      expect(await createStartupWorkspace(b.run, defaults, "nodes", b.ids)).toEqual([])
      expect((await all(store)).length).toBe(before)
    } finally {
      await a.close()
      await b.close()
    }
  })
})

describe("node slots", () => {
  it("give the lowest free slot, distinct under concurrent claims, reused after a release", async () => {
    const store = makeMemoryStore()
    const claims = await Promise.all(Array.from({ length: 5 }, () => Effect.runPromise(claimNodeSlot(store))))
    expect(claims.map((c) => c.slot).sort()).toEqual([0, 1, 2, 3, 4])
    expect(claims.find((c) => c.slot === 0)!.nodeId).toBe("")
    expect(claims.find((c) => c.slot === 3)!.nodeId).toBe("~3")
    await Effect.runPromise(claims.find((c) => c.slot === 1)!.release)
    expect((await Effect.runPromise(claimNodeSlot(store))).slot).toBe(1)
    expect((await Effect.runPromise(claimNodeSlot(store))).slot).toBe(5)
    const registry = await Effect.runPromise(store.readStream(NODE_REGISTRY))
    expect(registry.events.map((e) => e.type)).toContain("NodeSlotReleased")
  })
})
