// What `serve` says at start and at a stop, as a user sees it from a real child process: the key's API version
// (the newest on a new data dir, the recorded one on an old one) and how to pin another, a hint that runs as
// printed, `npm start --port N` explained, and what a Ctrl-C saved and where.
import { execFile } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { createSimulator } from "../../src/simulator.js"
import { makeSqliteStore } from "../../src/store/sqlite.js"
import { LEGACY_SEED } from "../../src/workspace/seed.js"
import { writeCredentialsFile } from "../../src/workspace/credentials-file.js"
import { CLI } from "../support/cli-command.js"
import { startSimProcess, type SimProcess } from "../support/sim-process.js"

const ROOT = fileURLToPath(new URL("../..", import.meta.url))

const run = (command: string, env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> =>
  new Promise((resolve) =>
    execFile(
      "bash",
      ["-c", command],
      { cwd: ROOT, env: { ...process.env, NODE_OPTIONS: "", ...env }, timeout: 120_000 },
      (error, stdout, stderr) => resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, stdout, stderr }),
    ),
  )
const COMMAND = `node ${CLI.join(" ")}`

let dir = ""
let sim: SimProcess | undefined
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "custody-serve-start-"))
})
afterEach(async () => {
  await sim?.stop()
  sim = undefined
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe("serve's start-up lines", () => {
  it("a new data dir: the key at 2026-03-20, how to pin another, and a hint that runs as printed", async () => {
    const data = join(dir, "fresh")
    sim = await startSimProcess(["--data-dir", data])
    const out = sim.output()
    expect(out).toContain("api version: 2026-03-20\n")
    expect(out).toContain(
      `(a key keeps its version; another: a fixture key's "apiVersion" on a new data dir, or x-api-version on a request, npx custody-sim call --api-version)\n`,
    )
    expect(out).toContain(`credentials saved to ${join(data, "credentials.json")} (npx custody-sim credentials prints them)\n`)
    const hint = /^try: (npx custody-sim call GET \/vaults .*)$/m.exec(out)?.[1]
    expect(hint).toBe(`npx custody-sim call GET /vaults --data-dir ${data}`)
    const ran = await run(hint!.replace("npx custody-sim", COMMAND))
    expect([ran.code, ran.stderr]).toEqual([0, ""])
    expect(JSON.parse(ran.stdout)).toMatchObject({ apiVersion: "2026-03-20", data: { items: [{ type: "test" }, { type: "main" }] } })
  }, 240_000)

  it("a data dir an earlier custody-sim made keeps its key's recorded version, 2024-05-09", async () => {
    const data = join(dir, "old")
    // As an earlier start wrote it: the legacy seed (no seed file), the default workspace with a 2024-05-09 key.
    const old = await createSimulator({
      store: makeSqliteStore({ file: join(data, "events.sqlite") }),
      seed: LEGACY_SEED,
      webhooks: false,
      fixture: {
        vaults: [
          { name: "Test vault", type: "test" },
          { name: "Main vault", type: "main" },
        ],
        apiKeys: [{ name: "default", apiVersion: "2024-05-09" }],
      },
    })
    writeCredentialsFile(data, { adminToken: old.adminToken, apiKeys: old.createdCredentials })
    await old.close()
    sim = await startSimProcess(["--data-dir", data])
    expect(sim.output()).toContain("api version: 2024-05-09\n")
    const r = await sim.call(sim.credentials!, "GET", "/vaults")
    expect([r.status, r.body.apiVersion]).toEqual([200, "2024-05-09"])
  }, 240_000)

  it("npm start --port N: npm took the flag (npm_config_port), serve says to write npm start -- --port N, exit 2", async () => {
    const r = await run(`${COMMAND} serve --data-dir ${join(dir, "npm")}`, { npm_lifecycle_event: "start", npm_config_port: "9123" })
    expect([r.code, r.stdout]).toEqual([2, ""])
    expect(r.stderr).toMatch(/^error: npm took --port 9123 for itself: pass serve's flags after --, as in npm start -- --port 9123/)
  }, 240_000)

  it("Ctrl-C says what it saved and where", async () => {
    const data = join(dir, "stopped")
    const running = await startSimProcess(["--data-dir", data])
    const events = (await running.admin("GET", "/_sim/events?limit=1000")).body.events.length as number
    await running.stop(60_000, "SIGINT")
    expect(running.output()).toContain(
      `stopped, saved: ${events} events in ${join(data, "events.sqlite")}; a checkpoint of the read models in ${data}; the credentials in ${join(data, "credentials.json")}. The next serve with this data dir goes on from there\n`,
    )
  }, 240_000)
})
