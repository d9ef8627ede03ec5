// custody-sim as a user runs it: help, version, usage mistakes and start-up failures as one line and an exit
// status, settings from flags, environment and config file, and call/credentials against a running serve.
import { execFile } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { CLI } from "../support/cli-command.js"
import { startSimProcess, type SimProcess } from "../support/sim-process.js"

const ROOT = fileURLToPath(new URL("../..", import.meta.url))
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }

interface Run {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

const cli = (args: ReadonlyArray<string>, options: { env?: Record<string, string>; cwd?: string } = {}): Promise<Run> =>
  new Promise((resolve) => {
    const env: Record<string, string | undefined> = { ...process.env, NODE_OPTIONS: "", ...options.env }
    for (const k of Object.keys(env)) if (k.startsWith("CUSTODY_SIM_") && options.env?.[k] === undefined) delete env[k]
    execFile(process.execPath, [...CLI, ...args], { cwd: options.cwd ?? dir, env }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, stdout, stderr }),
    )
  })

/** The one-line refusal: exit status and the whole of stderr. */
const refusal = (r: Run) => [r.code, r.stderr]

let dir: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "custody-sim-cli-"))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe("help, version and usage mistakes", () => {
  it("--help lists every command; serve --help lists its environment variables; --version prints the package's", async () => {
    const help = await cli(["--help"])
    expect(help.code).toBe(0)
    for (const c of ["serve", "call", "sign", "credentials", "export", "replay", "audit"])
      expect(help.stdout).toMatch(new RegExp(`^  ${c} `, "m"))
    const serve = await cli(["serve", "--help"])
    expect(serve.code).toBe(0)
    for (const v of [
      "CUSTODY_SIM_PORT",
      "CUSTODY_SIM_HOST",
      "CUSTODY_SIM_DATA_DIR",
      "CUSTODY_SIM_STORE",
      "CUSTODY_SIM_FIXTURE",
      "CUSTODY_SIM_CONFIG",
    ])
      expect(serve.stdout).toContain(v)
    expect(await cli(["--version"])).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: "" })
  }, 180_000)

  it("an unknown flag or command is one line naming the closest valid one, exit status 2", async () => {
    expect(refusal(await cli(["serve", "--prot", "8081"]))).toEqual([2, "error: unknown option '--prot' (did you mean --port?)\n"])
    expect(refusal(await cli(["serv"]))).toEqual([2, "error: unknown command 'serv' (did you mean serve?)\n"])
    expect(refusal(await cli(["serve", "--store", "sqlit"]))).toEqual([
      2,
      `error: option '--store <kind>' argument 'sqlit' is invalid. Allowed choices are sqlite, memory, esdb.\n`,
    ])
    expect(refusal(await cli(["serve", "--port", "80800"]))).toEqual([
      2,
      "error: --port must be 0 to 65535, not 80800 (see custody-sim serve --help)\n",
    ])
  }, 180_000)
})

