// Consistency tokens in process: x-sim-position on every answer, x-sim-min-position for read-your-writes across nodes.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createApp } from "../../src/api/app.js"
import { MIN_POSITION_WAIT_MS } from "../../src/api/consistency.js"
import { signRequest } from "../../src/client/index.js"
import { createSimulator, type Simulator } from "../../src/simulator.js"
import { BASE, startHarness, T0, type Harness } from "../support/harness.js"

let a: Harness
let b: Simulator
let appB: ReturnType<typeof createApp>
beforeAll(async () => {
  a = await startHarness({ sim: { nodeId: "a" } })
  // A second node on A's store that does not follow it: its models move only when a request makes them.
  b = await createSimulator({ store: a.sim.store, seed: "harness", clock: { frozenAt: T0 }, nodeId: "b", webhooks: false })
  appB = createApp(b, { clientIp: () => "127.0.0.1", log: { error: () => {}, info: () => {} } })
})
afterAll(async () => {
  await b.close()
  await a.close()
})

const getVaults = async (headers: Record<string, string> = {}) => {
  const res = await appB.request(BASE + "/vaults", {
    method: "GET",
    headers: { ...signRequest(a.creds, { method: "GET", url: "/vaults", body: "" }), ...headers },
  })
  return { status: res.status, headers: res.headers, body: (await res.json()) as any }
}

describe("x-sim-position", () => {
  it("is on every answer, and a write's covers the events it wrote", async () => {
    const health = await a.app.request(BASE + "/_sim/health")
    expect(health.headers.get("x-sim-position")).toBe(String(a.sim.models.position))
    const created = await a.app.request(BASE + "/_sim/vaults", {
      method: "POST",
      headers: { authorization: `Bearer ${a.sim.adminToken}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "token", type: "test" }),
    })
    expect(created.status).toBe(201)
    const token = BigInt(created.headers.get("x-sim-position")!)
    const written = a.sim.models.timeline.head
    expect(token).toBeGreaterThanOrEqual(written)
    const failed = await a.raw({ method: "GET", url: "/vaults/nope" })
    expect(failed.status).toBe(400)
    expect(failed.headers.get("x-sim-position")).toBe(String(a.sim.models.position))
  })
})

describe("x-sim-min-position", () => {
  it("makes a node that has not seen another node's write catch up before answering", async () => {
    const created = await a.admin<{ id: string }>("POST", "/_sim/vaults", { name: "elsewhere", type: "main" })
    const token = a.sim.models.position
    const stale = await getVaults()
    expect(stale.body.data.items.map((v: { id: string }) => v.id)).not.toContain(created.body.id)
    expect(BigInt(stale.headers.get("x-sim-position")!)).toBeLessThan(token)

    const fresh = await getVaults({ "x-sim-min-position": String(token) })
    expect(fresh.status).toBe(200)
    expect(fresh.body.data.items.map((v: { id: string }) => v.id)).toContain(created.body.id)
    expect(BigInt(fresh.headers.get("x-sim-position")!)).toBeGreaterThanOrEqual(token)
  })

  it("answers 503 service_unavailable in each surface's error shape when the position is not reached in time", async () => {
    const beyond = String(a.sim.models.position + 1_000_000n)
    const started = performance.now()
    const spec = await getVaults({ "x-sim-min-position": beyond })
    const waited = performance.now() - started
    expect(waited).toBeGreaterThanOrEqual(MIN_POSITION_WAIT_MS - 50)
    expect(waited).toBeLessThan(MIN_POSITION_WAIT_MS + 1_500)
    expect(spec.status).toBe(503)
    expect(spec.headers.get("retry-after")).toBe("1")
    expect(spec.body).toMatchObject({
      apiVersion: expect.any(String),
      requestId: expect.any(String),
      error: { code: "service_unavailable", details: [] },
    })
    const sim = await appB.request(BASE + "/_sim/health", { headers: { "x-sim-min-position": beyond } })
    expect(sim.status).toBe(503)
    expect(await sim.json()).toMatchObject({ error: { code: "service_unavailable" } })
  })

  it("refuses a malformed token with 400 invalid_data naming the header", async () => {
    for (const bad of ["-1", "abc", "1.5", "0x10", "123456789012345678901"]) {
      const r = await getVaults({ "x-sim-min-position": bad })
      expect([r.status, r.body.error.code, r.body.error.details[0].attribute]).toEqual([400, "invalid_data", "x-sim-min-position"])
    }
  })
})
