// `custody-sim call --world <id>` against a running `serve --store memory`: the request is signed with that world's
// credentials (read from GET /_sim/worlds/{id} with the server's admin token), so that world answers it, and the
// request log names it; a world that is not there, or a world's own admin token, is one line and exit status 1.
import { execFile } from "node:child_process"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { CLI } from "../support/cli-command.js"
import { startSimProcess, type SimProcess } from "../support/sim-process.js"

interface Run {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

const cli = (args: ReadonlyArray<string>, given: Record<string, string> = {}): Promise<Run> =>
  new Promise((resolve) => {
    const env: Record<string, string | undefined> = { ...process.env, NODE_OPTIONS: "" }
    for (const k of Object.keys(env)) if (k.startsWith("CUSTODY_SIM_")) delete env[k]
    Object.assign(env, given)
    execFile(process.execPath, [...CLI, ...args], { env }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, stdout, stderr }),
    )
  })

describe("call --world", () => {
  let sim: SimProcess
  beforeAll(async () => {
    sim = await startSimProcess(["--store", "memory"])
  }, 120_000)
  afterAll(() => sim.stop())

  it("signs with the world's credentials: that world answers, and the request log names it", async () => {
    const a = (await sim.admin("POST", "/_sim/worlds", {})).body
    const b = (await sim.admin("POST", "/_sim/worlds", {})).body
    const made = await fetch(`${sim.url}/_sim/vaults`, {
      method: "POST",
      headers: { authorization: `Bearer ${a.adminToken}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "only in a", type: "test" }),
    })
    expect(made.status).toBe(201)
    const names = async (world: string, more: ReadonlyArray<string>, env: Record<string, string> = {}) => {
      const r = await cli(["call", "GET", "/vaults", "--world", world, "--url", sim.url, ...more], env)
      expect([r.code, r.stderr]).toEqual([0, ""])
      return (JSON.parse(r.stdout) as { data: { items: Array<{ name: string }> } }).data.items.map((v) => v.name)
    }
    // The server's admin token given, or in the environment as serve takes it.
    expect(await names(a.id, [], { CUSTODY_SIM_ADMIN_TOKEN: sim.adminToken })).toContain("only in a")
    expect(await names(b.id, ["--admin-token", sim.adminToken])).not.toContain("only in a")
    await expect.poll(() => sim.output().includes(`key=${a.apiKeys[0].key} world=${a.id}`), { timeout: 10_000 }).toBe(true)
    await expect.poll(() => sim.output().includes(`key=${b.apiKeys[0].key} world=${b.id}`), { timeout: 10_000 }).toBe(true)

    // A write too, its body signed and read; a query, signed; and the server's own world by its id.
    const vault = b.vaults.find((v: { type: string }) => v.type === "test").id
    const given = ["--world", b.id, "--url", sim.url, "--admin-token", sim.adminToken]
    const posted = await cli(["call", "POST", `/vaults/${vault}/ethereum/sepolia/addresses`, "--data", '{"label":"cli"}', ...given])
    // Past the signature to the body's checks: this version's derivation names the account.
    expect([posted.code, JSON.parse(posted.stdout).error.code]).toEqual([1, "missing_required_attributes"])
    const one = await cli(["call", "GET", "/vaults", "--query", "limit=1", ...given])
    expect(JSON.parse(one.stdout).data.items).toHaveLength(1)
    const own = await cli(["call", "GET", "/vaults", "--world", "server", "--url", sim.url, "--admin-token", sim.adminToken])
    expect(own.code).toBe(0)
    expect(own.stdout).not.toContain("only in a")
  }, 120_000)

  it("a world not there, a world's own admin token or none is one line and exit status 1", async () => {
    const a = (await sim.admin("POST", "/_sim/worlds", {})).body
    const gone = await cli(["call", "GET", "/vaults", "--world", "wnothere", "--url", sim.url, "--admin-token", sim.adminToken])
    expect([gone.code, gone.stderr]).toEqual([1, `error: world wnothere on ${sim.url}: world_not_found: No world "wnothere".\n`])
    const theirs = await cli(["call", "GET", "/vaults", "--world", a.id, "--url", sim.url, "--admin-token", a.adminToken])
    expect(theirs.code).toBe(1)
    expect(theirs.stderr).toContain("server_admin_token_required")
    expect(theirs.stderr).toContain("--world needs the server's admin token")
    const none = await cli(["call", "GET", "/vaults", "--world", a.id, "--url", sim.url, "--data-dir", "no-such-dir"])
    expect([none.code, none.stderr]).toEqual([
      1,
      "error: --world needs the server's admin token: pass --admin-token (no-such-dir/credentials.json does not exist)\n",
    ])
  }, 120_000)
})