describe("start-up failures: one line, exit status 1, nothing left behind", () => {
  it("a busy port, before any data directory is created", async () => {
    const busy = createServer()
    await new Promise<void>((resolve) => busy.listen(0, "127.0.0.1", resolve))
    const port = (busy.address() as { port: number }).port
    try {
      const data = join(dir, "busy-port")
      const r = await cli(["serve", "--port", String(port), "--data-dir", data])
      expect(refusal(r)).toEqual([
        1,
        `error: port ${port} on 127.0.0.1 is already in use (another custody-sim serve?): pass --port or CUSTODY_SIM_PORT\n`,
      ])
      expect(existsSync(data)).toBe(false)
    } finally {
      busy.close()
    }
  }, 180_000)

  it("an unreadable or invalid fixture", async () => {
    const missing = join(dir, "missing.json")
    expect(refusal(await cli(["serve", "--port", "0", "--store", "memory", "--fixture", missing]))).toEqual([
      1,
      `error: cannot read fixture ${missing}: no such file\n`,
    ])
    const broken = join(dir, "broken.json")
    writeFileSync(broken, "{ vaults: [")
    const r = await cli(["serve", "--port", "0", "--store", "memory", "--fixture", broken])
    expect(refusal(r)).toEqual([1, expect.stringMatching(new RegExp(`^error: fixture ${broken}: .*JSON.*\n$`))])
    const wrong = join(dir, "wrong.json")
    writeFileSync(wrong, JSON.stringify({ vaults: [{ name: "x", type: "nope", color: "#000000" }] }))
    expect(refusal(await cli(["serve", "--port", "0", "--store", "memory", "--fixture", wrong]))).toEqual([
      1,
      expect.stringMatching(new RegExp(`^error: fixture ${wrong}: vaults\\[0\\]: [^\n]+\n$`)),
    ])
  }, 180_000)

  it("a bad store connection", async () => {
    expect(refusal(await cli(["serve", "--port", "0", "--store", "esdb", "--esdb", "mysql://localhost"]))).toEqual([
      1,
      expect.stringMatching(/^error: cannot use EventStoreDB at mysql:\/\/localhost: [^\n]+\n$/),
    ])
  }, 180_000)

  describe("with a simulator running on a data directory", () => {
    let sim: SimProcess
    let data: string
    beforeAll(async () => {
      data = join(dir, "running")
      sim = await startSimProcess(["--data-dir", data, "--seed", "cli"])
    }, 180_000)
    afterAll(() => sim?.stop())

    it("the start line counts the events in the log (SQLite positions begin at 1)", async () => {
      const events = await sim.admin("GET", "/_sim/events?limit=1000")
      expect(sim.output()).toContain(`store: sqlite, events: ${events.body.events.length}\n`)
      expect(events.body.events).toHaveLength(3)
    })

    it("a second serve on the same data directory: its log is locked", async () => {
      expect(refusal(await cli(["serve", "--port", "0", "--data-dir", data]))).toEqual([
        1,
        `error: data dir ${data} is in use by another custody-sim process (its event log is locked): stop it or pass another --data-dir\n`,
      ])
    }, 180_000)

    it("serve printed the key, the vault ids and a ready call line, and saved them with the URL", () => {
      const out = sim.output()
      expect(out).toMatch(/^vault test: [0-9a-f]{24} \(Test vault\)$/m)
      expect(out).toMatch(/^vault main: [0-9a-f]{24} \(Main vault\)$/m)
      expect(out).toContain(`try: npx custody-sim call GET /vaults --data-dir ${data}\n`)
      expect(out).toContain(`audit report: ${sim.url}/_sim/audit?token=${encodeURIComponent(sim.adminToken)}\n`)
      const saved = JSON.parse(readFileSync(join(data, "credentials.json"), "utf8")) as {
        apiKeys: Array<unknown>
        url: string
        vaults: Array<unknown>
      }
      expect(saved).toMatchObject({ adminToken: sim.adminToken, apiKeys: [sim.credentials], url: sim.url })
      expect(saved.vaults).toHaveLength(2)
    })

    it("call signs with the saved credentials and prints the answer as received when piped", async () => {
      const r = await cli(["call", "GET", "/vaults", "--data-dir", data])
      expect([r.code, r.stderr]).toEqual([0, ""])
      const body = JSON.parse(r.stdout) as { data: { items: Array<{ id: string; type: string }> } }
      expect(body.data.items.map((v) => v.type)).toEqual(["test", "main"])
      expect(r.stdout).toBe(`${JSON.stringify(body)}\n`)
      const test = body.data.items[0]!.id
      const made = await cli([
        "call",
        "POST",
        `/vaults/${test}/vault-account`,
        "--data-dir",
        data,
        "--data",
        '{"name":"alice","color":"#FF0000","isHiddenInDashboard":false}',
      ])
      expect(made.code).toBe(0)
      // The default workspace's key is at the newest version, where the account answers its 2026-03-20 object.
      expect(JSON.parse(made.stdout)).toMatchObject({ apiVersion: "2026-03-20", data: { item: { vaultAccountName: "alice" } } })
      const limited = await cli(["call", "GET", "/vaults", "--query", "limit=1", "--data-dir", data])
      expect(JSON.parse(limited.stdout)).toMatchObject({ data: { limit: 1, hasMore: true } })
      const first = await cli(["call", "GET", "/vaults", "--as-of", "position:1", "--data-dir", data])
      expect(first.code).toBe(0)
      expect(JSON.parse(first.stdout).data.items.map((v: { id: string }) => v.id)).toEqual([test])
    }, 180_000)

    it("serve logs each request on a line of its own", async () => {
      await sim.call(sim.credentials!, "GET", "/vaults?limit=2")
      await expect
        .poll(() => sim.output())
        .toMatch(new RegExp(` GET /vaults\\?limit=2 200 [0-9.]+ms key=${sim.credentials!.key} request=[0-9a-f]+\n`))
    })

    it("call exits 1 on a refused request and says where nothing listens", async () => {
      const refused = await cli(["call", "GET", "/vaults", "--data-dir", data, "--passphrase", "wrong"])
      expect([refused.code, refused.stderr, JSON.parse(refused.stdout).error.code]).toEqual([1, "HTTP 401\n", "invalid_api_key"])
      const closed = createServer()
      await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve))
      const port = (closed.address() as { port: number }).port
      await new Promise((resolve) => closed.close(resolve))
      const nowhere = await cli(["call", "GET", "/vaults", "--data-dir", data, "--url", `http://127.0.0.1:${port}`])
      expect(refusal(nowhere)).toEqual([
        1,
        `error: cannot reach http://127.0.0.1:${port}: nothing listens there (is custody-sim serve running? pass --url)\n`,
      ])
    }, 180_000)

    it("credentials prints the admin token, the key and the vault ids", async () => {
      const r = await cli(["credentials", "--data-dir", data])
      expect(r.code).toBe(0)
      expect(r.stdout).toContain(
        `admin token: ${sim.adminToken}\napi key: ${sim.credentials!.key}\napi secret: ${sim.credentials!.secret}\napi passphrase: ${sim.credentials!.passphrase}\n`,
      )
      expect(r.stdout).toMatch(/^vault test: [0-9a-f]{24} \(Test vault\)$/m)
    }, 180_000)
  })

  it("a restart prints the saved credentials again", async () => {
    const data = join(dir, "restart")
    const first = await startSimProcess(["--data-dir", data])
    await first.stop()
    const second = await startSimProcess(["--data-dir", data])
    try {
      expect(second.credentials).toEqual(first.credentials)
      expect(second.output()).toContain(`credentials from ${join(data, "credentials.json")}`)
    } finally {
      await second.stop()
    }
  }, 90_000)
})

