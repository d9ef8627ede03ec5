// The package as a user gets it: `npm pack`, installed offline into an empty project, its entry points run there.
import { execFile, spawn } from "node:child_process"
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { distIsFresh } from "../../scripts/build-stamp.js"
import { signRequest } from "../../src/client/index.js"

const ROOT = fileURLToPath(new URL("../..", import.meta.url))
const run = promisify(execFile)

interface Packed {
  readonly filename: string
  readonly integrity: string
  readonly files: ReadonlyArray<{ readonly path: string }>
}

let dir: string
let project: string
let packed: Packed

/**
 * The project's lock is the repository's: `npm ci --offline` then takes every dependency
 * from the npm cache the repository's own install filled (a fresh `npm install` would need the registry's package
 * lists, which `npm ci` never caches). Install scripts are skipped: offline, better-sqlite3 would compile its addon
 * from source (minutes); the SQLite test copies in the addon this repository's install built instead.
 */
const installInto = async (tarball: string) => {
  const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")) as { packages: Record<string, { dev?: boolean }> }
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
    version: string
    dependencies: object
    devDependencies: Record<string, string>
    bin: object
    engines: object
  }
  const spec = `file:${tarball}`
  // The project's own test tools, as a user of custody-sim/testing has them (the docs' examples run with them).
  const dependencies = { "custody-sim": spec, vitest: pkg.devDependencies.vitest!, "fast-check": pkg.devDependencies["fast-check"]! }
  const packages: Record<string, unknown> = {
    "": { name: "fresh-project", dependencies },
    "node_modules/custody-sim": {
      version: pkg.version,
      resolved: spec,
      integrity: packed.integrity,
      dependencies: pkg.dependencies,
      bin: pkg.bin,
      engines: pkg.engines,
    },
  }
  for (const [path, entry] of Object.entries(lock.packages))
    if (path !== "") packages[path] = { ...entry, dev: undefined, devOptional: undefined }
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "fresh-project", private: true, type: "module", dependencies }))
  writeFileSync(join(project, "package-lock.json"), JSON.stringify({ name: "fresh-project", lockfileVersion: 3, requires: true, packages }))
  await run("npm", ["ci", "--offline", "--ignore-scripts", "--no-audit", "--no-fund"], { cwd: project })
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "custody-sim-pack-"))
  project = join(dir, "project")
  mkdirSync(project)
  // `npm pack` runs `prepare`, which builds dist/ from the sources, unless dist/ is already a build of them (its
  // stamp matches: CI's `npm ci` ran the same `prepare` minutes before). Building again would make the same files,
  // and take dist/ away for a while under the test files running beside this one.
  const scripts = distIsFresh() ? ["--ignore-scripts"] : []
  const { stdout } = await run("npm", ["pack", "--json", ...scripts, "--pack-destination", project], { cwd: ROOT, maxBuffer: 16 << 20 })
  // The build's own lines come first on stdout; npm's JSON report starts at the first line that opens an array.
  packed = (JSON.parse(stdout.slice(stdout.search(/^\[/m))) as Array<Packed>)[0]!
  await installInto(packed.filename)
}, 300_000)
// Removing the installed project (its node_modules) took over 30 s on a loaded machine.
afterAll(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
}, 180_000)

describe("npm pack", () => {
  it("holds the built code, its declarations, the built dashboard, the OpenAPI documents, the README, the LICENSE and docs; no tests, CI, scripts or sources", () => {
    const paths = packed.files.map((f) => f.path)
    expect(paths).toContain("LICENSE")
    expect(
      paths.filter(
        (p) =>
          !/^(package\.json|README\.md|LICENSE|docs\/[\w-]+\.md|dist\/src\/.+\.(js|d\.ts)|dist\/ui\/.+|dist\/openapi\/[\w-]+\.json)$/.test(
            p,
          ),
      ),
    ).toEqual([])
    for (const version of ["2024-05-09", "2025-09-23", "2026-03-20"]) expect(paths).toContain(`dist/openapi/${version}.json`)
    expect(paths).toContain("dist/openapi/examples.json")
    for (const entry of ["cli.js", "index.js", "index.d.ts", "testing.js", "testing.d.ts", "client/index.js", "client/index.d.ts"])
      expect(paths).toContain(`dist/src/${entry}`)
    expect(paths).toContain("dist/ui/index.html")
  })
})

