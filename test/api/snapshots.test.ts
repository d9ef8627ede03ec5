// Snapshots, reverts and reset through the control plane over a real socket: every read back as it was, the
// log cut back, ids and clock continuing as they would have, later snapshots dropped, errors in the plane's shape.
import { request } from "undici"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createApp } from "../../src/api/app.js"
import { CustodyClient } from "../../src/client/index.js"
import { startHarness, type Harness } from "../support/harness.js"
import { runScenario, scenarioFixture } from "../support/scenario.js"
import { listen } from "../support/server.js"
import { worldReads } from "../support/world-reads.js"
import { importText } from "../support/log-file.js"
import { digestOf } from "../../src/api/digest/digest.js"

let h: Harness
let server: { url: string; close: () => Promise<void> }
beforeAll(async () => {
  h = await startHarness({ fixture: scenarioFixture })
  server = await listen(createApp(h.sim, { log: { error: () => {}, info: () => {} } }))
})
afterAll(async () => {
  await server.close()
  await h.close()
})

const call = async (method: "GET" | "POST", path: string, body?: unknown, token = h.sim.adminToken) => {
  const res = await request(server.url + path, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { "content-type": "application/json" } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  })
  const text = await res.body.text()
  return { status: res.statusCode, text, body: parsed(text) }
}
const parsed = (text: string): any => {
  try {
    return JSON.parse(text)
  } catch {
    return undefined // JSON lines (the export): compared as text
  }
}
const reads = () => worldReads(h.sim, (path) => call("GET", path))
const newVault = async (name: string) => {
  const r = await call("POST", "/_sim/vaults", { name, type: "test" })
  expect(r.status).toBe(201)
  return r.body.id as string
}

