// custody-sim serve as a process, at start-up: a data dir keeps the seed and admin token it was created with
// (--seed, a fixture) through a restart without flags; a start that fails after the port is bound exits non-zero
// and frees the port; a request that arrives before the simulator is ready is answered once it is; failed
// authentications are not limited on loopback unless asked for.
import { execFile } from "node:child_process"
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import net from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { signRequest } from "../../src/client/index.js"
import { CLI } from "../support/cli-command.js"
import { startSimProcess, type SimProcess } from "../support/sim-process.js"

const root = mkdtempSync(join(tmpdir(), "custody-sim-startup-"))
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

/** A port free a moment ago (the OS's choice), for a server that must be given one. */
const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const s = net.createServer()
    s.once("error", reject)
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo
      s.close(() => resolve(port))
    })
  })

const canBind = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const s = net.createServer()
    s.once("error", () => resolve(false))
    s.listen(port, "127.0.0.1", () => s.close(() => resolve(true)))
  })

/** `custody-sim serve …` to its end: exit status and stderr; killed (and failed) if it has not ended within `withinMs`. */
const serveToEnd = (args: ReadonlyArray<string>, withinMs = 60_000): Promise<{ code: number | null; stderr: string; hung: boolean }> =>
  new Promise((resolve) => {
    let hung = false
    const child = execFile(
      process.execPath,
      [...CLI, "serve", "--host", "127.0.0.1", ...args],
      { cwd: process.cwd(), env: { ...process.env, NODE_OPTIONS: "" } },
      (error, _out, stderr) => resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : null, stderr, hung }),
    )
    setTimeout(() => {
      hung = child.exitCode === null
      child.kill("SIGKILL")
    }, withinMs).unref()
  })

/** One raw HTTP/1.1 request on its own connection; resolves with the status line, or why there was none. */
const probe = (port: number): Promise<{ connectedAt: number; status: string }> =>
  new Promise((resolve) => {
    let connectedAt = -1
    let text = ""
    const socket = net.connect(port, "127.0.0.1", () => {
      connectedAt = performance.now()
      socket.write(`GET /_sim/health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`)
    })
    // Bounds a hang only: an answer comes when the simulator is ready, well within this on any machine.
    socket.setTimeout(60_000, () => socket.destroy())
    socket.on("data", (d: Buffer) => (text += d.toString("latin1")))
    socket.on("error", () => {})
    socket.on("close", () => resolve({ connectedAt, status: connectedAt < 0 ? "refused" : (text.split("\r\n")[0] ?? "") || "no answer" }))
  })

describe("a data dir restarted without flags", () => {
  it("keeps the seed and the admin token of --seed", async () => {
    const dir = join(root, "seeded")
    const first = await start(["--data-dir", dir, "--seed", "kept-seed"])
    const creds = first.credentials!
    await first.stop()
    const again = await start(["--data-dir", dir])
    expect(again.adminToken).toBe(first.adminToken)
    expect(readFileSync(join(dir, "seed"), "utf8").trim()).toBe("kept-seed")
    expect(JSON.parse(readFileSync(join(dir, "credentials.json"), "utf8")).adminToken).toBe(first.adminToken)
    expect((await again.admin("GET", "/_sim/health")).status).toBe(200)
    expect((await again.call(creds, "GET", "/vaults")).status).toBe(200)
    await again.stop()
  }, 180_000)

  it("keeps the admin token of a fixture", async () => {
    const dir = join(root, "fixture")
    mkdirSync(dir, { recursive: true })
    const file = join(dir, "..", "fixture.json")
    writeFileSync(
      file,
      JSON.stringify({
        seed: "fixture-seed",
        adminToken: "fixture-admin-token",
        vaults: [{ name: "v", type: "test" }],
        apiKeys: [{ name: "k", apiVersion: "2024-05-09" }],
      }),
    )
    const first = await start(["--data-dir", dir, "--fixture", file])
    expect(first.adminToken).toBe("fixture-admin-token")
    const creds = first.credentials!
    await first.stop()
    const again = await start(["--data-dir", dir])
    expect(again.adminToken).toBe("fixture-admin-token")
    expect(readFileSync(join(dir, "seed"), "utf8").trim()).toBe("fixture-seed")
    expect((await again.admin("GET", "/_sim/snapshots")).status).toBe(200)
    expect((await again.call(creds, "GET", "/vaults")).status).toBe(200)
    await again.stop()
  }, 180_000)
})

describe("a start that fails after the port is bound", () => {
  it("(credentials.json holding {}) prints the error, exits 1 and frees the port", async () => {
    const dir = join(root, "bad-credentials")
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, "credentials.json"), "{}")
    const port = await freePort()
    const r = await serveToEnd(["--data-dir", dir, "--port", String(port)])
    expect(r.hung).toBe(false)
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/^error: cannot read the credentials of .*credentials\.json is not a custody-sim credentials file/m)
    expect(await canBind(port)).toBe(true)
  }, 90_000)
})

describe("requests during start-up", () => {
  it("every connection accepted before the simulator is ready is answered once it is", async () => {
    const port = await freePort()
    const starting = start(["--store", "memory", "--port", String(port), "--seed", "early"])
    let listening = -1
    void starting.then(() => (listening = performance.now()))
    const probes: Array<Promise<{ connectedAt: number; status: string }>> = []
    // Probes on new connections until the server says it listens, and a few after.
    while (listening < 0 || probes.length < 5) {
      probes.push(probe(port))
      await new Promise((resolve) => setTimeout(resolve, 5))
      if (probes.length > 20_000) throw new Error("the server never said it listens")
    }
    const answers = await Promise.all(probes)
    const accepted = answers.filter((a) => a.status !== "refused")
    const early = accepted.filter((a) => a.connectedAt < listening)
    expect(early.length).toBeGreaterThan(0)
    for (const a of accepted) expect(a.status).toBe("HTTP/1.1 200 OK")
    const sim = await starting
    expect((await sim.call(sim.credentials!, "GET", "/vaults")).status).toBe(200)
  }, 180_000)
})

describe("failed authentications", () => {
  it("are not limited on a loopback --host by default; --auth-failure-limit turns the limit on, and a bad value is a usage error", async () => {
    const open = await start(["--store", "memory", "--seed", "auth-open"])
    const bad = (creds: { key: string; secret: string; passphrase: string }) => ({
      ...signRequest(creds, { method: "GET", url: "/vaults" }),
      "x-api-sign": Buffer.alloc(32, 1).toString("base64"),
    })
    for (let i = 0; i < 15; i++) expect((await fetch(`${open.url}/vaults`, { headers: bad(open.credentials!) })).status).toBe(401)
    const limited = await start(["--store", "memory", "--seed", "auth-limited", "--auth-failure-limit", "0.001/2"])
    const statuses: Array<number> = []
    for (let i = 0; i < 4; i++) statuses.push((await fetch(`${limited.url}/vaults`, { headers: bad(limited.credentials!) })).status)
    expect(statuses).toEqual([401, 401, 429, 429])
    expect((await limited.call(limited.credentials!, "GET", "/vaults")).status).toBe(200)
    const usage = await serveToEnd(["--store", "memory", "--port", "0", "--auth-failure-limit", "lots"])
    expect([usage.code, usage.hung]).toEqual([2, false])
    expect(usage.stderr).toMatch(/--auth-failure-limit must be/)
  }, 180_000)
})
