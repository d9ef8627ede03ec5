// Signed GET /vaults with the request log on vs off, each server a `custody-sim serve` process of its own, as a
// user runs it: with the text log, with `--log-format json`, and with `--quiet`, each writing its stdout to a
// file. Two servers in one process shared an event loop and a collector, and a round's ratio followed whichever
// the collector or the scheduler hit: here nothing is shared but the machine.
//
// Each format runs in several processes (PROCESSES): on a shared machine one process keeps its slowness from
// round to round (its core, its neighbours, its memory layout, what its JIT made of the warm-up), and identical
// quiet servers read up to 1.13-1.46x apart, more than the log costs. Many short rounds, each loading every
// server once, the sides interleaved in a rotating order (the load generator is one child process, as in the other
// HTTP benchmarks); per round and server: the requests/s and the server process's own CPU time per request, read
// from the kernel (lib/serve-process.ts), which does not depend on how the client was scheduled.
// Per round a side's figure averages its processes: the mean of their requests/s, and their CPU over their
// requests. A figure is the median of the rounds' ratios, with their quartiles; each process's own median is
// printed, and so is the figure the processes' median per round would give (what this benchmark reported before).
// A fourth side, `control`, is `--quiet` again: quiet against quiet by the same method, the instrument's own
// error, reported beside every figure (an A/A control).
// Budget (issue #15): the log costs at most 10% of throughput, so ≥ 0.9× by requests/s and by CPU per request.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { startLoadGenerator } from "./lib/http.js"
import type { LoadResult } from "./lib/requests.js"
import { startServeProcess, type ServeProcess } from "./lib/serve-process.js"
import { fmt, median, quantile } from "./lib/stats.js"
import { ratioAtLeast, type Benchmark, type Measurement } from "./lib/types.js"

const fixture = {
  seed: "bench",
  vaults: [
    { name: "Test vault", type: "test", color: "#2E7D32" },
    { name: "Main vault", type: "main", color: "#1565C0" },
  ],
  apiKeys: [{ name: "bench", apiVersion: "2024-05-09", rateLimit: { perSecond: 1e9, burst: 1e9 } }],
}

type Side = "quiet" | "text" | "json" | "control"
const SIDES: ReadonlyArray<Side> = ["quiet", "text", "json", "control"]
const FLAGS: Record<Side, ReadonlyArray<string>> = {
  quiet: ["--quiet"],
  text: ["--log-format", "text"],
  json: ["--log-format", "json"],
  control: ["--quiet"],
}
/** Serve processes per side. */
const PROCESSES = 4
// Each rotation of the sides and of their reverse, in turn, so no side always comes first or follows the same one.
const ORDERS: ReadonlyArray<ReadonlyArray<Side>> = [SIDES, [...SIDES].reverse()].flatMap((order) =>
  order.map((_, k) => [...order.slice(k), ...order.slice(0, k)]),
)

interface Server {
  readonly side: Side
  /** 0 … PROCESSES-1 within its side. */
  readonly index: number
  readonly name: string
}
const SERVERS: ReadonlyArray<Server> = SIDES.flatMap((side) => Array.from({ length: PROCESSES }, (_, index) => ({ side, index, name: `${side}${index + 1}` })))

/**
 * A round's order: the sides interleaved (one process of each, in the round's order of sides, then the next
 * process of each), the processes' order rotated from round to round.
 */
const roundOrder = (round: number): ReadonlyArray<Server> => {
  const sides = ORDERS[round % ORDERS.length]!
  return Array.from({ length: PROCESSES }, (_, k) => (k + round) % PROCESSES).flatMap((index) =>
    sides.map((side) => SERVERS.find((s) => s.side === side && s.index === index)!),
  )
}

interface Window {
  readonly perSecond: number
  readonly ok: number
  /** The server process's CPU time per answered request, µs (undefined without /proc). */
  readonly cpuPerRequest: number | undefined
}

const sum = (xs: ReadonlyArray<number>) => xs.reduce((a, b) => a + b, 0)
const mean = (xs: ReadonlyArray<number>) => sum(xs) / xs.length

/** A side's figures over its processes' windows of one round: their mean requests/s, their CPU over their requests. */
interface Aggregate {
  readonly perSecond: (ws: ReadonlyArray<Window>) => number
  readonly cpu: (ws: ReadonlyArray<Window>) => number
}
const BY_MEAN: Aggregate = {
  perSecond: (ws) => mean(ws.map((w) => w.perSecond)),
  cpu: (ws) => sum(ws.map((w) => w.cpuPerRequest! * w.ok)) / sum(ws.map((w) => w.ok)),
}
/** The median process's figure instead: what this benchmark reported before, for comparison. */
const BY_MEDIAN: Aggregate = {
  perSecond: (ws) => median(ws.map((w) => w.perSecond)),
  cpu: (ws) => median(ws.map((w) => w.cpuPerRequest!)),
}
const quartiles = (xs: ReadonlyArray<number>) => `${quantile(xs, 0.25).toFixed(3)}–${quantile(xs, 0.75).toFixed(3)}`