describe("POST /_sim/snapshots, GET /_sim/snapshots, POST /_sim/snapshots/{id}/revert", () => {
  it("puts back every read, the log, the clock and the id sequence; later snapshots go, earlier ones stay", async () => {
    const start = await call("POST", "/_sim/snapshots")
    expect(start.status).toBe(201)
    expect(start.body).toEqual({
      id: expect.any(String),
      position: Number(h.sim.models.position),
      time: Math.floor(h.sim.clock.now() / 1000),
      timeMs: h.sim.clock.now(),
    })
    const atStart = await reads()

    const ids = await runScenario(h)
    const taken = await call("POST", "/_sim/snapshots")
    const atTaken = await reads()
    const nextVault = await newVault("after the snapshot")

    await call("POST", "/_sim/deposits", {
      blockchain: "ethereum",
      network: "sepolia",
      address: ids.ethAddress,
      assetId: "0x",
      amount: "1",
    })
    await call("POST", "/_sim/chains/ethereum/sepolia/mine", { blocks: 3 })
    await call("POST", "/_sim/clock/advance", { seconds: 3600 })
    const later = await call("POST", "/_sim/snapshots")
    expect(later.body.position).toBeGreaterThan(taken.body.position)
    expect((await call("GET", "/_sim/snapshots")).body.snapshots.map((s: { id: string }) => s.id)).toEqual([
      start.body.id,
      taken.body.id,
      later.body.id,
    ])

    const reverted = await call("POST", `/_sim/snapshots/${taken.body.id}/revert`)
    expect(reverted.status).toBe(200)
    expect(reverted.body).toEqual(taken.body)
    expect(await reads()).toEqual(atTaken)
    expect((await call("GET", "/_sim/snapshots")).body).toEqual({ snapshots: [start.body, taken.body] })
    // The next resource gets the id it got the first time from this world.
    expect(await newVault("after the snapshot")).toBe(nextVault)

    // The same snapshot again (its copy of the models was used up: rebuilt from the log), then the first one.
    expect((await call("POST", `/_sim/snapshots/${taken.body.id}/revert`)).status).toBe(200)
    expect(await reads()).toEqual(atTaken)
    expect((await call("POST", `/_sim/snapshots/${start.body.id}/revert`)).status).toBe(200)
    expect(await reads()).toEqual(atStart)
    expect((await call("GET", "/_sim/snapshots")).body).toEqual({ snapshots: [start.body] })
    const log = await call("GET", "/_sim/events?limit=10000")
    expect(log.body.events.at(-1)?.position ?? -1).toBe(start.body.position)
  })

  it("answers 404 snapshot_not_found for an unknown or dropped snapshot, and 401 without the admin token", async () => {
    const r = await call("POST", "/_sim/snapshots/no-such/revert")
    expect(r.status).toBe(404)
    expect(r.body.error.code).toBe("snapshot_not_found")
    const a = await call("POST", "/_sim/snapshots")
    const b = await call("POST", "/_sim/snapshots")
    await call("POST", `/_sim/snapshots/${a.body.id}/revert`)
    const dropped = await call("POST", `/_sim/snapshots/${b.body.id}/revert`)
    expect(dropped.status).toBe(404)
    expect(dropped.body.error.code).toBe("snapshot_not_found")
    for (const [method, path] of [
      ["POST", "/_sim/snapshots"],
      ["GET", "/_sim/snapshots"],
      ["POST", `/_sim/snapshots/${a.body.id}/revert`],
      ["POST", "/_sim/reset"],
    ] as const) {
      const refused = await call(method, path, undefined, "wrong-token")
      expect(refused.status).toBe(401)
      expect(refused.body.error.code).toBe("unauthorized")
    }
  })

  it("a revert waits for the requests in flight and holds back later ones: no half-applied command, nothing lost", async () => {
    const vault = await newVault("racers")
    const snap = await call("POST", "/_sim/snapshots")
    const before = await reads()
    const client = new CustodyClient({ baseUrl: server.url, credentials: h.creds })
    const writes = Array.from({ length: 20 }, (_, i) =>
      client.call("POST", `/vaults/${vault}/vault-account`, { item: { name: `racer ${i}`, color: "#123456", isHiddenInDashboard: false } }),
    )
    const revert = call("POST", `/_sim/snapshots/${snap.body.id}/revert`)
    const answers = await Promise.all(writes)
    expect((await revert).status).toBe(200)
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 201))
    // The read models are exactly the fold of the log left behind: a fresh simulator replaying it agrees.
    const exported = await call("GET", "/_sim/export")
    const replayed = await startHarness({ sim: { defaultWorkspace: false } })
    try {
      expect((await importText(replayed, exported.text)).status).toBe(200)
      expect(await digestOf(h.sim, undefined)).toBe(await digestOf(replayed.sim, undefined))
    } finally {
      await replayed.close()
    }
    expect(await call("POST", `/_sim/snapshots/${snap.body.id}/revert`)).toMatchObject({ status: 200 })
    expect(await reads()).toEqual(before)
  })
})

describe("POST /_sim/reset", () => {
  it("returns to the world right after start-up: the fixture's key still signs, the log is the start-up log", async () => {
    const fresh = await startHarness({ fixture: scenarioFixture })
    const freshServer = await listen(createApp(fresh.sim, { log: { error: () => {}, info: () => {} } }))
    try {
      const atStart = await worldReads(fresh.sim, async (path) => {
        const res = await request(freshServer.url + path, { headers: { authorization: `Bearer ${fresh.sim.adminToken}` } })
        return { status: res.statusCode, text: await res.body.text() }
      })
      await runScenario(h)
      await call("POST", "/_sim/snapshots")
      const r = await call("POST", "/_sim/reset")
      expect(r.status).toBe(200)
      expect(r.body).toEqual({
        position: Number(fresh.sim.models.position),
        time: Math.floor(fresh.sim.clock.now() / 1000),
        timeMs: fresh.sim.clock.now(),
      })
      expect((await call("GET", "/_sim/snapshots")).body).toEqual({ snapshots: [] })
      // Same seed, same fixture: the reset world reads exactly as a simulator just started.
      expect(await reads()).toEqual(atStart)
      expect((await new CustodyClient({ baseUrl: server.url, credentials: h.creds }).listVaults()).status).toBe(200)
    } finally {
      await freshServer.close()
      await fresh.close()
    }
  })
})
