// A CPU profile of a rebuild of every read model from the memory store or from a SQLite file, as the replay benchmark
// runs it (the same generated log, openReplayed; from SQLite each rebuild opens the file afresh, as a restart does):
// one untimed rebuild to warm up, then timed rebuilds, the last one profiled by the inspector. Prints the rebuild's
// events per CPU-second and the top frames; the whole profile goes to --out.
//
//   npx tsx scripts/bench/profile-rebuild.ts [--store memory|sqlite] [--events 300000] [--rounds 2] [--top 30] [--out rebuild.cpuprofile]
//
// The script runs a tsc-compiled copy of itself (lib/cpu-profile.ts says why).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { Session } from "node:inspector/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { parseArgs } from "node:util"
import { count } from "./lib/flags.js"
import { runCompiled, summarise, type Profile } from "./lib/cpu-profile.js"

const args = process.argv.slice(2)
const { values } = parseArgs({
  args,
  options: {
    events: { type: "string", default: "300000" },
    rounds: { type: "string", default: "2" },
    top: { type: "string", default: "30" },
    out: { type: "string", default: "" },
    store: { type: "string", default: "memory" },
    child: { type: "boolean", default: false },
  },
})
const events = count("events", values.events)
const rounds = count("rounds", values.rounds)
const top = count("top", values.top)
const out = values.out
if (values.store !== "memory" && values.store !== "sqlite") {
  process.stderr.write(`--store takes memory or sqlite, not ${JSON.stringify(values.store)}\n`)
  process.exit(2)
}
const fromSqlite = values.store === "sqlite"

const child = async () => {
  const { openReplayed } = await import("../../src/event-log/replay.js")
  const { makeMemoryStore } = await import("../../src/store/memory.js")
  const { makeSqliteStore } = await import("../../src/store/sqlite.js")
  const { LOG_SEED, planLedgerLog, writeLedgerLog } = await import("./lib/ledger-log.js")
  const { fullGc } = await import("./lib/stats.js")
  const plan = await planLedgerLog(Math.min(1000, Math.max(10, Math.floor(events / 1000))))
  const dir = mkdtempSync(join(tmpdir(), "custody-sim-profile-rebuild-"))
  process.on("exit", () => rmSync(dir, { recursive: true, force: true }))
  const file = join(dir, "events.sqlite")
  // From SQLite, the log is written and the store closed before the rounds: no copy of the log stays in the heap.
  const memory = fromSqlite ? undefined : makeMemoryStore()
  let total: number
  if (memory === undefined) {
    const written = makeSqliteStore({ file })
    total = await writeLedgerLog(written, plan, events)
    written.close()
  } else total = await writeLedgerLog(memory, plan, events)
  const session = new Session()
  session.connect()
  await session.post("Profiler.enable")
  await session.post("Profiler.setSamplingInterval", { interval: 200 })
  // The profiler runs during the rebuild only: not the full collection before it, nor the simulator's closing.
  const rebuild = async (profiled: boolean) => {
    fullGc()
    if (profiled) await session.post("Profiler.start")
    const c0 = process.cpuUsage()
    const t0 = performance.now()
    const sim = await openReplayed(memory ?? makeSqliteStore({ file }), LOG_SEED)
    const wall = (performance.now() - t0) / 1000
    const c = process.cpuUsage(c0)
    const profile = profiled ? ((await session.post("Profiler.stop")) as { profile: Profile }).profile : undefined
    await sim.close()
    return { wall, cpu: (c.user + c.system) / 1e6, profile }
  }
  await rebuild(false)
  const lines: Array<string> = []
  let last: Profile | undefined
  for (let r = 0; r < rounds; r++) {
    const t = await rebuild(r === rounds - 1)
    last = t.profile
    lines.push(`round ${r + 1}: ${Math.round(total / t.wall).toLocaleString("en-US")} events/s, ${Math.round(total / t.cpu).toLocaleString("en-US")} per CPU-second${t.profile === undefined ? "" : " (profiled)"}`)
  }
  const profile = last!
  if (out !== "") writeFileSync(out, JSON.stringify(profile))
  console.log(`rebuild of ${total.toLocaleString("en-US")} events from the ${values.store} store\n${lines.join("\n")}\n`)
  console.log(summarise(profile, top))
}

if (values.child) await child()
else runCompiled("profile-rebuild", args, out)
