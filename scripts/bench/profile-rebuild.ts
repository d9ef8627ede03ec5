// A CPU profile of a rebuild of every read model from the memory store or from a SQLite file, as the replay benchmark
// runs it (the same generated log, openReplayed; from SQLite each rebuild opens the file afresh, as a restart does):
// one untimed rebuild to warm up, then timed rebuilds, the last one profiled by the inspector. Prints the rebuild's
// events per CPU-second and the top frames; the whole profile goes to --out.
//
//   npx tsx scripts/bench/profile-rebuild.ts [--store memory|sqlite] [--events 300000] [--rounds 2] [--top 30] [--out rebuild.cpuprofile]
//   npx tsx scripts/bench/profile-rebuild.ts --folds [--events 1000000] [--rounds 1] [--top 30]
//
// --folds profiles the folds alone: `ReadModels.apply` over the memory store's events (pages of 250, as the runner
// reads them), no simulator, no store read; it also prints each frame's self time in nanoseconds per event, the
// figure to compare between runs of different sizes (a frame whose time per event grows with the log is one whose
// cost is not constant per event). Run each size in a process of its own: two million-event heaps in one process
// are not what a rebuild sees. Beside the folds it times, in the same process, the floor (each event's position and
// metadata seq) and the limit (every field the folds read of each event, and nothing else): the fastest a fold could
// be without changing how the memory store holds events.
//
// The script runs a tsc-compiled copy of itself (lib/cpu-profile.ts says why).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { Session } from "node:inspector/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { parseArgs } from "node:util"
import { count } from "./lib/flags.js"
import { frameKey, runCompiled, summarise, type Profile } from "./lib/cpu-profile.js"

