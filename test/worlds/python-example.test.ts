// docs/worlds.md's Python example, run as shown: the one `python` block of the page, with python3, against a server
// of worlds on a real socket (8 workers, a world each, created, used and deleted).
import { execFile } from "node:child_process"
import { readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, expect, it } from "vitest"
import { tempDir } from "../support/temp-dir.js"
import { startWorldsServer, type WorldsServer } from "../support/worlds-server.js"

const run = promisify(execFile)

let s: WorldsServer
beforeAll(async () => {
  s = await startWorldsServer()
})
afterAll(() => s.close())

it("runs docs/worlds.md's Python example: a world per worker, signed calls, each world deleted", async () => {
  const doc = readFileSync(new URL("../../docs/worlds.md", import.meta.url), "utf8")
  const blocks = [...doc.matchAll(/```python\n([\s\S]*?)```/g)].map((m) => m[1]!)
  expect(blocks).toHaveLength(1)
  const file = join(tempDir("worlds-python-"), "worlds_example.py")
  writeFileSync(file, blocks[0]!)
  const { stdout } = await run("python3", [file], {
    env: { ...process.env, CUSTODY_SIM_URL: s.url, CUSTODY_SIM_ADMIN_TOKEN: s.sim.adminToken },
    timeout: 60_000,
  })
  expect(stdout.trim()).toBe("8 workers, 8 worlds: isolated and deterministic")
  // Every world the example made is gone.
  expect(s.worlds.size()).toBe(0)
}, 90_000) // a python3 process and 8 worlds on a loaded machine
