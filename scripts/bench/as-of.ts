// An as-of balance read (#8 with x-sim-as-of) against a 1,000,000-event log, in process: p99 latency of
// app.fetch (budget ≤ 2 ms; absolute: there is no fair baseline for "the same answer without history").
// Run alone: `npx tsx scripts/bench/as-of.ts [--quick] [--events N]`.
import { closeSync, openSync, readSync } from "node:fs"
import { PerformanceObserver, type PerformanceEntry } from "node:perf_hooks"
import { loadavg } from "node:os"
import { pathToFileURL } from "node:url"
import { createApp } from "../../src/api/app.js"
import { signRequest } from "../../src/client/signing.js"
import { openReplayed } from "../../src/simulator.js"
import { makeMemoryStore } from "../../src/store/memory.js"
import { planLedgerLog, writeLedgerLog } from "./lib/ledger-log.js"
import { fullGc, median, quantile } from "./lib/stats.js"
import { absoluteAtMost, type Benchmark, type Measurement } from "./lib/types.js"

export interface AsOfFigures {
  readonly events: number
  readonly requests: number
  /** Milliseconds per request (app.fetch and reading the body), position-based and time-based as-of. */
  readonly position: { readonly p50: number; readonly p99: number; readonly max: number }
  readonly time: { readonly p50: number; readonly p99: number; readonly max: number }
  /** Microseconds per HoldingsModel.balance(…, asOf) lookup, the read model alone. */
  readonly modelLookupP99Us: number
  /**
   * Requests slower than 1 ms: how many overlapped a garbage-collection pause (by kind), and how many spent more than
   * half their time runnable but off a core (the kernel's run-queue wait of the thread): they waited for the machine.
   */
  readonly slow: {
    readonly requests: number
    readonly duringGc: number
    readonly gcKinds: Readonly<Record<string, number>>
    readonly waitedForCore: number
  }
  /** The process's CPU time per request (ms), collector threads included, by position and by time. */
  readonly cpu: { readonly position: Summary; readonly time: Summary }
  /**
   * The request's thread as the kernel saw it (`/proc/self/task/<tid>/schedstat`, Linux only; undefined elsewhere):
   * `cpu`, its CPU time per request (ms); `onCore`, the wall time less the time it waited in the run queue (ms): the
   * code's part, collection pauses included, without the neighbours; `unwaited`, the wall time of only the requests
   * that never waited for a core, and how many those were.
   */
  readonly thread: { readonly position: ThreadFigures; readonly time: ThreadFigures } | undefined
  /** The 1-minute load average while the requests ran: lowest and highest. */
  readonly load: ReadonlyArray<number>
  /** Collection pauses while the requests ran: count and total ms by kind, and the longest. */
  readonly gc: Readonly<Record<string, { readonly count: number; readonly totalMs: number; readonly maxMs: number }>>
}

interface Summary {
  readonly p50: number
  readonly p99: number
  readonly max: number
}
interface ThreadFigures {
  readonly cpu: Summary
  readonly onCore: Summary
  readonly unwaited: Summary & { readonly requests: number }
}

/**
 * The calling thread's run time and run-queue wait (ns) from the kernel, read without allocating a file handle per
 * call (procfs answers a positioned read afresh). Undefined where there is no schedstat.
 */
const threadClock = (): { readonly read: (out: Float64Array) => void; readonly close: () => void } | undefined => {
  let fd: number
  try {
    // The main thread's id is the process id.
    fd = openSync(`/proc/self/task/${process.pid}/schedstat`, "r")
  } catch {
    return undefined
  }
  const buf = Buffer.alloc(128)
  return {
    read: (out) => {
      const n = readSync(fd, buf, 0, buf.length, 0)
      // "<run ns> <wait ns> <slices>\n": parsed by hand, no strings made.
      let field = 0
      let value = 0
      for (let i = 0; i < n && field < 2; i++) {
        const c = buf[i]!
        if (c === 32) {
          out[field++] = value
          value = 0
        } else value = value * 10 + (c - 48)
      }
    },
    close: () => closeSync(fd),
  }
}

// PerformanceEntry's detail.kind for gc entries (node:perf_hooks constants).
const gcKindName: Readonly<Record<number, string>> = { 1: "scavenge", 4: "mark-compact", 8: "incremental", 16: "weak-callbacks" }
const GC_FORCED = 4

