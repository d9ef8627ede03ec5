// custody-sim/testing's sim.world(fixture?): more worlds in one in-process simulator, each with a client signing
// with its own key, its own control plane and snapshots, isolated from the simulator's world and from each other,
// and ended by close() (its key then answers 401).
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type InProcess, startInProcess } from "../../src/testing.js"

const fixture = {
  seed: "sim-world",
  vaults: [{ name: "Only vault", type: "test" as const }],
  apiKeys: [{ name: "ci", apiVersion: "2024-05-09" }],
}

const vaultNames = async (client: ReturnType<InProcess["client"]>) => {
  const r = await client.call<{ items: Array<{ name: string }> }>("GET", "/vaults")
  return r.body.data.items.map((v) => v.name)
}

describe("sim.world()", () => {
  let sim: InProcess
  beforeAll(async () => {
    sim = await startInProcess({ seed: "worlds-test" })
  })
  afterAll(() => sim.close())

  it("without a fixture: the simulator's vault ids with fresh credentials, and its own writes", async () => {
    const w = await sim.world()
    expect([w.testVaultId, w.mainVaultId]).toEqual([sim.testVaultId, sim.mainVaultId])
    expect(w.credentials?.key).not.toBe(sim.credentials?.key)
    expect(w.adminToken).not.toBe(sim.sim.adminToken)
    expect((await w.admin("POST", "/_sim/vaults", { name: "only in w", type: "test" })).status).toBe(201)
    expect(await vaultNames(w.client())).toContain("only in w")
    expect(await vaultNames(sim.client())).not.toContain("only in w")
    // The simulator's admin token lists it; GET /_sim/worlds/{id} gives its credentials.
    const listed = await sim.admin("GET", "/_sim/worlds")
    expect(listed.body.worlds.map((x: { id: string }) => x.id)).toContain(w.id)
    const details = await sim.admin("GET", `/_sim/worlds/${w.id}`)
    expect([details.body.adminToken, details.body.apiKeys]).toEqual([w.adminToken, w.apiKeys])
    await w.close()
    expect((await w.client().call("GET", "/vaults")).status).toBe(401)
    expect((await sim.admin("GET", `/_sim/worlds/${w.id}`)).body.error.code).toBe("world_not_found")
  })

  it("from a fixture: its vaults, keys and clock; snapshots and faults its own", async () => {
    const a = await sim.world(fixture)
    const b = await sim.world(fixture)
    expect(a.testVaultId).toBe(b.testVaultId)
    expect(a.mainVaultId).toBe("")
    expect(a.apiKeys.map((k) => k.apiVersion)).toEqual(["2024-05-09"])
    expect(await vaultNames(a.client())).toEqual(["Only vault"])
    const snap = await a.snapshot()
    await a.admin("POST", "/_sim/vaults", { name: "after the snapshot", type: "test" })
    expect((await a.admin("POST", "/_sim/clock/advance", { seconds: 60 })).status).toBe(200)
    expect((await a.admin("GET", "/_sim/clock")).body.nowMs).toBe((await b.admin("GET", "/_sim/clock")).body.nowMs + 60_000)
    await a.faults.add({ match: { method: "GET", path: "/vaults" }, effect: { kind: "status", status: 503 }, times: 1 })
    expect((await a.client().call("GET", "/vaults")).status).toBe(503)
    expect((await b.client().call("GET", "/vaults")).status).toBe(200)
    await a.revert(snap.id)
    expect(await vaultNames(a.client())).toEqual(["Only vault"])
    await a.webhooksIdle()
    await a.close()
    await a.close()
    expect(await vaultNames(b.client())).toEqual(["Only vault"])
  })

  it("a fixture holding another world's admin token is refused, naming why", async () => {
    const a = await sim.world({ ...fixture, adminToken: "taken-token" })
    await expect(sim.world({ ...fixture, adminToken: "taken-token" })).rejects.toThrow(/409 .*world_credentials_taken/)
    await a.close()
  })
})