describe("the checkout after the build (prepare, as npm ci or npm pack runs it)", () => {
  it("leaves a build of the sources as they are, and the command executable: dist/src/cli.js has its run bit, and npx custody-sim runs it", async () => {
    expect(distIsFresh()).toBe(true)
    const cli = join(ROOT, "dist", "src", "cli.js")
    expect(statSync(cli).mode & 0o111).toBe(0o111)
    const direct = await run(cli, ["--help"], { cwd: ROOT })
    expect(direct.stdout).toContain("custody-sim")
    const npx = await run("npx", ["--no-install", "custody-sim", "--help"], { cwd: ROOT, env: { ...process.env, NODE_OPTIONS: "" } })
    expect(npx.stdout).toContain("serve")
  }, 240_000)
})

const tsBlocks = (file: string) => [...readFileSync(join(ROOT, file), "utf8").matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!)

describe("installed into an empty project", () => {
  it("the property-testing examples of the README and docs/property-testing.md pass as pasted, with vitest's defaults", async () => {
    const readme = tsBlocks("README.md").find((b) => b.includes('from "custody-sim/testing"'))!
    const docs = tsBlocks("docs/property-testing.md").find((b) => b.includes("class DepositCreditor"))!
    writeFileSync(join(project, "readme-example.test.ts"), readme)
    writeFileSync(join(project, "docs-example.test.ts"), docs)
    const vitest = join(project, "node_modules", "vitest", "vitest.mjs")
    const r = await run(process.execPath, [vitest, "run", "--reporter=dot"], {
      cwd: project,
      env: { ...process.env, CI: "", NODE_OPTIONS: "" },
    }).catch((e: { stdout: string; stderr: string }) => ({ stdout: e.stdout, stderr: e.stderr }))
    expect(r.stdout.replace(/\x1b\[[0-9;]*m/g, "")).toMatch(/Tests\s+2 passed \(2\)/)
  }, 420_000)

  it("custody-sim, custody-sim/testing and custody-sim/client import and run on plain node", async () => {
    writeFileSync(
      join(project, "entry-points.mjs"),
      `import { startInProcess } from "custody-sim/testing"
import { CustodyClient } from "custody-sim/client"
import { createSimulator, createApp } from "custody-sim"
const sim = await startInProcess({ webhooks: false })
const vaults = await sim.client().call("GET", "/vaults")
await sim.close()
console.log(JSON.stringify({ status: vaults.status, vaults: vaults.body.data.items.length, client: typeof CustodyClient, root: [typeof createSimulator, typeof createApp] }))
`,
    )
    const { stdout } = await run(process.execPath, ["entry-points.mjs"], { cwd: project })
    expect(JSON.parse(stdout)).toEqual({ status: 200, vaults: 2, client: "function", root: ["function", "function"] })
  }, 60_000)

  it("type-checks against the declarations it ships", async () => {
    writeFileSync(
      join(project, "types.ts"),
      `import { startInProcess, type InProcess } from "custody-sim/testing"
import { CustodyClient, type Credentials } from "custody-sim/client"
import { createSimulator, type Simulator } from "custody-sim"
export const start: () => Promise<InProcess> = () => startInProcess({ seed: "types" })
export const client = (credentials: Credentials) => new CustodyClient({ baseUrl: "http://127.0.0.1:8080", credentials })
export const sim: typeof createSimulator = createSimulator
export type S = Simulator
// @ts-expect-error: a seed is a string
startInProcess({ seed: 1 })
`,
    )
    writeFileSync(
      join(project, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          module: "NodeNext",
          moduleResolution: "NodeNext",
          target: "ES2022",
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: [],
        },
        files: ["types.ts"],
      }),
    )
    const tsc = join(ROOT, "node_modules", "typescript", "bin", "tsc")
    const r = await run(process.execPath, [tsc, "-p", "tsconfig.json"], { cwd: project }).catch((e: { stdout: string }) => ({
      stdout: e.stdout,
      failed: true,
    }))
    expect(r).toEqual({ stdout: "", stderr: "" })
  }, 120_000)

  it("npx custody-sim serve starts the simulator, a signed call with the printed credentials answers, and its documents carry examples", async () => {
    const served = await serve(["--store", "memory"])
    try {
      const res = await fetch(`${served.url}/vaults`, { headers: signRequest(served.creds, { method: "GET", url: "/vaults", body: "" }) })
      expect(res.status).toBe(200)
      expect(((await res.json()) as { data: { items: Array<unknown> } }).data.items).toHaveLength(2)
      // The document it serves carries the examples the build took from its scripted run.
      const doc = (await (await fetch(`${served.url}/openapi/2026-03-20.json`)).json()) as any
      const listed = doc.paths["/vaults"].get.responses["200"].content["application/json"].example
      expect([listed.apiVersion, listed.data.items.length > 0]).toEqual(["2026-03-20", true])
    } finally {
      await served.stop()
    }
  }, 60_000)

  it("with its default SQLite store: a write survives a restart, and export reads it from the data dir", async () => {
    // Offline, the install above skipped better-sqlite3's build; its addon is the one this repository's install built
    // for the same version and Node (what `npm install` builds or downloads on a user's machine).
    cpSync(join(ROOT, "node_modules", "better-sqlite3", "build"), join(project, "node_modules", "better-sqlite3", "build"), {
      recursive: true,
    })
    const dataDir = join(dir, "data")
    const first = await serve(["--data-dir", dataDir])
    let accountId: string
    let vaultId: string
    try {
      const vaults = await fetch(`${first.url}/vaults`, { headers: signRequest(first.creds, { method: "GET", url: "/vaults", body: "" }) })
      vaultId = ((await vaults.json()) as { data: { items: Array<{ id: string; type: string }> } }).data.items.find(
        (v) => v.type === "test",
      )!.id
      const body = JSON.stringify({ data: { item: { name: "kept", color: "#000000", isHiddenInDashboard: false } } })
      const url = `/vaults/${vaultId}/vault-account`
      const made = await fetch(first.url + url, {
        method: "POST",
        body,
        headers: { ...signRequest(first.creds, { method: "POST", url, body }), "content-type": "application/json" },
      })
      expect(made.status).toBe(201)
      accountId = ((await made.json()) as { data: { item: { vaultAccountId: string } } }).data.item.vaultAccountId
    } finally {
      await first.stop()
    }
    const second = await serve(["--data-dir", dataDir])
    try {
      // The same data dir keeps its credentials and its world.
      expect(second.creds).toEqual(first.creds)
      const url = `/vaults/${vaultId}/ethereum/sepolia/addresses`
      const body = JSON.stringify({ data: { item: { label: "after restart", vaultAccountId: accountId } } })
      const derived = await fetch(second.url + url, {
        method: "POST",
        body,
        headers: { ...signRequest(second.creds, { method: "POST", url, body }), "content-type": "application/json" },
      })
      expect(derived.status).toBe(201)
    } finally {
      await second.stop()
    }
    const { stdout } = await run("npx", ["--offline", "custody-sim", "export", "--data-dir", dataDir], {
      cwd: project,
      maxBuffer: 16 << 20,
    })
    const types = stdout
      .trim()
      .split("\n")
      .map((l) => (JSON.parse(l) as { type: string }).type)
    expect(types).toContain("VaultAccountCreated")
    expect(types).toContain("AddressDerived")
  }, 180_000)
})