// A tiny deterministic PRNG: the same positions every run.
const prng = (seed: number) => () => (seed = (Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0) / 2 ** 32

const summary = (xs: ReadonlyArray<number>): Summary => ({ p50: median(xs), p99: quantile(xs, 0.99), max: Math.max(...xs) })

export const measureAsOf = async (
  options: { events?: number; requests?: number; log?: (line: string) => void } = {},
): Promise<AsOfFigures> => {
  const events = options.events ?? 1_000_000
  const requests = options.requests ?? 5_000
  const log = options.log ?? (() => {})
  const plan = await planLedgerLog(Math.min(1000, Math.max(10, Math.floor(events / 1000))))
  log(`generating ${events.toLocaleString("en-US")} events…`)
  const store = makeMemoryStore()
  const total = await writeLedgerLog(store, plan, events)
  const sim = await openReplayed(store, null)
  const app = createApp(sim, { clientIp: () => "127.0.0.1", log: { error: () => {}, info: () => {} } })
  const head = Number(sim.models.position)
  // Positions after the workspace exists (every address is there), so each read answers its balances.
  const from = plan.prefix.length
  const first = sim.models.timeline.timeAt(BigInt(from))!
  const last = sim.models.timeline.headTime
  const random = prng(7)
  const pick = <T>(xs: ReadonlyArray<T>) => xs[Math.floor(random() * xs.length)]!
  // Every collection pause while the requests run, to tell the collector's pauses from the lookups' own time.
  const pauses: Array<PerformanceEntry> = []
  // The full collections the benchmark itself asks for (untimed, before each series) are left out.
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries())
      if ((((e as PerformanceEntry & { detail?: { flags?: number } }).detail?.flags ?? 0) & GC_FORCED) === 0) pauses.push(e)
  })
  observer.observe({ entryTypes: ["gc"] })
  const spans: Array<readonly [number, number, number]> = []
  const clock = threadClock()
  const s0 = new Float64Array(2)
  const s1 = new Float64Array(2)
  const loads: Array<number> = [loadavg()[0]!]
  interface Thread {
    readonly cpu: Array<number>
    readonly onCore: Array<number>
    readonly unwaited: Array<number>
  }
  const measure = async (header: () => string, cpuOut: Array<number>, thread: Thread) => {
    const out: Array<number> = []
    // Each request is built and signed just before it is timed: requests built ahead would survive collections
    // and make the scavenges during the timed ones copy them. After 500 untimed requests, a full collection: the
    // figure is a server's steady state, not the collector finishing the rebuild's work (which the first runs of
    // this benchmark timed: their p99 swung with where the rebuild's collections fell).
    for (let i = -500; i < requests; i++) {
      if (i === 0) fullGc()
      const url = `/vaults/${plan.vaultId}/ethereum/addresses/${pick(plan.addresses)}/assets`
      const headers = signRequest(plan.creds, { method: "GET", url, body: "" })
      const req = new Request(`http://bench${url}`, { method: "GET", headers: { ...headers, "x-sim-as-of": header() } })
      const c0 = process.cpuUsage()
      clock?.read(s0)
      const t0 = performance.now()
      const res = await app.fetch(req)
      await res.text()
      const ms = performance.now() - t0
      clock?.read(s1)
      const c = process.cpuUsage(c0)
      if (res.status !== 200) throw new Error(`as-of read answered ${res.status}`)
      if (i >= 0) {
        const cpuMs = (c.user + c.system) / 1000
        // The kernel's figures span the timed window and the two reads around it (a few µs).
        const waitedMs = clock === undefined ? 0 : (s1[1]! - s0[1]!) / 1e6
        out.push(ms)
        cpuOut.push(cpuMs)
        if (clock !== undefined) {
          thread.cpu.push((s1[0]! - s0[0]!) / 1e6)
          thread.onCore.push(Math.max(0, ms - waitedMs))
          if (waitedMs === 0) thread.unwaited.push(ms)
        }
        if (ms > 1) spans.push([t0, t0 + ms, waitedMs])
      }
      if (i % 500 === 0) loads.push(loadavg()[0]!)
    }
    return out
  }
  const cpuPosition: Array<number> = []
  const cpuTime: Array<number> = []
  const threadPosition: Thread = { cpu: [], onCore: [], unwaited: [] }
  const threadTime: Thread = { cpu: [], onCore: [], unwaited: [] }
  const byPosition = await measure(() => `position:${from + Math.floor(random() * (head + 1 - from))}`, cpuPosition, threadPosition)
  const byTime = await measure(() => `time:${Math.floor((first + random() * (last - first)) / 1000)}`, cpuTime, threadTime)
  clock?.close()
  const threadFigures = (t: Thread): ThreadFigures => ({
    cpu: summary(t.cpu),
    onCore: summary(t.onCore),
    unwaited: { ...summary(t.unwaited), requests: t.unwaited.length },
  })
  const thread = clock === undefined ? undefined : { position: threadFigures(threadPosition), time: threadFigures(threadTime) }
  const assetId = (plan.templates.credited.data as { assetId: string }).assetId
  const lookups: Array<number> = []
  for (let i = 0; i < 20_000; i++) {
    const a = pick(plan.addresses)
    const p = BigInt(from + Math.floor(random() * (head + 1 - from)))
    const t0 = performance.now()
    sim.models.holdings.balance("ethereum", "sepolia", a, assetId, p)
    lookups.push((performance.now() - t0) * 1000)
  }
  // gc entries reach the observer on a later turn of the loop.
  await new Promise((done) => setTimeout(done, 100))
  observer.disconnect()
  const kindOf = (e: PerformanceEntry) => gcKindName[(e as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind ?? 0] ?? "other"
  const gc: Record<string, { count: number; totalMs: number; maxMs: number }> = {}
  for (const e of pauses) {
    const g = (gc[kindOf(e)] ??= { count: 0, totalMs: 0, maxMs: 0 })
    g.count++
    g.totalMs += e.duration
    g.maxMs = Math.max(g.maxMs, e.duration)
  }
  const gcKinds: Record<string, number> = {}
  let duringGc = 0
  let waitedForCore = 0
  for (const [a, b, waitedMs] of spans) {
    if (waitedMs > (b - a) / 2) waitedForCore++
    const hit = pauses.find((e) => e.startTime < b && e.startTime + e.duration > a)
    if (hit !== undefined) {
      duringGc++
      gcKinds[kindOf(hit)] = (gcKinds[kindOf(hit)] ?? 0) + 1
    }
  }
  await sim.close()
  log(
    `slow requests (> 1 ms): ${spans.length}, ${duringGc} during a collection ${JSON.stringify(gcKinds)}, ${waitedForCore} with less than half their time on a core; pauses ${JSON.stringify(gc)}`,
  )
  log(
    `process CPU per request p99 (collector threads included): ${quantile(cpuPosition, 0.99).toFixed(3)} ms by position, ${quantile(cpuTime, 0.99).toFixed(3)} ms by time`,
  )
  if (thread !== undefined)
    for (const [name, t] of [
      ["position", thread.position],
      ["time", thread.time],
    ] as const)
      log(
        `by ${name}, the request's thread: CPU p99 ${t.cpu.p99.toFixed(3)} ms; wall less run-queue wait p99 ${t.onCore.p99.toFixed(3)} ms; wall p99 of the ${t.unwaited.requests} requests that never waited for a core ${t.unwaited.p99.toFixed(3)} ms`,
      )
  log(
    `wall: position p99 ${quantile(byPosition, 0.99).toFixed(3)} ms, time p99 ${quantile(byTime, 0.99).toFixed(3)} ms; load average ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}`,
  )
  return {
    events: total,
    requests,
    position: summary(byPosition),
    time: summary(byTime),
    modelLookupP99Us: quantile(lookups, 0.99),
    slow: { requests: spans.length, duringGc, gcKinds, waitedForCore },
    cpu: { position: summary(cpuPosition), time: summary(cpuTime) },
    thread,
    load: [Math.min(...loads), Math.max(...loads)],
    gc,
  }
}

