// Worlds kept in files (src/worlds/saved.ts, src/adapters/world-files.ts), in process over HTTP: a fork reads its
// source's own asset ids, both still do once reopened, and a world directory without world.json (a creation never
// answered) is removed by the next start.
import { existsSync, mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterEach, expect, it } from "vitest"
import { openWorldFiles } from "../../src/adapters/world-files.js"
import { filedWorlds } from "../../src/worlds/saved.js"
import { tempDir } from "../support/temp-dir.js"
import { newWorld, startWorldsServer, type WorldsServer } from "../support/worlds-server.js"

const ALIAS = "ETH_SEPOLIA_OF_THE_SUITE"
const fixture = {
  seed: "saved-worlds",
  vaults: [{ name: "Test vault", type: "test" as const }],
  apiKeys: [{ name: "ci", apiVersion: "2024-05-09" }],
  assets: [{ assetId: ALIAS, blockchain: "ethereum", network: "sepolia", symbol: "ETH" }],
}

let server: WorldsServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

const filed = async (dir: string) => {
  server = await startWorldsServer({ worlds: { storage: filedWorlds(openWorldFiles(dir)) } })
  return server
}

type Handle = Awaited<ReturnType<typeof newWorld>>

const ethId = async (w: Pick<Handle, "signed">) => {
  const r = await w.signed("GET", "/supported-assets?blockchain=ethereum&networkType=test")
  expect(r.status).toBe(200)
  return r.body.data.items.find((a: { symbol: string; network: string }) => a.symbol === "ETH" && a.network === "sepolia").id as string
}

it("a fork reads its source's asset ids, both reopened do, and a world never answered is removed", async () => {
  const dir = tempDir("saved-worlds-")
  let s = await filed(dir)
  const a = await newWorld(s, { fixture })
  const b = await newWorld(s, { from: { world: a.created.id } })
  expect(await ethId(a)).toBe(ALIAS)
  expect(await ethId(b)).toBe(ALIAS)
  // What a start killed mid-creation leaves: a log, no world.json.
  mkdirSync(join(dir, "wstray"))
  writeFileSync(join(dir, "wstray", "events.sqlite"), "")
  await s.close()

  s = await filed(dir)
  expect(await s.worlds.restore()).toBe(2)
  expect(existsSync(join(dir, "wstray"))).toBe(false)
  const listed = (await s.admin(s.sim.adminToken, "GET", "/_sim/worlds")).body.worlds.map((w: { id: string }) => w.id)
  expect(listed[0]).toBe("server")
  expect(listed.slice(1).sort()).toEqual([a.created.id, b.created.id].sort())
  for (const w of [a, b]) expect(await ethId({ signed: (m, p, i) => s.signed(w.key, m, p, i) })).toBe(ALIAS)
})
