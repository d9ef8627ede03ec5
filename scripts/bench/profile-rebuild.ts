// A CPU profile of a rebuild of every read model from the memory store, as the replay benchmark runs it (the same
// generated log, openReplayed): one untimed rebuild to warm up, then rebuilds profiled by the inspector. Prints the
// rebuild's events per CPU-second and the top frames; the whole profile goes to --out.
//
//   npx tsx scripts/bench/profile-rebuild.ts [--events 300000] [--rounds 2] [--top 30] [--out rebuild.cpuprofile]
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
const events = Number(option("--events", "300000"))
const rounds = Number(option("--rounds", "2"))
const top = Number(option("--top", "30"))
const out = option("--out", "")

const child = async () => {
  const { openReplayed } = await import("../../src/scenario/replay.js")
  const { makeMemoryStore } = await import("../../src/store/memory.js")
  const { LOG_SEED, planLedgerLog, writeLedgerLog } = await import("./lib/ledger-log.js")
  const { fullGc } = await import("./lib/stats.js")
  const plan = await planLedgerLog(Math.min(1000, Math.max(10, Math.floor(events / 1000))))
  const store = makeMemoryStore()
  const total = await writeLedgerLog(store, plan, events)
  const rebuild = async () => {
    fullGc()
    const c0 = process.cpuUsage()
    const t0 = performance.now()
    const sim = await openReplayed(store, LOG_SEED)
    const wall = (performance.now() - t0) / 1000
    const c = process.cpuUsage(c0)
    await sim.close()
    return { wall, cpu: (c.user + c.system) / 1e6 }
  }
  await rebuild()
  const session = new Session()
  session.connect()
  await session.post("Profiler.enable")
  await session.post("Profiler.setSamplingInterval", { interval: 200 })
  await session.post("Profiler.start")
  const lines: Array<string> = []
  for (let r = 0; r < rounds; r++) {
    const t = await rebuild()
    lines.push(`round ${r + 1}: ${Math.round(total / t.wall).toLocaleString("en-US")} events/s, ${Math.round(total / t.cpu).toLocaleString("en-US")} per CPU-second (profiler on)`)
  }
  const { profile } = (await session.post("Profiler.stop")) as { profile: Profile }
  if (out !== "") writeFileSync(out, JSON.stringify(profile))
  console.log(`rebuild of ${total.toLocaleString("en-US")} events from the memory store\n${lines.join("\n")}\n`)
  console.log(summarise(profile, top))
}

if (args.includes("--child")) await child()
else runCompiled("profile-rebuild", args, out)