export const asOfBalanceRead: Benchmark = {
  name: "as-of-balance-read",
  description: "p99 ms of GET #8 with x-sim-as-of (random positions) through app.fetch in process, over a 1M-event log",
  budget: absoluteAtMost(2, "ms"),
  run: async (o): Promise<Measurement> => {
    const f = await measureAsOf({ events: o.quick ? 100_000 : 1_000_000, requests: o.quick ? 1_000 : 5_000, log: o.log })
    return {
      subject: f.position.p99,
      unit: "ms",
      note: `${f.events.toLocaleString("en-US")} events, ${f.requests} requests; time-based p99 ${f.time.p99.toFixed(3)} ms; model lookup p99 ${f.modelLookupP99Us.toFixed(2)} µs`,
      details: { p50: f.position.p50, max: f.position.max, timeP50: f.time.p50, timeP99: f.time.p99, modelLookupP99Us: f.modelLookupP99Us },
    }
  },
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const quick = process.argv.includes("--quick")
  const i = process.argv.indexOf("--events")
  const f = await measureAsOf({
    events: i > 0 ? Number(process.argv[i + 1]) : quick ? 100_000 : 1_000_000,
    requests: quick ? 1_000 : 5_000,
    log: (l) => process.stderr.write(`${l}\n`),
  })
  process.stdout.write(`${JSON.stringify(f, null, 2)}\n`)
}
