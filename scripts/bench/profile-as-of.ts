// Where an as-of balance read by time allocates: the sampling heap profiler over as-of reads (#8 with
// x-sim-as-of: time) through app.fetch in process, as `as-of.ts` makes them, on a log of --events events. Every
// sampled allocation counts, also those a scavenge collected (what makes the scavenges): prints the bytes per
// request and the top allocating frames.
//
//   npx tsx scripts/bench/profile-as-of.ts [--events 200000] [--requests 5000] [--top 25] [--position]
//
// The script runs a tsc-compiled copy of itself (lib/cpu-profile.ts says why).
import { Session } from "node:inspector/promises"
import { parseArgs } from "node:util"
import { count } from "./lib/flags.js"
import { runCompiled } from "./lib/cpu-profile.js"

const args = process.argv.slice(2)
const { values } = parseArgs({
  args,
  options: {
    events: { type: "string", default: "200000" },
    requests: { type: "string", default: "5000" },
    top: { type: "string", default: "25" },
    position: { type: "boolean", default: false },
    child: { type: "boolean", default: false },
  },
})
const events = count("events", values.events)
const requests = count("requests", values.requests)
const top = count("top", values.top)

interface HeapNode {
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number }
  readonly selfSize: number
  readonly children: ReadonlyArray<HeapNode>
}

const child = async () => {
  const { createApp } = await import("../../src/api/app.js")
  const { signRequest } = await import("../../src/client/signing.js")
  const { openReplayed } = await import("../../src/simulator.js")
  const { makeMemoryStore } = await import("../../src/store/memory.js")
  const { planLedgerLog, writeLedgerLog } = await import("./lib/ledger-log.js")
  const { fullGc } = await import("./lib/stats.js")
  const plan = await planLedgerLog(Math.min(1000, Math.max(10, Math.floor(events / 1000))))
  const store = makeMemoryStore()
  await writeLedgerLog(store, plan, events)
  const sim = await openReplayed(store, null)
  const app = createApp(sim, { clientIp: () => "127.0.0.1", log: { error: () => {}, info: () => {} } })
  const first = sim.models.timeline.timeAt(BigInt(plan.prefix.length))!
  const last = sim.models.timeline.headTime
  let seed = 7
  const random = () => (seed = (Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0) / 2 ** 32
  const byPosition = values.position
  const head = Number(sim.models.position)
  // Requests are built and signed before the profiler starts: only the app's own allocations are sampled.
  const build = (n: number) =>
    Array.from({ length: n }, () => {
      const url = `/vaults/${plan.vaultId}/ethereum/addresses/${plan.addresses[Math.floor(random() * plan.addresses.length)]!}/assets`
      const asOf = byPosition
        ? `position:${plan.prefix.length + Math.floor(random() * (head + 1 - plan.prefix.length))}`
        : `time:${Math.floor((first + random() * (last - first)) / 1000)}`
      return new Request(`http://bench${url}`, {
        method: "GET",
        headers: { ...signRequest(plan.creds, { method: "GET", url, body: "" }), "x-sim-as-of": asOf },
      })
    })
  const run = async (batch: ReadonlyArray<Request>) => {
    for (const req of batch) {
      const res = await app.fetch(req)
      if (res.status !== 200) throw new Error(`as-of read answered ${res.status}`)
      await res.text()
    }
  }
  await run(build(1_000))
  const timed = build(requests)
  fullGc()
  const session = new Session()
  session.connect()
  await session.post("HeapProfiler.enable")
  await session.post("HeapProfiler.startSampling", {
    samplingInterval: 512,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  })
  await run(timed)
  const { profile } = (await session.post("HeapProfiler.stopSampling")) as { profile: { head: HeapNode } }
  const self = new Map<string, number>()
  let total = 0
  const walk = (n: HeapNode) => {
    const url = n.callFrame.url.replace(/^.*?\/(node_modules|src|scripts)\//, "$1/")
    const k = `${n.callFrame.functionName || "(anonymous)"} ${url}${url === "" ? "" : `:${n.callFrame.lineNumber + 1}`}`
    self.set(k, (self.get(k) ?? 0) + n.selfSize)
    total += n.selfSize
    for (const c of n.children) walk(c)
  }
  walk(profile.head)
  console.log(
    `as-of by ${byPosition ? "position" : "time"}, ${events.toLocaleString("en-US")} events: ${(total / requests / 1024).toFixed(1)} KiB allocated per request (sampled)\n`,
  )
  for (const [k, b] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`${(b / requests).toFixed(0).padStart(7)} B  ${((100 * b) / total).toFixed(1).padStart(5)}%  ${k}`)
  await sim.close()
}

if (values.child) await child()
else runCompiled("profile-as-of", args, "")
