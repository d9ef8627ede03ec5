// A world from a seeded fixture gives what a lone server started with that fixture gives (ids, addresses, event
// log, audit digest); two worlds from one seed give the same; a fork starts equal to its source and diverges.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { assetId } from "../support/catalogue.js"
import { digestOf, runFlow, type WorldHandle } from "../support/worlds-flow.js"
import { newWorld, serverHandle, startWorldsServer, type WorldsServer } from "../support/worlds-server.js"

const fixture = {
  seed: "determinism",
  vaults: [
    { name: "Test vault", type: "test" as const },
    { name: "Main vault", type: "main" as const },
  ],
  apiKeys: [{ name: "ci", apiVersion: "2024-05-09" }],
}

/** The log as the world wrote it, credentials aside (each world draws its own; a key's stream is named by it). */
const log = async (w: WorldHandle) =>
  (await w.admin("GET", "/_sim/events?limit=1000")).body.events.map((e: { type: string; data: unknown }) =>
    e.type === "ApiKeyCreated" ? { ...e, stream: "apiKey-(key)", data: "(credentials)" } : e,
  )

const deposit = (w: WorldHandle, address: string, amount: string) =>
  w.admin("POST", "/_sim/deposits", {
    blockchain: "ethereum",
    network: "sepolia",
    address,
    assetId: assetId("ethereum", "sepolia", "ETH"),
    amount,
  })

describe("worlds and determinism", () => {
  let lone: WorldsServer
  let s: WorldsServer
  beforeAll(async () => {
    lone = await startWorldsServer({ fixture })
    s = await startWorldsServer()
  })
  afterAll(async () => {
    await lone.close()
    await s.close()
  })

  it("a world from a seeded fixture gives the ids, event log and digest of a lone server with that fixture", async () => {
    const alone = await runFlow(serverHandle(lone))
    const world = await newWorld(s, { fixture })
    expect(world.created.vaults.map((v) => v.id)).toEqual(lone.sim.models.workspace.vaultList(undefined).map((v) => v.profile.vaultId))
    const inWorld = await runFlow(world)
    expect(inWorld).toEqual(alone)
    expect(await log(world)).toEqual(await log(serverHandle(lone)))
  })

  it("two worlds from one seed give the same ids in the same order", async () => {
    const one = await newWorld(s, { fixture })
    const two = await newWorld(s, { fixture })
    const first = await runFlow(one)
    expect(await runFlow(two)).toEqual(first)
  })

  it("a fork starts with its source's digest and diverges; the source stays as it was", async () => {
    const source = await newWorld(s, { fixture })
    const { address } = await runFlow(source)
    const sourceDigest = await digestOf(source)
    const fork = await newWorld(s, { from: { world: source.created.id } })
    expect(fork.created.vaults).toEqual(source.created.vaults)
    expect(fork.key.key).not.toBe(source.key.key)
    expect(await digestOf(fork)).toBe(sourceDigest)
    expect((await deposit(fork, address, "2")).status).toBe(201)
    expect(await digestOf(fork)).not.toBe(sourceDigest)
    expect(await digestOf(source)).toBe(sourceDigest)
    // The source's key still answers for the source, the fork's for the fork.
    expect((await source.signed("GET", `/vaults/${source.testVaultId}/assets`)).body).not.toEqual(
      (await fork.signed("GET", `/vaults/${fork.testVaultId}/assets`)).body,
    )
  })

  it("a fork at a snapshot starts as the source was then", async () => {
    const source = await newWorld(s, { fixture })
    const { address } = await runFlow(source)
    const snap = (await source.admin("POST", "/_sim/snapshots")).body
    const then = await digestOf(source)
    await deposit(source, address, "3")
    expect(await digestOf(source)).not.toBe(then)
    const fork = await newWorld(s, { from: { world: source.created.id, snapshot: snap.id } })
    expect(await digestOf(fork)).toBe(then)
    const missing = await s.admin(s.sim.adminToken, "POST", "/_sim/worlds", { from: { world: source.created.id, snapshot: "nope" } })
    expect(missing.status).toBe(404)
    expect(missing.body.error.code).toBe("snapshot_not_found")
  })
})
