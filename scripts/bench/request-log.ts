// Signed GET /vaults with the request log on vs off, each server a `custody-sim serve` process of its own, as a
// user runs it: with the text log, with `--log-format json`, and with `--quiet`, each writing its stdout to a
// file. Two servers in one process shared an event loop and a collector, and a round's ratio followed whichever
// the collector or the scheduler hit: here nothing is shared but the machine.
//
// Each format runs in several processes (PROCESSES): on a shared machine one process keeps its slowness from
// round to round (its core, its neighbours, its memory layout), and two identical servers read up to 8% apart,
// as much as the log costs; a figure taken over one process per side carried that luck. Many short rounds, each
// loading every server once, the formats interleaved in a rotating order (the load generator is one child
// process, as in the other HTTP benchmarks); per round and server: the requests/s and the server process's own
// CPU time per request, read from the kernel (lib/serve-process.ts), which does not depend on how the client
// was scheduled. Per round a side's figure is the median over its processes (so one process's placement does not
// decide it: at load 6-11 one of three identical processes read up to 1.5x its siblings); a figure is the median
// of the rounds' ratios, with their quartiles, and the spread between processes of the same side is reported,
// with the figure the processes' mean per round would give.
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

type Side = "quiet" | "text" | "json"
const SIDES: ReadonlyArray<Side> = ["quiet", "text", "json"]
const FLAGS: Record<Side, ReadonlyArray<string>> = { quiet: ["--quiet"], text: ["--log-format", "text"], json: ["--log-format", "json"] }
/** Serve processes per side. */
const PROCESSES = 3
// Every order of the three sides, in turn, so no side always follows the same one.
const ORDERS: ReadonlyArray<ReadonlyArray<Side>> = [
  ["quiet", "text", "json"],
  ["json", "quiet", "text"],
  ["text", "json", "quiet"],
  ["quiet", "json", "text"],
  ["text", "quiet", "json"],
  ["json", "text", "quiet"],
]

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

const mean = (xs: ReadonlyArray<number>) => xs.reduce((a, b) => a + b, 0) / xs.length
const quartiles = (xs: ReadonlyArray<number>) => `${quantile(xs, 0.25).toFixed(3)}–${quantile(xs, 0.75).toFixed(3)}`