interface Served {
  readonly url: string
  readonly creds: { readonly key: string; readonly secret: string; readonly passphrase: string }
  readonly stop: () => Promise<void>
}

/** `npx custody-sim serve` in the installed project on a port the OS chooses; its printed URL and credentials. */
const serve = async (args: ReadonlyArray<string>): Promise<Served> => {
  const child = spawn("npx", ["--offline", "custody-sim", "serve", "--port", "0", ...args], {
    cwd: project,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  })
  let out = ""
  child.stdout.on("data", (d: Buffer) => (out += d.toString()))
  child.stderr.on("data", (d: Buffer) => (out += d.toString()))
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
  const stop = async () => {
    try {
      process.kill(-child.pid!, "SIGTERM")
    } catch {
      // already gone
    }
    await exited
  }
  try {
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on("data", () => {
        const m = /listening on (http:\/\/\S+)/.exec(out)
        if (m !== null) resolve(m[1]!)
      })
      child.once("exit", (code) => reject(new Error(`exited with ${code}: ${out}`)))
    })
    const line = (label: string) => new RegExp(`^${label}: (.*)$`, "m").exec(out)?.[1] ?? ""
    return { url, creds: { key: line("api key"), secret: line("api secret"), passphrase: line("api passphrase") }, stop }
  } catch (e) {
    await stop()
    throw e
  }
}
