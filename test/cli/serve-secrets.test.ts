// custody-sim serve as a process: a random seed per data dir (kept), --seed deterministic, owner-only files,
// the Host check, and the refusal to listen beyond loopback without --allow-remote.
import { execFile } from "node:child_process"
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { request } from "undici"
import { afterAll, describe, expect, it } from "vitest"
import { hostAllowed } from "../../src/api/host-guard.js"
import { CLI } from "../support/cli-command.js"
import { startSimProcess, type SimProcess } from "../support/sim-process.js"
import { isApiErrorShape } from "../support/strict-http.js"

const root = mkdtempSync(join(tmpdir(), "custody-sim-secrets-"))
const running: Array<SimProcess> = []
afterAll(async () => {
  await Promise.all(running.map((p) => p.stop()))
  rmSync(root, { recursive: true, force: true })
})

const start = async (args: ReadonlyArray<string>) => {
  const p = await startSimProcess(args)
  running.push(p)
  return p
}
const mode = (path: string) => statSync(path).mode & 0o777

const cli = (args: ReadonlyArray<string>): Promise<{ code: number; stderr: string }> =>
  new Promise((resolve) => {
    execFile(process.execPath, [...CLI, ...args], { cwd: process.cwd() }, (error, _stdout, stderr) =>
      resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, stderr }),
    )
  })

describe("credentials of an install", () => {
  it("differ between two fresh data dirs, and survive a restart of one (its seed is kept, 0600, in the data dir)", async () => {
    const [a, b] = [join(root, "a"), join(root, "b")]
    const [first, other] = await Promise.all([start(["--data-dir", a]), start(["--data-dir", b])])
    expect(first.adminToken).not.toBe(other.adminToken)
    expect(first.credentials!.key).not.toBe(other.credentials!.key)
    expect(first.credentials!.secret).not.toBe(other.credentials!.secret)
    await Promise.all([first.stop(), other.stop()])
    expect(mode(join(a, "seed"))).toBe(0o600)
    const again = await start(["--data-dir", a])
    expect(again.adminToken).toBe(first.adminToken)
    expect((await again.call(first.credentials!, "GET", "/vaults")).status).toBe(200)
    await again.stop()
  }, 180_000)

  it("are the same for the same --seed", async () => {
    const [a, b] = await Promise.all([
      start(["--data-dir", join(root, "s1"), "--seed", "same"]),
      start(["--store", "memory", "--seed", "same"]),
    ])
    expect(a.adminToken).toBe(b.adminToken)
    expect(a.credentials).toEqual(b.credentials)
    await Promise.all([a.stop(), b.stop()])
  }, 180_000)
})

describe("the data dir", () => {
  it("is 0700 with 0600 files after a start, and a lax mode left from before is corrected on the next", async () => {
    const dir = join(root, "perms")
    await (await start(["--data-dir", dir])).stop()
    expect(mode(dir)).toBe(0o700)
    for (const f of ["events.sqlite", "seed", "credentials.json"]) expect([f, mode(join(dir, f))]).toEqual([f, 0o600])
    chmodSync(dir, 0o755)
    chmodSync(join(dir, "credentials.json"), 0o644)
    chmodSync(join(dir, "events.sqlite"), 0o644)
    const p = await start(["--data-dir", dir])
    expect(mode(dir)).toBe(0o700)
    expect(mode(join(dir, "credentials.json"))).toBe(0o600)
    expect(mode(join(dir, "events.sqlite"))).toBe(0o600)
    if (existsSync(join(dir, "events.sqlite-wal"))) expect(mode(join(dir, "events.sqlite-wal"))).toBe(0o600)
    await p.stop()
  }, 180_000)
})

describe("the Host header", () => {
  it("refuses a name that is not loopback with 403 host_not_allowed; loopback names pass; --allow-host adds one", async () => {
    const [p, allowing] = await Promise.all([
      start(["--store", "memory"]),
      start(["--store", "memory", "--allow-host", "sim.example.test"]),
    ])
    const health = async (s: SimProcess, host: string) => {
      const r = await request(`${s.url}/_sim/health`, { headers: { host } })
      return { status: r.statusCode, body: (await r.body.json()) as { error?: { code?: string } } }
    }
    const refused = await health(p, "attacker.example:8080")
    expect(refused.status).toBe(403)
    expect(isApiErrorShape(refused.body)).toBe(true)
    expect(refused.body.error?.code).toBe("host_not_allowed")
    expect((await health(p, "sim.example.test")).status).toBe(403)
    const port = new URL(p.url).port
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, "[::1]", "app.localhost"])
      expect([host, (await health(p, host)).status]).toEqual([host, 200])
    expect((await health(allowing, "sim.example.test")).status).toBe(200)
    expect((await health(allowing, "attacker.example")).status).toBe(403)
    // A signed operation is refused the same way, before anything else.
    const op = await request(`${p.url}/vaults`, { headers: { host: "attacker.example" } })
    expect(op.statusCode).toBe(403)
    expect(((await op.body.json()) as { error: { code: string } }).error.code).toBe("host_not_allowed")
    await Promise.all([p.stop(), allowing.stop()])
  }, 180_000)

  it("when bound beyond loopback, accepts IP addresses but not other names", () => {
    const allowed = hostAllowed({ bound: "0.0.0.0", allowed: [] })
    expect(["10.0.0.5:8080", "[fe80::1]:80", "localhost"].map(allowed)).toEqual([true, true, true])
    expect(["rebind.example", undefined].map(allowed)).toEqual([false, false])
    expect(hostAllowed({ bound: "127.0.0.1", allowed: ["*"] })("anything.example")).toBe(true)
  })
})

describe("listening beyond loopback", () => {
  it("needs --allow-remote: without it serve stops with a message and exit code 2", async () => {
    const r = await cli(["serve", "--host", "0.0.0.0", "--port", "0", "--store", "memory"])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain("--allow-remote")
  }, 180_000)
  it("a kept seed is 24 random bytes in base64url", () => {
    expect(readFileSync(join(root, "a", "seed"), "utf8").trim()).toMatch(/^[A-Za-z0-9_-]{32}$/)
  })
})
