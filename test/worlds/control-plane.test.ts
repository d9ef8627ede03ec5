// /_sim/worlds over a real socket: creating, listing and deleting worlds, who may, and what is refused.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startWorldsServer, type WorldsServer } from "../support/worlds-server.js"

const fixture = {
  seed: "worlds-fixture",
  vaults: [
    { name: "Test vault", type: "test" as const },
    { name: "Main vault", type: "main" as const },
  ],
  apiKeys: [{ name: "ci", apiVersion: "2026-03-20" }],
}

describe("/_sim/worlds", () => {
  let s: WorldsServer
  beforeAll(async () => {
    s = await startWorldsServer({ worlds: { maxWorlds: 3 } })
  })
  afterAll(() => s.close())

  it("creates a world from a fixture: its id, admin token, keys and vaults, and its keys answer for it", async () => {
    const created = await s.admin(s.sim.adminToken, "POST", "/_sim/worlds", { fixture })
    expect(created.status).toBe(201)
    const w = created.body
    expect(w.id).toMatch(/^w[0-9a-f]{12}$/)
    expect(w.adminToken).not.toBe(s.sim.adminToken)
    expect(w.apiKeys).toHaveLength(1)
    expect(w.apiKeys[0]).toEqual({
      key: expect.any(String),
      secret: expect.any(String),
      passphrase: expect.any(String),
      apiVersion: "2026-03-20",
    })
    expect(w.vaults.map((v: { name: string; type: string }) => [v.name, v.type])).toEqual([
      ["Test vault", "test"],
      ["Main vault", "main"],
    ])
    const vaults = await s.signed(w.apiKeys[0], "GET", "/vaults")
    expect(vaults.status).toBe(200)
    expect(vaults.body.data.items.map((v: { id: string }) => v.id).sort()).toEqual(w.vaults.map((v: { id: string }) => v.id).sort())
    const listed = await s.admin(s.sim.adminToken, "GET", "/_sim/worlds")
    expect(listed.status).toBe(200)
    const entry = listed.body.worlds.find((x: { id: string }) => x.id === w.id)
    expect(entry).toMatchObject({ id: w.id, server: false, keys: [w.apiKeys[0].key] })
    expect(entry.logHead).toBeGreaterThanOrEqual(0)
    expect(listed.body.worlds.find((x: { server: boolean }) => x.server).id).toBe("server")
  })

  it("without a fixture, a world is the server's workspace with fresh credentials", async () => {
    const w = (await s.admin(s.sim.adminToken, "POST", "/_sim/worlds", {})).body
    const own = s.sim.models.workspace.vaultList(undefined).map((v) => [v.profile.vaultId, v.profile.name])
    expect(w.vaults.map((v: { id: string; name: string }) => [v.id, v.name])).toEqual(own)
    expect(w.apiKeys[0].key).not.toBe(s.sim.createdCredentials[0]!.key)
    expect((await s.signed(w.apiKeys[0], "GET", "/vaults")).status).toBe(200)
    const deleted = await s.admin(s.sim.adminToken, "DELETE", `/_sim/worlds/${w.id}`)
    expect(deleted).toEqual({ status: 200, body: { id: w.id, deleted: true } })
    const after = await s.signed(w.apiKeys[0], "GET", "/vaults")
    expect(after.status).toBe(401)
    expect((await s.admin(w.adminToken, "GET", "/_sim/clock")).status).toBe(401)
    expect((await s.admin(s.sim.adminToken, "DELETE", `/_sim/worlds/${w.id}`)).body.error.code).toBe("world_not_found")
  })

  it("takes the server's admin token only", async () => {
    const w = (await s.admin(s.sim.adminToken, "POST", "/_sim/worlds", {})).body
    const byWorld = await s.admin(w.adminToken, "POST", "/_sim/worlds", {})
    expect(byWorld.status).toBe(403)
    expect(byWorld.body.error.code).toBe("server_admin_token_required")
    expect((await s.admin("not-a-token", "GET", "/_sim/worlds")).status).toBe(401)
    expect((await s.admin(s.sim.adminToken, "DELETE", "/_sim/worlds/server")).body.error.code).toBe("world_not_deletable")
    await s.admin(s.sim.adminToken, "DELETE", `/_sim/worlds/${w.id}`)
  })

  it("refuses a fixture whose admin token or key another world holds (409), and a bad body (400)", async () => {
    const held = await s.admin(s.sim.adminToken, "POST", "/_sim/worlds", { fixture: { adminToken: s.sim.adminToken } })
    expect(held.status).toBe(409)
    expect(held.body.error.code).toBe("world_credentials_taken")
    const key = s.sim.createdCredentials[0]!
    const keyHeld = await s.admin(s.sim.adminToken, "POST", "/_sim/worlds", { fixture: { apiKeys: [{ key: key.key }] } })
    expect(keyHeld.status).toBe(409)
    expect(keyHeld.body.error.code).toBe("world_credentials_taken")
    const bad = await s.admin(s.sim.adminToken, "POST", "/_sim/worlds", { fixture: { vaults: "none" } })
    expect(bad.status).toBe(400)
    expect(bad.body.error.code).toBe("invalid_world")
    expect((await s.admin(s.sim.adminToken, "POST", "/_sim/worlds", { colour: "red" })).status).toBe(400)
    expect((await s.admin(s.sim.adminToken, "POST", "/_sim/worlds", { from: { world: "w000000000000" } })).body.error.code).toBe(
      "world_not_found",
    )
  })

  it("stops at --max-worlds with world_limit_reached", async () => {
    const before = s.worlds.size()
    const made: Array<string> = []
    for (let i = before; i < 3; i++) made.push((await s.admin(s.sim.adminToken, "POST", "/_sim/worlds", {})).body.id)
    const past = await s.admin(s.sim.adminToken, "POST", "/_sim/worlds", {})
    expect(past.status).toBe(409)
    expect(past.body.error.code).toBe("world_limit_reached")
    for (const id of made) await s.admin(s.sim.adminToken, "DELETE", `/_sim/worlds/${id}`)
    expect((await s.admin(s.sim.adminToken, "POST", "/_sim/worlds", {})).status).toBe(201)
  })
})

