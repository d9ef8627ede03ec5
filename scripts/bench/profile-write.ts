// A CPU profile of the write path under load: signed POST single-transfer creating requests (SQLite store, manual
// approval, as `http-post-single-transfer` runs it), served on 127.0.0.1, autocannon in a child process, the
// server's thread sampled by the inspector after a warm-up. Prints the server's CPU per request and the top frames
// (self time, and inclusive time of our own code); the whole profile goes to --out for a flame graph (Chrome
// DevTools or speedscope open .cpuprofile files).
//
//   npx tsx scripts/bench/profile-write.ts [2024-05-09|2026-03-20] [--seconds 8] [--top 25] [--out write.cpuprofile]
//
// Under tsx every frame is nameless (esbuild's keepNames wraps each function), so the script compiles src/ and
// scripts/ with tsc into a temporary directory first and runs that copy with plain node.
import { execFileSync, fork, spawnSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { Session } from "node:inspector/promises"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { fileURLToPath } from "node:url"

const args = process.argv.slice(2)
const option = (name: string, fallback: string) => {
  const i = args.indexOf(name)
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1]! : fallback
}
const version = args.includes("2026-03-20") ? "2026-03-20" : "2024-05-09"
const seconds = Number(option("--seconds", "8"))
const top = Number(option("--top", "25"))
const out = option("--out", "")

interface ProfileNode {
  readonly id: number
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number }
  readonly children?: ReadonlyArray<number>
}
interface Profile {
  readonly nodes: ReadonlyArray<ProfileNode>
  readonly samples: ReadonlyArray<number>
  readonly timeDeltas: ReadonlyArray<number>
}

/** Self and inclusive time per frame (function, file, line), as shares of the samples. */
const summarise = (p: Profile, count: number): string => {
  const byId = new Map(p.nodes.map((n) => [n.id, n]))
  const parent = new Map<number, number>()
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
  const time = new Map<number, number>()
  p.samples.forEach((id, i) => time.set(id, (time.get(id) ?? 0) + (p.timeDeltas[i] ?? 0)))
  const total = [...time.values()].reduce((a, b) => a + b, 0)
  const key = (n: ProfileNode) =>
    `${n.callFrame.functionName || "(anonymous)"} ${n.callFrame.url.replace(/^.*?\/(node_modules|src|scripts)\//, "$1/")}${n.callFrame.url === "" ? "" : `:${n.callFrame.lineNumber + 1}`}`
  const self = new Map<string, number>()
  const inclusive = new Map<string, number>()
  for (const [id, t] of time) {
    const k = key(byId.get(id)!)
    self.set(k, (self.get(k) ?? 0) + t)
    const seen = new Set<string>()
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const ck = key(byId.get(cur)!)
      if (!seen.has(ck)) inclusive.set(ck, (inclusive.get(ck) ?? 0) + t)
      seen.add(ck)
    }
  }
  const rows = (m: Map<string, number>, filter: (k: string) => boolean) =>
    [...m]
      .filter(([k]) => filter(k))
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([k, t]) => `${((100 * t) / total).toFixed(1).padStart(6)}%  ${k}`)
      .join("\n")
  return `self time (share of ${(total / 1000).toFixed(0)} ms sampled):\n${rows(self, () => true)}\n\ninclusive time, src/ only:\n${rows(inclusive, (k) => k.includes(" src/"))}`
}

const child = async () => {
  // Imported here: the parent (under tsx) only compiles and starts this copy.
  const { startFundedBench } = await import("./lib/funded.js")
  const { serveLocal } = await import("./lib/http.js")
  const bench = await startFundedBench({ store: "sqlite", approval: "manual" })
  const served = await serveLocal(bench.app.fetch)
  const transfer = { vaultAccountId: bench.vaultAccountId, assetId: bench.ethId, fromAddress: bench.address, toAddress: "0x742d35Cc6634C0532925a3b844Bc454e4438f44e", amount: "0.0001", feePriority: "slow" }
  const item = version === "2024-05-09" ? transfer : { ...transfer, note: "bench", maxFee: "0.001" }
  const request = { method: "POST", url: `/vaults/${bench.vaultId}/transaction-requests/single-transfer`, body: JSON.stringify({ data: { item } }) }
  // The compiled load generator (http.ts's startLoadGenerator forks the .ts file, for tsx).
  const generator = fork(fileURLToPath(new URL("./lib/load-generator.js", import.meta.url)), ["--bench-load-generator"], { stdio: ["ignore", "inherit", "inherit", "ipc"] })
  await new Promise<void>((ready) => generator.on("message", (m: { ready?: boolean }) => m.ready === true && ready()))
  let id = 0
  const load = (ms: number) =>
    new Promise<{ ok: number; perSecond: number; non2xx: number; latencyP99: number }>((done, fail) => {
      const job = ++id
      const on = (m: { ok: boolean; id?: number; result?: { id: number; ok: number; perSecond: number; non2xx: number; latencyP99: number }; error?: string }) => {
        if ((m.result?.id ?? m.id) !== job) return
        generator.off("message", on)
        if (m.ok && m.result !== undefined) done(m.result)
        else fail(new Error(m.error))
      }
      generator.on("message", on)
      generator.send({ id: job, origin: served.origin, request, sign: version === "2024-05-09" ? bench.creds : bench.creds2026, connections: 10, pipelining: 1, durationMs: ms, firstN: 1 })
    })
  try {
    await load(2_000)
    const session = new Session()
    session.connect()
    await session.post("Profiler.enable")
    await session.post("Profiler.setSamplingInterval", { interval: 200 })
    await session.post("Profiler.start")
    const cpu0 = process.cpuUsage()
    const r = await load(seconds * 1_000)
    const cpu = process.cpuUsage(cpu0)
    const { profile } = (await session.post("Profiler.stop")) as { profile: Profile }
    if (out !== "") writeFileSync(out, JSON.stringify(profile))
    console.log(
      `single-transfer ${version}, SQLite: ${r.perSecond.toFixed(0)} req/s, ${r.ok} created (${r.non2xx} non-2xx), server CPU ${((cpu.user + cpu.system) / r.ok).toFixed(0)} µs/request with the profiler on, p99 ${r.latencyP99} ms\n`,
    )
    console.log(summarise(profile, top))
  } finally {
    generator.kill()
    await served.close()
    await bench.close()
  }
}

const parent = () => {
  const root = resolve(fileURLToPath(new URL("../..", import.meta.url)))
  const dir = mkdtempSync(join(tmpdir(), "custody-sim-profile-"))
  try {
    const config = join(dir, "tsconfig.json")
    writeFileSync(
      config,
      JSON.stringify({
        extends: join(root, "tsconfig.json"),
        compilerOptions: { noEmit: false, noCheck: true, sourceMap: false, declaration: false, outDir: join(dir, "out"), rootDir: root, typeRoots: [join(root, "node_modules/@types")] },
        include: [join(root, "src"), join(root, "scripts")],
        exclude: [join(root, "src/ui")],
      }),
    )
    execFileSync(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", config], { stdio: "inherit" })
    symlinkSync(join(root, "node_modules"), join(dir, "out/node_modules"), "dir")
    writeFileSync(join(dir, "out/package.json"), readFileSync(join(root, "package.json")))
    const script = join(dir, "out/scripts/bench/profile-write.js")
    const r = spawnSync(process.execPath, [script, "--child", ...args.map((a) => (a === out && out !== "" ? resolve(out) : a))], { stdio: "inherit" })
    process.exitCode = r.status ?? 1
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

if (args.includes("--child")) await child()
else parent()
