// Signed GET /vaults with the request log on vs off, each server a `custody-sim serve` process of its own, as a
// user runs it: with the text log, with `--log-format json`, and with `--quiet`, each writing its stdout to a file.
//
// A logged server and a quiet one are loaded at the same time, by one load generator (a child process, as in the
// other HTTP benchmarks), for a window of a second: the pair's ratio is taken over the same moment of the machine.
// Loaded one after the other (this benchmark's earlier design, four processes per side in short rotating rounds),
// the machine's own speed moved by up to 30% from one minute to the next, and two sides of identical quiet
// processes read 0.99-1.13 apart over a whole run (the A/A control), as much as the log may cost; side by side, they
// read within a few percent of each other (docs/benchmarks.md). Per window and process: its requests/s, and its own CPU time
// per request, read from the kernel (lib/serve-process.ts), which does not depend on how the client was scheduled.
// Both servers are busy all the window (ten connections each) and share two cores fairly, so a server that spends
// more per request also answers fewer.
//
// Each side runs in several processes (PROCESSES), and each logged process meets a different quiet one from round to
// round, so no one process's luck (its memory layout, what its JIT made of the warm-up) decides a figure. A figure is
// the median of its pairs' ratios, with their quartiles. A third side, `control`, is `--quiet` again, paired with the
// quiet side the same way: the instrument's own error (an A/A control), reported beside every figure.
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
type Compared = Exclude<Side, "quiet">
const SIDES: ReadonlyArray<Side> = ["quiet", "text", "json", "control"]
const COMPARED: ReadonlyArray<Compared> = ["text", "json", "control"]
const FLAGS: Record<Side, ReadonlyArray<string>> = {
  quiet: ["--quiet"],
  text: ["--log-format", "text"],
  json: ["--log-format", "json"],
  control: ["--quiet"],
}
/** Serve processes per side. */
const PROCESSES = 4

interface Server {
  readonly side: Side
  /** 0 … PROCESSES-1 within its side. */
  readonly index: number
  readonly name: string
}
const SERVERS: ReadonlyArray<Server> = SIDES.flatMap((side) =>
  Array.from({ length: PROCESSES }, (_, index) => ({ side, index, name: `${side}${index + 1}` })),
)
const server = (side: Side, index: number): Server => SERVERS.find((s) => s.side === side && s.index === index)!

interface Window {
  readonly perSecond: number
  readonly ok: number
  /** The server process's CPU time per answered request, µs (undefined without /proc). */
  readonly cpuPerRequest: number | undefined
}

/** A logged (or control) process and a quiet one, loaded over the same window. */
interface Pair {
  readonly side: Compared
  readonly round: number
  readonly quiet: Server
  readonly other: Server
  readonly quietWindow: Window
  readonly otherWindow: Window
}

/**
 * Every two sides meet in every round, so every process works as much as any other (were only the quiet side paired
 * with the rest, its processes would work three times as much, and be that much further from their warm-up than the
 * ones they are compared with). The logged sides' meetings with each other only keep that balance; the figures come
 * from their meetings with the quiet side.
 */
const SIDE_PAIRS: ReadonlyArray<readonly [Side, Side]> = SIDES.flatMap((a, i) => SIDES.slice(i + 1).map((b) => [a, b] as const))

/** A round's pairs: the side pairs in an order rotated by round, each side's k-th process with the other's, shifted by round. */
const roundPairs = (round: number): ReadonlyArray<readonly [Server, Server]> =>
  SIDE_PAIRS.map((_, i) => SIDE_PAIRS[(i + round) % SIDE_PAIRS.length]!).flatMap(([a, b]) =>
    Array.from({ length: PROCESSES }, (_, k) => [server(a, k), server(b, (k + round) % PROCESSES)] as const),
  )

const quartiles = (xs: ReadonlyArray<number>) => `${quantile(xs, 0.25).toFixed(3)}–${quantile(xs, 0.75).toFixed(3)}`
const sum = (xs: ReadonlyArray<number>) => xs.reduce((a, b) => a + b, 0)

