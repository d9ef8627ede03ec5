// Worlds on `serve --store sqlite` (docs/worlds.md, "Stores"): each its own log under <data-dir>/worlds/, reopened
// by the next start with its credentials, after a clean stop or SIGKILL, with every acknowledged write; a deleted
// world's files go with it, and a world.json that cannot be read fails the start, naming it.
import { existsSync, readdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import type { Credentials } from "../../src/client/signing.js"
import { assetId } from "../support/catalogue.js"
import { startSimProcess, type SimProcess } from "../support/sim-process.js"
import { tempDir } from "../support/temp-dir.js"
import { digestOf, runFlow, type WorldHandle } from "../support/worlds-flow.js"

const FROZEN_AT = String(Date.UTC(2026, 0, 1) / 1000)
const fixture = {
  seed: "sqlite-worlds",
  vaults: [
    { name: "Test vault", type: "test" },
    { name: "Main vault", type: "main" },
  ],
  apiKeys: [{ name: "ci", apiVersion: "2024-05-09", rateLimit: { perSecond: 1_000_000, burst: 1_000_000 } }],
}

let sim: SimProcess | undefined
afterEach(async () => {
  await sim?.stop()
  sim = undefined
})

const serve = async (dir: string) => {
  sim = await startSimProcess(["--store", "sqlite", "--data-dir", dir, "--frozen-at", FROZEN_AT])
  return sim
}

interface Created {
  readonly id: string
  readonly adminToken: string
  readonly apiKeys: ReadonlyArray<Credentials>
  readonly vaults: ReadonlyArray<{ readonly id: string; readonly type: string }>
}

/** A world's way in on the server `s` (its admin token, its first key): the same credentials on a restarted server. */
const handle = (s: SimProcess, w: Created): WorldHandle => ({
  adminToken: w.adminToken,
  key: w.apiKeys[0]!,
  testVaultId: w.vaults.find((v) => v.type === "test")!.id,
  admin: (method, path, body) => s.admin(method, path, body, { authorization: `Bearer ${w.adminToken}` }),
  signed: (method, path, item) => s.call(w.apiKeys[0]!, method as "GET", path, item),
})

const create = async (s: SimProcess, body: unknown): Promise<Created> => {
  const r = await s.admin("POST", "/_sim/worlds", body)
  expect(r.status, JSON.stringify(r.body)).toBe(201)
  return r.body as Created
}

const ETH = assetId("ethereum", "sepolia", "ETH")

/** `count` deposits to one new address of the world, sent at once; resolves when every one is acknowledged (201). */
const deposits = async (w: WorldHandle, count: number) => {
  await w.admin("PUT", "/_sim/chains/ethereum/sepolia/mining", { mode: "auto", confirmations: 1 })
  const derived = await w.signed("POST", `/vaults/${w.testVaultId}/ethereum/sepolia/addresses`, { label: "burst" })
  expect(derived.status, JSON.stringify(derived.body)).toBe(201)
  const address = derived.body.data.item.address as string
  const answers = await Promise.all(
    Array.from({ length: count }, () =>
      w.admin("POST", "/_sim/deposits", { blockchain: "ethereum", network: "sepolia", address, assetId: ETH, amount: "0.01" }),
    ),
  )
  expect(answers.map((a) => a.status)).toEqual(Array.from({ length: count }, () => 201))
  return address
}

const ethHeld = async (w: WorldHandle) => {
  const held = await w.signed("GET", `/vaults/${w.testVaultId}/assets`)
  expect(held.status).toBe(200)
  return held.body.data.item.assets.find((a: { symbol: string }) => a.symbol === "ETH")?.assetData.totalAmount as string
}

const listed = async (s: SimProcess) =>
  ((await s.admin("GET", "/_sim/worlds")).body.worlds as ReadonlyArray<{ id: string; logHead: number; keys: ReadonlyArray<string> }>)
    .filter((w) => w.id !== "server")
    .map(({ id, logHead, keys }) => ({ id, logHead, keys }))
    .sort((a, b) => (a.id < b.id ? -1 : 1))

describe("worlds on a SQLite server", () => {
  it("survive SIGKILL and a clean stop: the same worlds, keys and admin tokens, every acknowledged write", async () => {
    const dir = tempDir("worlds-sqlite-")
    let s = await serve(dir)
    const a = await create(s, { fixture })
    const b = await create(s, { fixture })
    const gone = await create(s, {})
    const flow = await runFlow(handle(s, a))
    const c = await create(s, { from: { world: a.id } })
    expect(await digestOf(handle(s, c))).toBe(flow.digest)
    expect((await s.admin("DELETE", `/_sim/worlds/${gone.id}`)).status).toBe(200)
    expect(existsSync(join(dir, "worlds", gone.id))).toBe(false)
    // The last writes before the kill: twenty deposits at once, each acknowledged.
    await deposits(handle(s, b), 20)
    const before = { worlds: await listed(s), a: await ethHeld(handle(s, a)), b: await ethHeld(handle(s, b)) }
    expect(before.b).toBe("0.2")
    await s.kill()

    s = await serve(dir)
    expect(s.output()).toContain(`worlds: 3 reopened from ${join(dir, "worlds")}`)
    expect(await listed(s)).toEqual(before.worlds)
    expect(await digestOf(handle(s, a))).toBe(flow.digest)
    expect(await digestOf(handle(s, c))).toBe(flow.digest)
    expect(await ethHeld(handle(s, a))).toBe(before.a)
    expect(await ethHeld(handle(s, b))).toBe("0.2")
    // GET /_sim/worlds/{id} (custody-sim call --world) still gives the credentials each creation answered.
    for (const w of [a, c]) {
      const details = await s.admin("GET", `/_sim/worlds/${w.id}`)
      expect(details.status).toBe(200)
      expect(details.body).toMatchObject({ id: w.id, adminToken: w.adminToken, apiKeys: w.apiKeys })
    }
    // The deleted world stays deleted: its key and its admin token answer 401.
    expect((await s.call(gone.apiKeys[0]!, "GET", "/vaults")).status).toBe(401)
    expect((await s.admin("GET", "/_sim/clock", undefined, { authorization: `Bearer ${gone.adminToken}` })).status).toBe(401)
    // The reopened worlds take writes, and a new world gets an id of its own.
    await deposits(handle(s, b), 1)
    const d = await create(s, { fixture })
    expect([a.id, b.id, c.id, gone.id]).not.toContain(d.id)
    await s.stop()

    s = await serve(dir)
    expect(await ethHeld(handle(s, b))).toBe("0.21")
    expect((await listed(s)).map((w) => w.id)).toEqual([a.id, b.id, c.id, d.id].sort())
    expect(
      readdirSync(join(dir, "worlds"))
        .filter((n) => n.startsWith("w"))
        .sort(),
    ).toEqual([a.id, b.id, c.id, d.id].sort())
  }, 300_000)

  it("refuses to start on a world.json it cannot read, naming the world", async () => {
    const dir = tempDir("worlds-sqlite-bad-")
    const s = await serve(dir)
    const a = await create(s, {})
    await s.stop()
    sim = undefined
    writeFileSync(join(dir, "worlds", a.id, "world.json"), "{ not json")
    await expect(serve(dir)).rejects.toThrow(
      new RegExp(`cannot reopen the worlds of ${dir}: .*${a.id}.*world\\.json.*move the world's directory aside`),
    )
  }, 300_000)
})
