// Signed GET /vaults with the request log on vs off, each server a `custody-sim serve` process of its own, as a
// user runs it: one with the text log, one with `--log-format json`, one with `--quiet`, each writing its stdout
// to a file. Two servers in one process shared an event loop and a collector, and a round's ratio followed
// whichever the collector or the scheduler hit: here nothing is shared but the machine.
//
// Many short rounds, each loading the three servers one after another in a rotating order (the load generator
// is one child process, as in the other HTTP benchmarks); per round and side: the requests/s and the server
// process's own CPU time per request, read from the kernel (lib/serve-process.ts), which does not depend on
// how the client was scheduled. A figure is the median of the rounds' ratios, with their quartiles.
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
// Every order of the three, in turn, so no side always follows the same one.
const ORDERS: ReadonlyArray<ReadonlyArray<Side>> = [
  ["quiet", "text", "json"],
  ["json", "quiet", "text"],
  ["text", "json", "quiet"],
  ["quiet", "json", "text"],
  ["text", "quiet", "json"],
  ["json", "text", "quiet"],
]

interface Window {
  readonly perSecond: number
  readonly ok: number
  /** The server process's CPU time per answered request, µs (undefined without /proc). */
  readonly cpuPerRequest: number | undefined
}

const quartiles = (xs: ReadonlyArray<number>) => `${quantile(xs, 0.25).toFixed(3)}–${quantile(xs, 0.75).toFixed(3)}`

/** Lines of the request log for `GET /vaults` answered 200, in either format. */
const loggedLines = (output: string): number =>
  (output.match(/^\S+ GET \/vaults 200 /gm)?.length ?? 0) + (output.match(/^\{"time":"[^"]+","method":"GET","path":"\/vaults","status":200,/gm)?.length ?? 0)

export const requestLog: Benchmark = {
  name: "request-log",
  description: "signed GET /vaults with the text / JSON request log on vs --quiet: three serve processes, stdout to a file, short rotating rounds, req/s and server CPU per request",
  budget: ratioAtLeast(0.9),
  run: async (options): Promise<ReadonlyArray<Measurement>> => {
    const rounds = options.quick ? 2 : 50
    const windowMs = 400
    const warmupMs = options.quick ? 500 : 2_000
    const dir = mkdtempSync(join(tmpdir(), "custody-sim-request-log-"))
    const fixtureFile = join(dir, "fixture.json")
    writeFileSync(fixtureFile, JSON.stringify(fixture))
    const servers = new Map<Side, ServeProcess>()
    const gen = await startLoadGenerator()
    try {
      // Started one at a time: three tsx start-ups at once on two cores take longer than one after another.
      for (const side of SIDES)
        servers.set(side, await startServeProcess(["--store", "memory", "--fixture", fixtureFile, ...FLAGS[side]], join(dir, `${side}.out`)))
      const answered = new Map<Side, number>(SIDES.map((s) => [s, 0]))
      const load = async (side: Side, ms: number): Promise<Window> => {
        const server = servers.get(side)!
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
          throw new Error(`${side}: ${r.ok} ok, ${r.non2xx} non-2xx ${JSON.stringify(r.statusCodes)}, ${r.errors} errors, ${r.timeouts} timeouts`)
        answered.set(side, answered.get(side)! + r.ok)
        return { perSecond: r.perSecond, ok: r.ok, cpuPerRequest: cpu0 !== undefined && cpu1 !== undefined ? (cpu1 - cpu0) / r.ok : undefined }
      }
      for (const side of SIDES) await load(side, warmupMs)
      const windows = new Map<Side, Array<Window>>(SIDES.map((s) => [s, []]))
      const loads: Array<number> = []
      for (let round = 0; round < rounds; round++) {
        const got = new Map<Side, Window>()
        for (const side of ORDERS[round % ORDERS.length]!) got.set(side, await load(side, windowMs))
        for (const side of SIDES) windows.get(side)!.push(got.get(side)!)
        loads.push(loadavg()[0]!)
        const q = got.get("quiet")!
        const t = got.get("text")!
        const j = got.get("json")!
        options.log(
          `  round ${round + 1}/${rounds}: quiet ${fmt(q.perSecond)} req/s ${fmt(q.cpuPerRequest)} µs CPU/req; ` +
            `text ${fmt(t.perSecond)} ${fmt(t.cpuPerRequest)} µs (×${(t.perSecond / q.perSecond).toFixed(3)}); ` +
            `json ${fmt(j.perSecond)} ${fmt(j.cpuPerRequest)} µs (×${(j.perSecond / q.perSecond).toFixed(3)})`,
        )
      }

      // The log was on: every answered request has its line (batches are written at most 25 ms after their first line).
      await new Promise((resolve) => setTimeout(resolve, 300))
      for (const side of SIDES) {
        const lines = loggedLines(servers.get(side)!.output())
        const expected = side === "quiet" ? 0 : answered.get(side)!
        if (side === "quiet" ? lines !== 0 : lines < expected)
          throw new Error(`the ${side} server logged ${lines} GET /vaults lines for ${answered.get(side)} answered requests`)
      }

      const quiet = windows.get("quiet")!
      const loadNote = `load ${fmt(Math.min(...loads))}–${fmt(Math.max(...loads))}`
      return (["text", "json"] as const).flatMap((side): Array<Measurement> => {
        const on = windows.get(side)!
        const ratios = on.map((w, i) => w.perSecond / quiet[i]!.perSecond)
        const throughput: Measurement = {
          label: side,
          subject: median(on.map((w) => w.perSecond)),
          baseline: median(quiet.map((w) => w.perSecond)),
          unit: "req/s",
          ratio: median(ratios),
          note: `rounds' ratios: quartiles ${quartiles(ratios)}, min–max ${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)}; ${loadNote}; ${rounds} rounds × ${windowMs / 1000} s per server, 10 connections`,
          samples: { subject: on.map((w) => w.perSecond), baseline: quiet.map((w) => w.perSecond), ratios },
          details: { loadMin: Math.min(...loads), loadMax: Math.max(...loads), loggedRequests: answered.get(side)! },
        }
        if (on.some((w) => w.cpuPerRequest === undefined)) return [throughput]
        // CPU per request, as a throughput ratio: the unlogged server's CPU per request over the logged one's.
        const cost = on.map((w, i) => quiet[i]!.cpuPerRequest! / w.cpuPerRequest!)
        const cpuOn = median(on.map((w) => w.cpuPerRequest!))
        const cpuOff = median(quiet.map((w) => w.cpuPerRequest!))
        const cpu: Measurement = {
          label: `${side}-cpu`,
          subject: cpuOn,
          baseline: cpuOff,
          unit: "µs CPU/req",
          ratio: median(cost),
          note: `the server process's CPU per request, off/on per round: quartiles ${quartiles(cost)}, min–max ${Math.min(...cost).toFixed(3)}–${Math.max(...cost).toFixed(3)}; ${loadNote}`,
          samples: { subject: on.map((w) => w.cpuPerRequest!), baseline: quiet.map((w) => w.cpuPerRequest!), ratios: cost },
          details: { loadMin: Math.min(...loads), loadMax: Math.max(...loads) },
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
