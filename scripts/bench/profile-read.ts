// A CPU profile of a signed read under load, as the read benchmarks run it (memory store, two funded assets at one
// address, frozen clock): the server's thread sampled by the inspector after a warm-up, autocannon in a child
// process. Prints the server's CPU per request and the top frames; the whole profile goes to --out.
//
//   npx tsx scripts/bench/profile-read.ts [address-balance|vault-assets|address-assets|vaults] [2024-05-09|2026-03-20]
//     [--seconds 8] [--top 25] [--out read.cpuprofile] [--bare]
//
// --bare profiles the benchmarks' baseline instead: a one-route Hono app answering the captured bytes.
//
// The script runs a tsc-compiled copy of itself (lib/cpu-profile.ts says why).
import { writeFileSync } from "node:fs"
import { Session } from "node:inspector/promises"
import { runCompiled, summarise, type Profile } from "./lib/cpu-profile.js"

const args = process.argv.slice(2)
const option = (name: string, fallback: string) => {
  const i = args.indexOf(name)
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1]! : fallback
}
const version = args.includes("2024-05-09") ? "2024-05-09" : "2026-03-20"
const routes = {
  "address-balance": (b: { vaultId: string; address: string }) => `/vaults/${b.vaultId}/addresses/${b.address}/balance`,
  "address-assets": (b: { vaultId: string; address: string }) => `/vaults/${b.vaultId}/ethereum/addresses/${b.address}/assets`,
  "vault-assets": (b: { vaultId: string }) => `/vaults/${b.vaultId}/assets`,
  vaults: () => "/vaults",
} as const
const route = (Object.keys(routes) as Array<keyof typeof routes>).find((r) => args.includes(r)) ?? "address-balance"
const seconds = Number(option("--seconds", "8"))
const top = Number(option("--top", "25"))
const out = option("--out", "")

const child = async () => {
  const { startFundedBench } = await import("./lib/funded.js")
  const { bareHono, serveLocal, startLoadGenerator } = await import("./lib/http.js")
  const { buildRequest } = await import("./lib/requests.js")
  const bench = await startFundedBench()
  const request = { method: "GET", url: routes[route](bench) }
  const sign = version === "2024-05-09" ? bench.creds : bench.creds2026
  let fetchHandler = bench.app.fetch
  if (args.includes("--bare")) {
    const built = buildRequest(request, sign)
    const res = await bench.app.request(built.path, { method: "GET", headers: built.headers })
    const headers: Record<string, string> = {}
    res.headers.forEach((v, k) => {
      if (k !== "content-length") headers[k] = v
    })
    const pattern = routes[route]({ vaultId: ":vaultId", address: ":address" })
    fetchHandler = bareHono("GET", pattern, { status: res.status, body: await res.text(), headers }).fetch
  }
  const served = await serveLocal(fetchHandler)
  const generator = await startLoadGenerator()
  const load = (ms: number) => generator.run({ origin: served.origin, request, sign, connections: 10, pipelining: 1, durationMs: ms, firstN: 1 })
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
      `GET ${route} at ${version}${args.includes("--bare") ? " (bare route)" : ""}: ${r.perSecond.toFixed(0)} req/s, ${r.ok} answered (${r.non2xx} non-2xx), server CPU ${((cpu.user + cpu.system) / r.ok).toFixed(1)} µs/request with the profiler on, p99 ${r.latencyP99} ms\n`,
    )
    console.log(summarise(profile, top))
  } finally {
    await generator.close()
    await served.close()
    await bench.close()
  }
}

if (args.includes("--child")) await child()
else runCompiled("profile-read", args, out)