/** Lines of the request log for `GET /vaults` answered 200, in either format. */
const loggedLines = (output: string): number =>
  (output.match(/^\S+ GET \/vaults 200 /gm)?.length ?? 0) +
  (output.match(/^\{"time":"[^"]+","method":"GET","path":"\/vaults","status":200,/gm)?.length ?? 0)

export const requestLog: Benchmark = {
  name: "request-log",
  description: `signed GET /vaults with the text / JSON request log on vs --quiet: ${PROCESSES} serve processes per format (and a second --quiet side, the A/A control), stdout to a file; each logged process loaded side by side with a quiet one over the same 1 s window, pairs rotated by round; req/s and server CPU per request`,
  budget: ratioAtLeast(0.9),
  run: async (options): Promise<ReadonlyArray<Measurement>> => {
    const rounds = options.quick ? 1 : 6
    const windowMs = options.quick ? 400 : 1_000
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
          group.map((s) =>
            startServeProcess(["--store", "memory", "--fixture", fixtureFile, ...FLAGS[s.side]], join(dir, `${s.name}.out`)),
          ),
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
        const served = servers.get(s)!
        const cpu0 = served.cpuMicros()
        const r: LoadResult = await gen.run({
          origin: served.origin,
          request: { method: "GET", url: "/vaults" },
          sign: served.credentials,
          connections: 10,
          pipelining: 1,
          durationMs: ms,
          firstN: 0,
        })
        const cpu1 = served.cpuMicros()
        if (r.non2xx > 0 || r.errors > 0 || r.timeouts > 0 || r.ok === 0)
          throw new Error(
            `${s.name}: ${r.ok} ok, ${r.non2xx} non-2xx ${JSON.stringify(r.statusCodes)}, ${r.errors} errors, ${r.timeouts} timeouts`,
          )
        answered.set(s, answered.get(s)! + r.ok)
        return {
          perSecond: r.perSecond,
          ok: r.ok,
          cpuPerRequest: cpu0 !== undefined && cpu1 !== undefined ? (cpu1 - cpu0) / r.ok : undefined,
        }
      }
      for (const s of SERVERS) await load(s, warmupMs)
      const pairs: Array<Pair> = []
      const loads: Array<number> = []
      const started = performance.now()
      for (let round = 0; round < rounds; round++) {
        for (const [i, [quiet, other]] of roundPairs(round).entries()) {
          // Which of the two the load generator starts first alternates, so that neither side always has it (with the
          // quiet one always first the control read 0.979-0.990 by CPU in four runs; alternated, 0.973 and 0.999).
          const [quietWindow, otherWindow] =
            (i + round) % 2 === 0
              ? await Promise.all([load(quiet, windowMs), load(other, windowMs)])
              : await Promise.all([load(other, windowMs), load(quiet, windowMs)]).then(([o, q]) => [q, o] as const)
          if (quiet.side === "quiet") pairs.push({ side: other.side as Compared, round, quiet, other, quietWindow, otherWindow })
        }
        loads.push(loadavg()[0]!)
        const inRound = (side: Compared) => pairs.filter((p) => p.round === round && p.side === side)
        const cpuKnown = (ps: ReadonlyArray<Pair>) =>
          ps.every((p) => p.quietWindow.cpuPerRequest !== undefined && p.otherWindow.cpuPerRequest !== undefined)
        const versus = (side: Compared) => {
          const ps = inRound(side)
          const cpu = cpuKnown(ps) ? median(ps.map((p) => p.quietWindow.cpuPerRequest! / p.otherWindow.cpuPerRequest!)).toFixed(3) : "-"
          return `${side} ×${median(ps.map((p) => p.otherWindow.perSecond / p.quietWindow.perSecond)).toFixed(3)}, CPU ×${cpu}`
        }
        const quietWindows = pairs.filter((p) => p.round === round).map((p) => p.quietWindow)
        options.log(
          `  round ${round + 1}/${rounds} (load ${loadavg()[0]!.toFixed(1)}): quiet ${fmt(median(quietWindows.map((w) => w.perSecond)))} req/s ` +
            `${fmt(median(quietWindows.map((w) => w.cpuPerRequest ?? Number.NaN)))} µs CPU/req; ${COMPARED.map(versus).join("; ")}`,
        )
      }
      const seconds = (performance.now() - started) / 1000

      // The log was on: every answered request has its line (batches are written at most 25 ms after their first line).
      await new Promise((resolve) => setTimeout(resolve, 300))
      for (const s of SERVERS) {
        const lines = loggedLines(servers.get(s)!.output())
        const silent = FLAGS[s.side].includes("--quiet")
        if (silent ? lines !== 0 : lines < answered.get(s)!)
          throw new Error(`the ${s.name} server logged ${lines} GET /vaults lines for ${answered.get(s)} answered requests`)
      }

      type Figure = "perSecond" | "cpu"
      const cpuKnown = pairs.every((p) => p.quietWindow.cpuPerRequest !== undefined && p.otherWindow.cpuPerRequest !== undefined)
      /** Per pair of the side, as a throughput ratio against its quiet process (≥ 1 is faster). */
      const ratios = (side: Compared, figure: Figure): Array<number> =>
        pairs
          .filter((p) => p.side === side)
          .map((p) =>
            figure === "perSecond"
              ? p.otherWindow.perSecond / p.quietWindow.perSecond
              : p.quietWindow.cpuPerRequest! / p.otherWindow.cpuPerRequest!,
          )
      /** The side's figure over all its windows: the mean req/s, or all its CPU over all its requests. */
      const overall = (ws: ReadonlyArray<Window>, figure: Figure) =>
        figure === "perSecond"
          ? sum(ws.map((w) => w.perSecond)) / ws.length
          : sum(ws.map((w) => w.cpuPerRequest! * w.ok)) / sum(ws.map((w) => w.ok))
      const of = (side: Compared, which: "quiet" | "other") =>
        pairs.filter((p) => p.side === side).map((p) => (which === "quiet" ? p.quietWindow : p.otherWindow))
      /** Each process's median over its windows, and the spread between a side's processes (max/min). */
      const processNote = (side: Side, figure: Figure) => {
        const medians = SERVERS.filter((s) => s.side === side).map((s) =>
          median(
            pairs
              .flatMap((p) => (p.quiet === s ? [p.quietWindow] : p.other === s ? [p.otherWindow] : []))
              .map((w) => (figure === "perSecond" ? w.perSecond : w.cpuPerRequest!)),
          ),
        )
        return `${side} ${medians.map(fmt).join(", ")} (×${(Math.max(...medians) / Math.min(...medians)).toFixed(3)})`
      }
      const loadNote = `load ${fmt(Math.min(...loads))}–${fmt(Math.max(...loads))}`
      const shape = `${PROCESSES} processes per side, ${rounds} rounds, ${pairs.length} pairs of ${windowMs / 1000} s (${fmt(seconds)} s), 10 connections each`
      const measure = (side: "text" | "json", figure: Figure): Measurement => {
        const r = ratios(side, figure)
        const aa = ratios("control", figure)
        const on = overall(of(side, "other"), figure)
        const off = overall(of(side, "quiet"), figure)
        const byTotals = figure === "perSecond" ? on / off : off / on
        return {
          label: figure === "perSecond" ? side : `${side}-cpu`,
          subject: on,
          baseline: off,
          unit: figure === "perSecond" ? "req/s" : "µs CPU/req",
          ratio: median(r),
          note:
            (figure === "perSecond" ? "" : "the server processes' CPU per request, off/on; ") +
            `each logged process side by side with a quiet one; pairs' ratios: quartiles ${quartiles(r)}, min–max ${Math.min(...r).toFixed(3)}–${Math.max(...r).toFixed(3)}; ` +
            `by the totals ${byTotals.toFixed(3)}; A/A control (quiet vs quiet, the same way) ${median(aa).toFixed(3)}, quartiles ${quartiles(aa)}; ` +
            `per process, median ${figure === "perSecond" ? "req/s" : "µs"}: ${processNote(side, figure)}, ${processNote("quiet", figure)}, ${processNote("control", figure)}; ${loadNote}` +
            (figure === "perSecond" ? `; ${shape}` : ""),
          samples: {
            subject: of(side, "other").map((w) => (figure === "perSecond" ? w.perSecond : w.cpuPerRequest!)),
            baseline: of(side, "quiet").map((w) => (figure === "perSecond" ? w.perSecond : w.cpuPerRequest!)),
            ratios: r,
          },
          details: {
            loadMin: Math.min(...loads),
            loadMax: Math.max(...loads),
            control: median(aa),
            ratioByTotals: byTotals,
            ...(figure === "perSecond"
              ? { loggedRequests: SERVERS.filter((s) => s.side === side).reduce((n, s) => n + answered.get(s)!, 0) }
              : {}),
            processes: PROCESSES,
            pairs: r.length,
          },
        }
      }
      return (["text", "json"] as const).flatMap((side) =>
        cpuKnown ? [measure(side, "perSecond"), measure(side, "cpu")] : [measure(side, "perSecond")],
      )
    } finally {
      await gen.close()
      await Promise.all([...servers.values()].map((s) => s.close()))
      rmSync(dir, { recursive: true, force: true })
    }
  },
}
