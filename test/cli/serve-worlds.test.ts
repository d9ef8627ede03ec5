// `custody-sim serve` and its worlds (docs/worlds.md): --max-worlds bounds them, the request log names the world,
// an EventStoreDB server refuses them with 501, and a bad --max-worlds or --world-ttl is a usage error (exit status 2).
import { execFile } from "node:child_process"
import { join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { afterEach, describe, expect, it } from "vitest"
import { startSimProcess, type SimProcess } from "../support/sim-process.js"
import { ESDB_WORLDS_UNSUPPORTED } from "../../src/cli/serve.js"
import { startEsdbDouble } from "../support/esdb-double/index.js"

const ROOT = fileURLToPath(new URL("../..", import.meta.url))
const TSX = pathToFileURL(join(ROOT, "node_modules/tsx/dist/loader.mjs")).href

let sim: SimProcess | undefined
afterEach(async () => {
  await sim?.stop()
  sim = undefined
})

const usage = (flags: ReadonlyArray<string>) =>
  new Promise<{ code: number; stderr: string }>((resolve) =>
    execFile(
      process.execPath,
      ["--import", TSX, join(ROOT, "src/cli.ts"), "serve", "--store", "memory", "--port", "0", ...flags],
      { cwd: ROOT, env: { ...process.env, NODE_OPTIONS: "" } },
      (error, _stdout, stderr) => resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, stderr }),
    ),
  )

describe("serve and worlds", () => {
  it("creates worlds up to --max-worlds on a memory store, and logs each request with its world", async () => {
    sim = await startSimProcess(["--store", "memory", "--max-worlds", "1"])
    const created = await sim.admin("POST", "/_sim/worlds", {})
    expect(created.status).toBe(201)
    const past = await sim.admin("POST", "/_sim/worlds", {})
    expect([past.status, past.body.error.code]).toEqual([409, "world_limit_reached"])
    const key = created.body.apiKeys[0]
    expect((await sim.call(key, "GET", "/vaults")).status).toBe(200)
    await expect.poll(() => sim!.output().includes(`key=${key.key} world=${created.body.id}`), { timeout: 10_000 }).toBe(true)
  }, 120_000)

  it("refuses worlds on an EventStoreDB store with 501 worlds_not_supported, saying which stores hold them", async () => {
    const double = await startEsdbDouble()
    try {
      sim = await startSimProcess([
        "--store",
        "esdb",
        "--esdb",
        `${double.connectionString}&defaultDeadline=3000`,
        "--seed",
        "serve-worlds",
      ])
      const r = await sim.admin("POST", "/_sim/worlds", {})
      expect(r).toMatchObject({ status: 501, body: { error: { code: "worlds_not_supported", message: ESDB_WORLDS_UNSUPPORTED } } })
      expect(r.body.error.message).toMatch(/--store sqlite .*or --store memory/)
    } finally {
      await sim?.stop()
      sim = undefined
      await double.stop()
    }
  }, 120_000)

  it("refuses a bad --max-worlds or --world-ttl with one usage line, exit status 2", async () => {
    const max = await usage(["--max-worlds", "many"])
    expect(max.code).toBe(2)
    expect(max.stderr).toMatch(/^error: --max-worlds must be a number of worlds, not many/)
    const ttl = await usage(["--world-ttl", "0"])
    expect(ttl.code).toBe(2)
    expect(ttl.stderr).toMatch(/^error: --world-ttl must be seconds \(1 or more\), not 0/)
  }, 120_000)
})
