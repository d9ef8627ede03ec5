// `custody-sim serve --fault '<json>'` (repeatable): the server starts with those faults in force, as POST
// /_sim/faults would have set them; a bad one is one usage line naming what is wrong, exit status 2.
import { execFile } from "node:child_process"
import { join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { afterEach, describe, expect, it } from "vitest"
import { startSimProcess, type SimProcess } from "../support/sim-process.js"

const ROOT = fileURLToPath(new URL("../..", import.meta.url))
const TSX = pathToFileURL(join(ROOT, "node_modules/tsx/dist/loader.mjs")).href

let sim: SimProcess | undefined
afterEach(async () => {
  await sim?.stop()
  sim = undefined
})

describe("serve --fault", () => {
  it("starts with every --fault given in force", async () => {
    sim = await startSimProcess([
      "--store",
      "memory",
      "--fault",
      '{"match":{"method":"GET","path":"/vaults"},"effect":{"kind":"status","status":503},"times":1}',
      "--fault",
      '{"match":{"method":"POST"},"effect":{"kind":"reset"}}',
    ])
    const listed = await sim.admin("GET", "/_sim/faults")
    expect(listed.body.faults.map((f: { effect: unknown; times: unknown }) => [f.effect, f.times])).toEqual([
      [{ kind: "status", status: 503 }, 1],
      [{ kind: "reset" }, null],
    ])
    const first = await sim.call(sim.credentials!, "GET", "/vaults")
    expect([first.status, first.body.error.code]).toEqual([503, "service_unavailable"])
    expect((await sim.call(sim.credentials!, "GET", "/vaults")).status).toBe(200)
  }, 120_000)

  it("refuses a bad --fault with one usage line, exit status 2", async () => {
    const run = await new Promise<{ code: number; stderr: string }>((resolve) =>
      execFile(
        process.execPath,
        [
          "--import",
          TSX,
          join(ROOT, "src/cli.ts"),
          "serve",
          "--store",
          "memory",
          "--port",
          "0",
          "--fault",
          '{"match":{},"effect":{"kind":"boom"}}',
        ],
        { cwd: ROOT, env: { ...process.env, NODE_OPTIONS: "" } },
        (error, _stdout, stderr) => resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, stderr }),
      ),
    )
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(/^error: --fault .*: effect\.kind must be one of status, delay, reset, timeout, lost-answer/)
  }, 120_000)
})
