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
    bare: { type: "boolean", default: false },
    child: { type: "boolean", default: false },
  },
})
const version = positionals.includes("2024-05-09") ? "2024-05-09" : "2026-03-20"
const routes = {
  "address-balance": (b: { vaultId: string; address: string }) => `/vaults/${b.vaultId}/addresses/${b.address}/balance`,
  "address-assets": (b: { vaultId: string; address: string }) => `/vaults/${b.vaultId}/ethereum/addresses/${b.address}/assets`,
  "vault-assets": (b: { vaultId: string }) => `/vaults/${b.vaultId}/assets`,
  vaults: () => "/vaults",
} as const
const route = (Object.keys(routes) as Array<keyof typeof routes>).find((r) => positionals.includes(r)) ?? "address-balance"
const unknown = positionals.filter((p) => p !== version && p !== route)
if (unknown.length > 0) {
  process.stderr.write(
    `unknown argument ${JSON.stringify(unknown[0])}: a route (${Object.keys(routes).join(", ")}) or a version (2024-05-09, 2026-03-20)\n`,
  )
  process.exit(2)
}
if (route === "address-balance" && version === "2024-05-09") {
  // An unknown route at 2024-05-09: the profile would be of 404 answers.
  process.stderr.write("address-balance exists from 2026-03-20 on; its 2024-05-09 predecessor is address-assets (#8)\n")
  process.exit(2)
}
const seconds = count("seconds", values.seconds)
const top = count("top", values.top)
const out = values.out

const child = async () => {
  const { startFundedBench } = await import("./lib/funded.js")
  const { bareHono, serveLocal, startLoadGenerator } = await import("./lib/http.js")
  const { buildRequest } = await import("./lib/requests.js")
  const bench = await startFundedBench()
  const request = { method: "GET", url: routes[route](bench) }
  const sign = version === "2024-05-09" ? bench.creds : bench.creds2026
  let fetchHandler = bench.app.fetch
  if (values.bare) {
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
  const load = (ms: number) =>
    generator.run({ origin: served.origin, request, sign, connections: 10, pipelining: 1, durationMs: ms, firstN: 1 })
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
    if (r.non2xx > 0)
      throw new Error(
        `GET ${request.url} at ${version}: ${r.non2xx} of ${r.ok + r.non2xx} answers were not 2xx (${JSON.stringify(r.statusCodes)}): not a profile of the read`,
      )
    if (out !== "") writeFileSync(out, JSON.stringify(profile))
    console.log(
      `GET ${route} at ${version}${values.bare ? " (bare route)" : ""}: ${r.perSecond.toFixed(0)} req/s, ${r.ok} answered (${r.non2xx} non-2xx), server CPU ${((cpu.user + cpu.system) / r.ok).toFixed(1)} µs/request with the profiler on, p99 ${r.latencyP99} ms\n`,
    )
    console.log(summarise(profile, top))
  } finally {
    await generator.close()
    await served.close()
    await bench.close()
  }
}

if (values.child) await child()
else runCompiled("profile-read", args, out)
