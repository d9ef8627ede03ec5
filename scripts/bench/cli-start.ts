// The built CLI's wall time: `custody-sim --help` and `custody-sim call GET /vaults` (against a running
// `serve`), each beside `node -e 0` in interleaved rounds, since node's own start-up is most of it and swings
// with the machine's load. Budget (issue): ≤ 0.8 s wall each; the ratio to a bare node start is reported too.
import { spawn, spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { median } from "./lib/stats.js"
import { absoluteAtMost, skip, type Benchmark, type Measurement } from "./lib/types.js"

const cli = join(dirname(fileURLToPath(import.meta.url)), "../../dist/src/cli.js")

const wallMs = (args: ReadonlyArray<string>, env: NodeJS.ProcessEnv = process.env): number => {
  const start = process.hrtime.bigint()
  const r = spawnSync(process.execPath, args, { env, stdio: ["ignore", "ignore", "pipe"] })
  const ms = Number(process.hrtime.bigint() - start) / 1e6
  if (r.status !== 0) throw new Error(`node ${args.join(" ")} exited ${r.status}: ${r.stderr.toString().slice(0, 300)}`)
  return ms
}

/** Starts `serve` on a free port with a fresh data dir; resolves once it answers. */
const startServe = async (dataDir: string) => {
  const child = spawn(process.execPath, [cli, "serve", "--port", "0", "--data-dir", dataDir, "--quiet"], {
    stdio: ["ignore", "pipe", "pipe"],
  })
  let out = ""
  child.stdout.on("data", (b: Buffer) => (out += b.toString()))
  child.stderr.on("data", (b: Buffer) => (out += b.toString()))
  const deadline = Date.now() + 60_000
  for (;;) {
    const m = /http:\/\/127\.0\.0\.1:(\d+)/.exec(out)
    if (m !== null) return { child, url: `http://127.0.0.1:${m[1]}` }
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill("SIGKILL")
      throw new Error(`serve did not start: ${out.slice(0, 500)}`)
    }
    await new Promise((done) => setTimeout(done, 50))
  }
}

export const cliStart: Benchmark = {
  name: "cli-start",
  description:
    "wall time of the built `custody-sim --help` and `custody-sim call GET /vaults`, median of interleaved runs beside `node -e 0`",
  budget: absoluteAtMost(800, "ms"),
  run: async (options): Promise<ReadonlyArray<Measurement> | ReturnType<typeof skip>> => {
    if (!existsSync(cli)) return skip("dist/src/cli.js is missing: run `npm run build` first")
    const dataDir = mkdtempSync(join(tmpdir(), "custody-sim-cli-bench-"))
    const serve = await startServe(dataDir)
    try {
      const rounds = options.quick ? 3 : 15
      const node: Array<number> = []
      const help: Array<number> = []
      const call: Array<number> = []
      const callArgs = [cli, "call", "GET", "/vaults", "--data-dir", dataDir, "--url", serve.url]
      wallMs(callArgs) // one warm-up: the file cache, not the figure
      for (let i = 0; i < rounds; i++) {
        node.push(wallMs(["-e", "0"]))
        help.push(wallMs([cli, "--help"]))
        call.push(wallMs(callArgs))
      }
      const base = median(node)
      options.log(
        `  node -e 0 ${base.toFixed(0)} ms, --help ${median(help).toFixed(0)} ms, call ${median(call).toFixed(0)} ms (${rounds} rounds)`,
      )
      return [
        {
          label: "--help",
          subject: median(help),
          baseline: base,
          unit: "ms",
          ratio: median(help) / base,
          samples: { subject: help, baseline: node },
          note: "ratio: × a bare `node -e 0`",
        },
        {
          label: "call GET /vaults",
          subject: median(call),
          baseline: base,
          unit: "ms",
          ratio: median(call) / base,
          samples: { subject: call, baseline: node },
          note: "ratio: × a bare `node -e 0`",
        },
      ]
    } finally {
      serve.child.kill("SIGTERM")
      await new Promise((done) => serve.child.once("exit", done))
      rmSync(dataDir, { recursive: true, force: true })
    }
  },
}