describe("request log options", () => {
  it("--log-format json writes JSON lines; --quiet writes none", async () => {
    const json = await startSimProcess(["--store", "memory", "--log-format", "json"])
    const quiet = await startSimProcess(["--store", "memory", "--quiet"])
    try {
      for (const s of [json, quiet]) expect((await s.call(s.credentials!, "GET", "/vaults")).status).toBe(200)
      await expect.poll(() => json.output()).toMatch(/^\{"time":"[^"]+","method":"GET","path":"\/vaults","status":200,/m)
      await new Promise((resolve) => setTimeout(resolve, 200))
      expect(quiet.output()).not.toMatch(/ GET \/vaults 200 /)
    } finally {
      await Promise.all([json.stop(), quiet.stop()])
    }
  }, 90_000)
})

describe("settings: flag over environment over config file", () => {
  const where = (r: Run) => /cannot reach (\S+):/.exec(r.stderr)?.[1]
  const creds = ["--key", "k", "--secret", "c2VjcmV0", "--passphrase", "p"]
  it("the config file is used, the environment variable wins over it and the flag over both", async () => {
    const cwd = mkdtempSync(join(dir, "config-"))
    writeFileSync(join(cwd, "custody-sim.json"), JSON.stringify({ url: "http://127.0.0.1:7" }))
    expect(where(await cli(["call", "GET", "/vaults", ...creds], { cwd }))).toBe("http://127.0.0.1:7")
    expect(where(await cli(["call", "GET", "/vaults", ...creds], { cwd, env: { CUSTODY_SIM_URL: "http://127.0.0.1:8" } }))).toBe(
      "http://127.0.0.1:8",
    )
    expect(
      where(
        await cli(["call", "GET", "/vaults", ...creds, "--url", "http://127.0.0.1:9"], {
          cwd,
          env: { CUSTODY_SIM_URL: "http://127.0.0.1:8" },
        }),
      ),
    ).toBe("http://127.0.0.1:9")
  }, 180_000)

  it("a --url that is not an http:// URL is one usage line naming it, before anything is sent", async () => {
    for (const url of ["", "localhost:8080", "https://127.0.0.1:1"])
      expect(refusal(await cli(["call", "GET", "/vaults", ...creds, "--url", url]))).toEqual([
        2,
        `error: --url must be an http:// URL such as http://127.0.0.1:8080, not ${JSON.stringify(url)} (see custody-sim call --help)\n`,
      ])
  }, 180_000)

  it("an unknown setting in the config file is one line with the closest name", async () => {
    const file = join(dir, "typo.json")
    writeFileSync(file, JSON.stringify({ prot: 8081 }))
    expect(refusal(await cli(["serve", "--config", file]))).toEqual([
      2,
      `error: config file ${file}: unknown setting "prot" (did you mean "port"?) (see custody-sim serve --help)\n`,
    ])
  }, 180_000)
})
