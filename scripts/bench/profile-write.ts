// A CPU profile of the write path under load: signed POST single-transfer creating requests (SQLite store, manual
// approval, as `http-post-single-transfer` runs it), served on 127.0.0.1, autocannon in a child process, the
// server's thread sampled by the inspector after a warm-up. Prints the server's CPU per request and the top frames
// (self time, and inclusive time of our own code); the whole profile goes to --out for a flame graph (Chrome
// DevTools or speedscope open .cpuprofile files).
//
//   npx tsx scripts/bench/profile-write.ts [2024-05-09|2026-03-20] [--seconds 8] [--top 25] [--out write.cpuprofile]
//
// The script runs a tsc-compiled copy of itself (lib/cpu-profile.ts says why).
import { writeFileSync } from "node:fs"
import { Session } from "node:inspector/promises"
import { parseArgs } from "node:util"
import { count } from "./lib/flags.js"
import { runCompiled, summarise, type Profile } from "./lib/cpu-profile.js"

const args = process.argv.slice(2)
const { values, positionals } = parseArgs({
  args,
  allowPositionals: true,
  options: {
    seconds: { type: "string", default: "8" },
    top: { type: "string", default: "25" },
    out: { type: "string", default: "" },
    child: { type: "boolean", default: false },
  },
})
const versions = ["2024-05-09", "2026-03-20"]
const unknown = positionals.filter((p) => !versions.includes(p))
if (unknown.length > 0) {
  process.stderr.write(`unknown argument ${JSON.stringify(unknown[0])}: a version (${versions.join(", ")})\n`)
  process.exit(2)
}
const version = positionals.includes("2026-03-20") ? "2026-03-20" : "2024-05-09"
const seconds = count("seconds", values.seconds)
const top = count("top", values.top)
const out = values.out

const child = async () => {
  // Imported here: the parent (under tsx) only compiles and starts this copy.
  const { startFundedBench } = await import("./lib/funded.js")
  const { serveLocal, startLoadGenerator } = await import("./lib/http.js")
  const bench = await startFundedBench({ store: "sqlite", approval: "manual" })
  const served = await serveLocal(bench.app.fetch)
  const transfer = {
    vaultAccountId: bench.vaultAccountId,
    assetId: bench.ethId,
    fromAddress: bench.address,
    toAddress: "0x742d35Cc6634C0532925a3b844Bc454e4438f44e",
    amount: "0.0001",
    feePriority: "slow",
  }
  const item = version === "2024-05-09" ? transfer : { ...transfer, note: "bench", maxFee: "0.001" }
  const request = {
    method: "POST",
    url: `/vaults/${bench.vaultId}/transaction-requests/single-transfer`,
    body: JSON.stringify({ data: { item } }),
  }
  const generator = await startLoadGenerator()
  const load = (ms: number) =>
    generator.run({
      origin: served.origin,
      request,
      sign: version === "2024-05-09" ? bench.creds : bench.creds2026,
      connections: 10,
      pipelining: 1,
      durationMs: ms,
      firstN: 1,
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
    await generator.close()
    await served.close()
    await bench.close()
  }
}

if (values.child) await child()
else runCompiled("profile-write", args, out)