describe("idle worlds and stores without worlds", () => {
  it("deletes a world idle past its TTL, and keeps one in use", async () => {
    let now = 1_000_000
    const s = await startWorldsServer({ worlds: { ttlMs: 60_000, wallNow: () => now } })
    try {
      const idle = (await s.admin(s.sim.adminToken, "POST", "/_sim/worlds", {})).body
      const busy = (await s.admin(s.sim.adminToken, "POST", "/_sim/worlds", {})).body
      now += 40_000
      expect((await s.signed(busy.apiKeys[0], "GET", "/vaults")).status).toBe(200)
      now += 40_000
      await s.worlds.expireIdle()
      expect((await s.signed(idle.apiKeys[0], "GET", "/vaults")).status).toBe(401)
      expect((await s.signed(busy.apiKeys[0], "GET", "/vaults")).status).toBe(200)
    } finally {
      await s.close()
    }
  })

  it("answers 501 worlds_not_supported on a store that cannot hold them", async () => {
    const s = await startWorldsServer({ worlds: { unsupported: "Worlds need serve --store memory." } })
    try {
      const r = await s.admin(s.sim.adminToken, "POST", "/_sim/worlds", {})
      expect(r).toEqual({ status: 501, body: { error: { code: "worlds_not_supported", message: "Worlds need serve --store memory." } } })
    } finally {
      await s.close()
    }
  })
})

describe("the request log", () => {
  it("names the world that answered, and no world for the server's own", async () => {
    const lines: Array<string> = []
    const s = await startWorldsServer({ log: { format: "text", write: (chunk) => lines.push(chunk) } })
    try {
      const w = (await s.admin(s.sim.adminToken, "POST", "/_sim/worlds", {})).body
      expect((await s.signed(w.apiKeys[0], "GET", "/vaults")).status).toBe(200)
      expect((await s.signed(s.sim.createdCredentials[0]!, "GET", "/vaults")).status).toBe(200)
      await expect
        .poll(
          () =>
            lines
              .join("")
              .split("\n")
              .filter((l) => l.includes("GET /vaults 200")).length,
        )
        .toBe(2)
      const [inWorld, inServer] = lines
        .join("")
        .split("\n")
        .filter((l) => l.includes("GET /vaults 200"))
      expect(inWorld).toContain(` key=${w.apiKeys[0].key} world=${w.id} `)
      expect(inServer).not.toContain("world=")
    } finally {
      await s.close()
    }
  })
})