const args = process.argv.slice(2)
const { values } = parseArgs({
  args,
  options: {
    events: { type: "string", default: "300000" },
    rounds: { type: "string", default: "2" },
    top: { type: "string", default: "30" },
    out: { type: "string", default: "" },
    store: { type: "string", default: "memory" },
    folds: { type: "boolean", default: false },
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
if (values.folds && fromSqlite) {
  process.stderr.write("--folds reads the memory store's events: it takes no --store sqlite\n")
  process.exit(2)
}

const child = async () => {
  const { openReplayed } = await import("../../src/simulator.js")
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
    lines.push(
      `round ${r + 1}: ${Math.round(total / t.wall).toLocaleString("en-US")} events/s, ${Math.round(total / t.cpu).toLocaleString("en-US")} per CPU-second${t.profile === undefined ? "" : " (profiled)"}`,
    )
  }
  const profile = last!
  if (out !== "") writeFileSync(out, JSON.stringify(profile))
  console.log(`rebuild of ${total.toLocaleString("en-US")} events from the ${values.store} store\n${lines.join("\n")}\n`)
  console.log(summarise(profile, top))
}

/** Self time per frame in nanoseconds per event, highest first. */
const perEvent = (p: Profile, total: number, count: number): string => {
  const byId = new Map(p.nodes.map((n) => [n.id, n]))
  const self = new Map<string, number>()
  p.samples.forEach((id, i) => {
    const k = frameKey(byId.get(id)!.callFrame)
    self.set(k, (self.get(k) ?? 0) + (p.timeDeltas[i] ?? 0))
  })
  const rows = [...self].sort((a, b) => b[1] - a[1]).slice(0, count)
  return `self time per event (ns):\n${rows.map(([k, us]) => `${((us * 1000) / total).toFixed(1).padStart(8)}  ${k}`).join("\n")}`
}

const foldsChild = async () => {
  const { Effect } = await import("effect")
  const { ReadModels } = await import("../../src/projections/read-models.js")
  const { makeMemoryStore } = await import("../../src/store/memory.js")
  const { planLedgerLog, writeLedgerLog } = await import("./lib/ledger-log.js")
  const { fullGc, median, sleep } = await import("./lib/stats.js")
  const plan = await planLedgerLog(Math.min(1000, Math.max(10, Math.floor(events / 1000))))
  const store = makeMemoryStore()
  const total = await writeLedgerLog(store, plan, events)
  const session = new Session()
  session.connect()
  await session.post("Profiler.enable")
  await session.post("Profiler.setSamplingInterval", { interval: 200 })
  const cpu = (c0: NodeJS.CpuUsage) => {
    const c = process.cpuUsage(c0)
    return (c.user + c.system) / 1e6
  }
  // The memory store's read is synchronous: a page costs what the runner's `yield*` of it costs, not a promise.
  const page = (from: number) => Effect.runSync(store.readAll({ fromPosition: BigInt(from + 1), maxCount: 250 }))
  // The floor: the same pages, and of each event only its position and its metadata's seq (what any fold reads first).
  // Each timed pass starts from a full collection whose sweeping (on the collector's threads, in the process's CPU
  // time) is over.
  const settle = async () => {
    fullGc()
    await sleep(1000)
  }
  const walk = async () => {
    await settle()
    const c0 = process.cpuUsage()
    let last = 0n
    let seq = 0
    for (let from = 0; from < total; from += 250) {
      const events = page(from)
      for (let i = 0; i < events.length; i++) {
        const e = events[i]!
        if (e.position > last) last = e.position
        const s = e.metadata.seq
        if (typeof s === "number" && s > seq) seq = s
      }
    }
    if (last !== BigInt(total)) throw new Error(`walked to ${last}, not ${total}`)
    return cpu(c0)
  }
  // The limit: the same pages, and of each event every field the folds read of it, nothing else; of each string they
  // hash, compare or parse, its length and last character (which makes V8 flatten a string built by concatenation, as
  // the folds' first read of its characters does). A fold at no cost beyond reaching its inputs runs this fast.
  const reads = async () => {
    await settle()
    const c0 = process.cpuUsage()
    let x = 0
    const str = (s: unknown) => (typeof s === "string" && s.length > 0 ? s.length + s.charCodeAt(s.length - 1) : 0)
    for (let from = 0; from < total; from += 250) {
      const events = page(from)
      for (let i = 0; i < events.length; i++) {
        const e = events[i]!
        const m = e.metadata
        x += Number(e.position) + (typeof m.seq === "number" ? m.seq : 0) + (typeof m.at === "number" ? m.at : 0)
        const d = e.data as Record<string, unknown>
        switch (e.type) {
          case "ChainTxSubmitted":
            x +=
              str(d.chain) +
              str(d.transactionId) +
              str(d.kind) +
              str(d.to) +
              str(d.from) +
              str(d.assetId) +
              str(d.fee) +
              str(d.feePayer) +
              str(d.amount) +
              str(d.recordId)
            x +=
              (d.at as number) +
              (typeof d.vout === "number" ? d.vout : 0) +
              (d.failsInExecution === true ? 1 : 0) +
              (d.calls === undefined ? 0 : 1) +
              (d.operation === undefined ? 0 : 1)
            break
          case "ChainBlocksMined": {
            x += str(d.chain) + (d.toHeight as number) + (d.fromHeight as number) + (d.blockAt as number) + str(d.blockHash)
            const ids = d.transactionIds as ReadonlyArray<string>
            for (let k = 0; k < ids.length; k++) x += str(ids[k])
            break
          }
          case "DepositCredited":
            x +=
              str(d.blockchain) +
              str(d.network) +
              str(d.address) +
              str(d.assetId) +
              str(d.amount) +
              str(d.vaultId) +
              str(d.transactionId) +
              (typeof d.vout === "number" ? d.vout : 0)
            break
          default:
            break
        }
      }
    }
    if (x === 0) throw new Error("read nothing")
    return cpu(c0)
  }
  const fold = async (profiled: boolean) => {
    await settle()
    let models = new ReadModels()
    if (profiled) await session.post("Profiler.start")
    const c0 = process.cpuUsage()
    const t0 = performance.now()
    for (let from = 0; from < total; from += 250) {
      const events = page(from)
      for (let i = 0; i < events.length; i++) models.apply(events[i]!)
    }
    const wall = (performance.now() - t0) / 1000
    const c = cpu(c0)
    const profile = profiled ? ((await session.post("Profiler.stop")) as { profile: Profile }).profile : undefined
    if (models.position !== BigInt(total)) throw new Error(`folded to ${models.position}, not ${total}`)
    models = new ReadModels()
    return { wall, cpu: c, profile }
  }
  await walk()
  await reads()
  await fold(false)
  const k = (x: number) => `${Math.round(x / 1000).toLocaleString("en-US")}k`
  const lines: Array<string> = []
  const ratios: Array<number> = []
  let last: Profile | undefined
  for (let r = 0; r < rounds; r++) {
    const w = await walk()
    const l = await reads()
    const t = await fold(r === rounds - 1)
    last = t.profile
    ratios.push(w / t.cpu)
    const ns = (s: number) => `${Math.round((s * 1e9) / total)} ns/event`
    lines.push(
      `round ${r + 1}: floor ${k(total / w)} per CPU-second (${ns(w)}); limit ${k(total / l)} (${ns(l)}); folds ${k(total / t.cpu)} per CPU-second (${ns(t.cpu)}), ${k(total / t.wall)} events/s${t.profile === undefined ? "" : " (profiled)"}; folds at ${(w / t.cpu).toFixed(3)}x the floor, ${(l / t.cpu).toFixed(3)}x the limit`,
    )
  }
  if (out !== "") writeFileSync(out, JSON.stringify(last!))
  console.log(`folds alone over ${total.toLocaleString("en-US")} events of the memory store\n${lines.join("\n")}`)
  console.log(`folds against the floor, median of the rounds: ${median(ratios).toFixed(3)}x\n`)
  console.log(perEvent(last!, total, top))
  console.log(`\n${summarise(last!, top)}`)
}

if (values.child) await (values.folds ? foldsChild() : child())
else runCompiled("profile-rebuild", args, out)