/** Lines of the request log for `GET /vaults` answered 200, in either format. */
const loggedLines = (output: string): number =>
  (output.match(/^\S+ GET \/vaults 200 /gm)?.length ?? 0) + (output.match(/^\{"time":"[^"]+","method":"GET","path":"\/vaults","status":200,/gm)?.length ?? 0)

export const requestLog: Benchmark = {
  name: "request-log",
  description: `signed GET /vaults with the text / JSON request log on vs --quiet: ${PROCESSES} serve processes per format, stdout to a file, short rotating rounds, req/s and server CPU per request`,
  budget: ratioAtLeast(0.9),
  run: async (options): Promise<ReadonlyArray<Measurement>> => {
    const rounds = options.quick ? 2 : 24
    const windowMs = 400
    const warmupMs = options.quick ? 500 : 1_000
    const dir = mkdtempSync(join(tmpdir(), "custody-sim-request-log-"))
    const fixtureFile = join(dir, "fixture.json")
    writeFileSync(fixtureFile, JSON.stringify(fixture))
    const servers = new Map<Server, ServeProcess>()
    const gen = await startLoadGenerator()
    try {
      // Started three at a time (one of each side): nine tsx start-ups at once on two cores take longer.
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
        const perSecond = (side: Side) => median(of(side).map((w) => w.perSecond))
        const cpu = (side: Side) => median(of(side).map((w) => w.cpuPerRequest ?? Number.NaN))
        options.log(
          `  round ${round + 1}/${rounds} (load ${loadavg()[0]!.toFixed(1)}): quiet ${fmt(perSecond("quiet"))} req/s ${fmt(cpu("quiet"))} µs CPU/req; ` +
            `text ${fmt(perSecond("text"))} ${fmt(cpu("text"))} µs (×${(perSecond("text") / perSecond("quiet")).toFixed(3)}); ` +
            `json ${fmt(perSecond("json"))} ${fmt(cpu("json"))} µs (×${(perSecond("json") / perSecond("quiet")).toFixed(3)})`,
        )
      }
      const seconds = (performance.now() - started) / 1000

      // The log was on: every answered request has its line (batches are written at most 25 ms after their first line).
      await new Promise((resolve) => setTimeout(resolve, 300))
      for (const s of SERVERS) {
        const lines = loggedLines(servers.get(s)!.output())
        const expected = s.side === "quiet" ? 0 : answered.get(s)!
        if (s.side === "quiet" ? lines !== 0 : lines < expected) throw new Error(`the ${s.name} server logged ${lines} GET /vaults lines for ${answered.get(s)} answered requests`)
      }

      /** Per round, the median (or the mean) of a side's processes' figures. */
      const perRound = (side: Side, figure: (w: Window) => number, over = median): Array<number> => {
        const of = SERVERS.filter((s) => s.side === side).map((s) => windows.get(s)!)
        return Array.from({ length: rounds }, (_, round) => over(of.map((ws) => figure(ws[round]!))))
      }
      /** The figure with a side's processes averaged per round instead, for comparison. */
      const byMean = (side: Side, figure: (w: Window) => number, off: (q: number, on: number) => number): number => {
        const q = perRound("quiet", figure, mean)
        return median(perRound(side, figure, mean).map((x, i) => off(q[i]!, x)))
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
      const quiet = perRound("quiet", perSecondOf)
      const loadNote = `load ${fmt(Math.min(...loads))}–${fmt(Math.max(...loads))}`
      const shape = `${PROCESSES} processes per side, ${rounds} rounds × ${windowMs / 1000} s per process (${fmt(seconds)} s), 10 connections`
      const cpuKnown = SERVERS.every((s) => windows.get(s)!.every((w) => w.cpuPerRequest !== undefined))
      return (["text", "json"] as const).flatMap((side): Array<Measurement> => {
        const on = perRound(side, perSecondOf)
        const ratios = on.map((x, i) => x / quiet[i]!)
        const ratioByMean = byMean(side, perSecondOf, (q, x) => x / q)
        const throughput: Measurement = {
          label: side,
          subject: median(on),
          baseline: median(quiet),
          unit: "req/s",
          ratio: median(ratios),
          note:
            `rounds' ratios: quartiles ${quartiles(ratios)}, min–max ${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)}; ` +
            `per process, median req/s: ${processNote(side, perSecondOf)}, ${processNote("quiet", perSecondOf)}; ` +
            `with the processes averaged per round ${ratioByMean.toFixed(3)}; ${loadNote}; ${shape}`,
          samples: { subject: on, baseline: quiet, ratios },
          details: {
            loadMin: Math.min(...loads),
            loadMax: Math.max(...loads),
            ratioByMean,
            loggedRequests: SERVERS.filter((s) => s.side === side).reduce((n, s) => n + answered.get(s)!, 0),
            processes: PROCESSES,
            processSpread: perProcess(side, perSecondOf).spread,
            quietProcessSpread: perProcess("quiet", perSecondOf).spread,
          },
        }
        if (!cpuKnown) return [throughput]
        // CPU per request, as a throughput ratio: the unlogged servers' CPU per request over the logged ones'.
        const cpuOn = perRound(side, cpuOf)
        const cpuOff = perRound("quiet", cpuOf)
        const cost = cpuOn.map((x, i) => cpuOff[i]! / x)
        const costByMean = byMean(side, cpuOf, (q, x) => q / x)
        const cpu: Measurement = {
          label: `${side}-cpu`,
          subject: median(cpuOn),
          baseline: median(cpuOff),
          unit: "µs CPU/req",
          ratio: median(cost),
          note:
            `the server processes' CPU per request, off/on per round: quartiles ${quartiles(cost)}, min–max ${Math.min(...cost).toFixed(3)}–${Math.max(...cost).toFixed(3)}; ` +
            `per process, median µs: ${processNote(side, cpuOf)}, ${processNote("quiet", cpuOf)}; ` +
            `with the processes averaged per round ${costByMean.toFixed(3)}; ${loadNote}`,
          samples: { subject: cpuOn, baseline: cpuOff, ratios: cost },
          details: {
            loadMin: Math.min(...loads),
            loadMax: Math.max(...loads),
            ratioByMean: costByMean,
            processes: PROCESSES,
            processSpread: perProcess(side, cpuOf).spread,
            quietProcessSpread: perProcess("quiet", cpuOf).spread,
          },
        }
        return [throughput, cpu]
      })
    } finally {
      await gen.close()
      await Promise.all([...servers.values()].map((s) => s.close()))
      rmSync(dir, { recursive: true, force: true })
    }
  },
}
