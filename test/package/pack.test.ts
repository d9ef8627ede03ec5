// The package as a user gets it: `npm pack`, installed offline into an empty project, its entry points run there.
import { execFile, spawn } from "node:child_process"
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
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
 * lists, which `npm ci` never caches). Install scripts are skipped: offline, better-sqlite3 compiles its addon from
 * source (minutes), and the memory store used here needs none.
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
    "node_modules/custody-sim": { version: pkg.version, resolved: spec, integrity: packed.integrity, dependencies: pkg.dependencies, bin: pkg.bin, engines: pkg.engines },
  }
  for (const [path, entry] of Object.entries(lock.packages)) if (path !== "") packages[path] = { ...entry, dev: undefined, devOptional: undefined }
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "fresh-project", private: true, type: "module", dependencies }))
  writeFileSync(join(project, "package-lock.json"), JSON.stringify({ name: "fresh-project", lockfileVersion: 3, requires: true, packages }))
  await run("npm", ["ci", "--offline", "--ignore-scripts", "--no-audit", "--no-fund"], { cwd: project })
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "custody-sim-pack-"))
  project = join(dir, "project")
  mkdirSync(project)
  // `npm pack` runs `prepare`, which builds dist/ from the sources.
  const { stdout } = await run("npm", ["pack", "--json", "--pack-destination", project], { cwd: ROOT, maxBuffer: 16 << 20 })
  // The build's own lines come first on stdout; npm's JSON report starts at the first line that opens an array.
  packed = (JSON.parse(stdout.slice(stdout.search(/^\[/m))) as Array<Packed>)[0]!
  await installInto(packed.filename)
}, 300_000)
// Removing the installed project (its node_modules) took over 30 s on a loaded machine.
afterAll(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
}, 180_000)

describe("npm pack", () => {
  it("holds the built code, its declarations, the built dashboard, the OpenAPI documents, the README and docs; no tests, CI, scripts or sources", () => {
    const paths = packed.files.map((f) => f.path)
    expect(paths.filter((p) => !/^(package\.json|README\.md|docs\/[\w-]+\.md|dist\/src\/.+\.(js|d\.ts)|dist\/ui\/.+|dist\/openapi\/[\w-]+\.json)$/.test(p))).toEqual([])
    for (const version of ["2024-05-09", "2025-09-23", "2026-03-20"]) expect(paths).toContain(`dist/openapi/${version}.json`)
    for (const entry of ["cli.js", "index.js", "index.d.ts", "testing.js", "testing.d.ts", "client/index.js", "client/index.d.ts"]) expect(paths).toContain(`dist/src/${entry}`)
    expect(paths).toContain("dist/ui/index.html")
  })
})

const tsBlocks = (file: string) => [...readFileSync(join(ROOT, file), "utf8").matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!)

describe("installed into an empty project", () => {
  it("the property-testing examples of the README and docs/property-testing.md pass as pasted, with vitest's defaults", async () => {
    const readme = tsBlocks("README.md").find((b) => b.includes('from "custody-sim/testing"'))!
    const docs = tsBlocks("docs/property-testing.md").find((b) => b.includes("class DepositCreditor"))!
    writeFileSync(join(project, "readme-example.test.ts"), readme)
    writeFileSync(join(project, "docs-example.test.ts"), docs)
    const vitest = join(project, "node_modules", "vitest", "vitest.mjs")
    const r = await run(process.execPath, [vitest, "run", "--reporter=dot"], { cwd: project, env: { ...process.env, CI: "", NODE_OPTIONS: "" } }).catch(
      (e: { stdout: string; stderr: string }) => ({ stdout: e.stdout, stderr: e.stderr }),
    )
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
      JSON.stringify({ compilerOptions: { module: "NodeNext", moduleResolution: "NodeNext", target: "ES2022", strict: true, noEmit: true, skipLibCheck: true, types: [] }, files: ["types.ts"] }),
    )
    const tsc = join(ROOT, "node_modules", "typescript", "bin", "tsc")
    const r = await run(process.execPath, [tsc, "-p", "tsconfig.json"], { cwd: project }).catch((e: { stdout: string }) => ({ stdout: e.stdout, failed: true }))
    expect(r).toEqual({ stdout: "", stderr: "" })
  }, 120_000)

  it("npx custody-sim serve starts the simulator, and a signed call with the printed credentials answers", async () => {
    const child = spawn("npx", ["--offline", "custody-sim", "serve", "--store", "memory", "--port", "0"], { cwd: project, detached: true, stdio: ["ignore", "pipe", "pipe"] })
    let out = ""
    child.stdout.on("data", (d: Buffer) => (out += d.toString()))
    child.stderr.on("data", (d: Buffer) => (out += d.toString()))
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on("data", () => {
          const m = /listening on (http:\/\/\S+)/.exec(out)
          if (m !== null) resolve(m[1]!)
        })
        child.once("exit", (code) => reject(new Error(`exited with ${code}: ${out}`)))
      })
      const line = (label: string) => new RegExp(`^${label}: (.*)$`, "m").exec(out)?.[1] ?? ""
      const headers = signRequest({ key: line("api key"), secret: line("api secret"), passphrase: line("api passphrase") }, { method: "GET", url: "/vaults", body: "" })
      const res = await fetch(`${url}/vaults`, { headers })
      expect(res.status).toBe(200)
      expect(((await res.json()) as { data: { items: Array<unknown> } }).data.items).toHaveLength(2)
    } finally {
      process.kill(-child.pid!, "SIGTERM")
    }
  }, 60_000)
})