/** Lines of the request log for `GET /vaults` answered 200, in either format. */
const loggedLines = (output: string): number =>
  (output.match(/^\S+ GET \/vaults 200 /gm)?.length ?? 0) + (output.match(/^\{"time":"[^"]+","method":"GET","path":"\/vaults","status":200,/gm)?.length ?? 0)

export const requestLog: Benchmark = {
  name: "request-log",
  description: `signed GET /vaults with the text / JSON request log on vs --quiet: ${PROCESSES} serve processes per format (and a second --quiet side, the A/A control), stdout to a file, short rotating rounds, the processes averaged per round, req/s and server CPU per request`,
  budget: ratioAtLeast(0.9),
  run: async (options): Promise<ReadonlyArray<Measurement>> => {
    const rounds = options.quick ? 2 : 20
    const windowMs = 400
    const warmupMs = options.quick ? 500 : 1_000
    const dir = mkdtempSync(join(tmpdir(), "custody-sim-request-log-"))
    const fixtureFile = join(dir, "fixture.json")
    writeFileSync(fixtureFile, JSON.stringify(fixture))
    const servers = new Map<Server, ServeProcess>()
    const gen = await startLoadGenerator()
    try {
      // Started a group at a time (one of each side): all the tsx start-ups at once on two cores take longer.
      for (let index = 0; index < PROCESSES; index++) {
        const group = SERVERS.filter((s) => s.index === index)
        const started = await Promise.allSettled(
          group.map((s) => startServeProcess(["--store", "memory", "--fixture", fixtureFile, ...FLAGS[s.side]], join(dir, `${s.name}.out`))),
        )
        group.forEach((s, i) => {
          const r = started[i]!
          if (r.status === "fulfilled") servers.set(s, r.value)
        })
        const failed = started.find((r) => r.status === "rejected")
        if (failed !== undefined) throw failed.reason
      }
      const answered = new Map<Server, number>(SERVERS.map((s) => [s, 0]))
      const load = async (s: Server, ms: number): Promise<Window> => {
        const server = servers.get(s)!
        const cpu0 = server.cpuMicros()
        const r: LoadResult = await gen.run({
          origin: server.origin,
          request: { method: "GET", url: "/vaults" },
          sign: server.credentials,
          connections: 10,
          pipelining: 1,
          durationMs: ms,
          firstN: 0,
        })
        const cpu1 = server.cpuMicros()
        if (r.non2xx > 0 || r.errors > 0 || r.timeouts > 0 || r.ok === 0)
          throw new Error(`${s.name}: ${r.ok} ok, ${r.non2xx} non-2xx ${JSON.stringify(r.statusCodes)}, ${r.errors} errors, ${r.timeouts} timeouts`)
        answered.set(s, answered.get(s)! + r.ok)
        return { perSecond: r.perSecond, ok: r.ok, cpuPerRequest: cpu0 !== undefined && cpu1 !== undefined ? (cpu1 - cpu0) / r.ok : undefined }
      }
      for (const s of SERVERS) await load(s, warmupMs)
      const windows = new Map<Server, Array<Window>>(SERVERS.map((s) => [s, []]))
      const loads: Array<number> = []
      const started = performance.now()
      for (let round = 0; round < rounds; round++) {
        for (const s of roundOrder(round)) windows.get(s)!.push(await load(s, windowMs))
        loads.push(loadavg()[0]!)
        const of = (side: Side) => SERVERS.filter((s) => s.side === side).map((s) => windows.get(s)![round]!)
        const perSecond = (side: Side) => BY_MEAN.perSecond(of(side))
        const cpu = (side: Side) => (of(side).every((w) => w.cpuPerRequest !== undefined) ? BY_MEAN.cpu(of(side)) : Number.NaN)
        const versus = (side: Side) =>
          `${side} ${fmt(perSecond(side))} ${fmt(cpu(side))} µs (×${(perSecond(side) / perSecond("quiet")).toFixed(3)}, CPU ×${(cpu("quiet") / cpu(side)).toFixed(3)})`
        options.log(
          `  round ${round + 1}/${rounds} (load ${loadavg()[0]!.toFixed(1)}): quiet ${fmt(perSecond("quiet"))} req/s ${fmt(cpu("quiet"))} µs CPU/req; ` +
            `${versus("text")}; ${versus("json")}; ${versus("control")}`,
        )
      }
      const seconds = (performance.now() - started) / 1000

      // The log was on: every answered request has its line (batches are written at most 25 ms after their first line).
      await new Promise((resolve) => setTimeout(resolve, 300))
      for (const s of SERVERS) {
        const lines = loggedLines(servers.get(s)!.output())
        const silent = FLAGS[s.side].includes("--quiet")
        if (silent ? lines !== 0 : lines < answered.get(s)!) throw new Error(`the ${s.name} server logged ${lines} GET /vaults lines for ${answered.get(s)} answered requests`)
      }

      /** Per round, a side's figure over its processes. */
      const perRound = (side: Side, figure: keyof Aggregate, by = BY_MEAN): Array<number> => {
        const of = SERVERS.filter((s) => s.side === side).map((s) => windows.get(s)!)
        return Array.from({ length: rounds }, (_, round) => by[figure](of.map((ws) => ws[round]!)))
      }
      /** Per round, the side's figure against the quiet side's, as a throughput ratio (≥ 1 is faster). */
      const ratios = (side: Side, figure: keyof Aggregate, by = BY_MEAN): Array<number> => {
        const q = perRound("quiet", figure, by)
        return perRound(side, figure, by).map((x, i) => (figure === "perSecond" ? x / q[i]! : q[i]! / x))
      }
      /** Each process's median over the rounds, and the spread between the side's processes (max/min). */
      const perProcess = (side: Side, figure: (w: Window) => number) => {
        const medians = SERVERS.filter((s) => s.side === side).map((s) => median(windows.get(s)!.map(figure)))
        return { medians, spread: Math.max(...medians) / Math.min(...medians) }
      }
      const processNote = (side: Side, figure: (w: Window) => number) => {
        const p = perProcess(side, figure)
        return `${side} ${p.medians.map(fmt).join(", ")} (×${p.spread.toFixed(3)})`
      }
      const perSecondOf = (w: Window) => w.perSecond
      const cpuOf = (w: Window) => w.cpuPerRequest!
      const cpuKnown = SERVERS.every((s) => windows.get(s)!.every((w) => w.cpuPerRequest !== undefined))
      for (const s of SERVERS)
        options.log(
          `  ${s.name.padEnd(9)} median ${fmt(median(windows.get(s)!.map(perSecondOf)))} req/s` +
            (cpuKnown ? `, ${fmt(median(windows.get(s)!.map(cpuOf)))} µs CPU/req` : ""),
        )
      const loadNote = `load ${fmt(Math.min(...loads))}–${fmt(Math.max(...loads))}`
      const shape = `${PROCESSES} processes per side, ${rounds} rounds × ${windowMs / 1000} s per process (${fmt(seconds)} s), 10 connections`
      /** The A/A control: the second quiet side against the first, by the same method. */
      const control = (figure: keyof Aggregate) => {
        const r = ratios("control", figure)
        return { ratio: median(r), note: `A/A control (quiet vs quiet) ${median(r).toFixed(3)}, quartiles ${quartiles(r)}` }
      }
      const measure = (side: "text" | "json", figure: keyof Aggregate): Measurement => {
        const r = ratios(side, figure)
        const byMedian = median(ratios(side, figure, BY_MEDIAN))
        const aa = control(figure)
        const of = figure === "perSecond" ? perSecondOf : cpuOf
        const on = perRound(side, figure)
        const off = perRound("quiet", figure)
        return {
          label: figure === "perSecond" ? side : `${side}-cpu`,
          subject: median(on),
          baseline: median(off),
          unit: figure === "perSecond" ? "req/s" : "µs CPU/req",
          ratio: median(r),
          note:
            (figure === "perSecond" ? "" : "the server processes' CPU per request, off/on; ") +
            `the processes averaged per round; rounds' ratios: quartiles ${quartiles(r)}, min–max ${Math.min(...r).toFixed(3)}–${Math.max(...r).toFixed(3)}; ` +
            `${aa.note}; per process, median ${figure === "perSecond" ? "req/s" : "µs"}: ${processNote(side, of)}, ${processNote("quiet", of)}, ${processNote("control", of)}; ` +
            `by the processes' median per round ${byMedian.toFixed(3)}; ${loadNote}` +
            (figure === "perSecond" ? `; ${shape}` : ""),
          samples: { subject: on, baseline: off, ratios: r },
          details: {
            loadMin: Math.min(...loads),
            loadMax: Math.max(...loads),
            control: aa.ratio,
            ratioByMedianProcess: byMedian,
            ...(figure === "perSecond" ? { loggedRequests: SERVERS.filter((s) => s.side === side).reduce((n, s) => n + answered.get(s)!, 0) } : {}),
            processes: PROCESSES,
            processSpread: perProcess(side, of).spread,
            quietProcessSpread: perProcess("quiet", of).spread,
          },
        }
      }
      return (["text", "json"] as const).flatMap((side) => (cpuKnown ? [measure(side, "perSecond"), measure(side, "cpu")] : [measure(side, "perSecond")]))
    } finally {
      await gen.close()
      await Promise.all([...servers.values()].map((s) => s.close()))
      rmSync(dir, { recursive: true, force: true })
    }
  },
}
