// The versioned surface's cost on the signed reads, without the socket: CPU per signed read answered at 2026-03-20
// vs the same read at 2024-05-09, through the app in process, in alternating blocks (issue budget: within 5%).
// Over a socket (http-get-vaults-2026-vs-2024) the two sides differ only in the version that shapes the answer,
// yet on a shared machine their rounds' throughput ratios spread over 0.7–1.6: a 5% difference is below what
// that instrument resolves. The CPU each answer costs the process depends less on the neighbours, but still does:
// on two shared cores a block's CPU per read moved from 39 to 82 µs between runs, and by ±20% between blocks of a
// run, as neighbours took the other hyperthread and the caches. So the two sides alternate every CHUNK reads within
// a pair (each side's CPU summed over its chunks): both meet the same neighbours. A pair's ratio still moves by
// ±10%, as the young-generation collections fall into one side's chunks or the other's; over all the pairs they
// even out, so the figure is the ratio of the two sides' CPU summed over every pair (48,000 reads a side).
import { startFundedBench, type FundedBench } from "./lib/funded.js"
import { buildRequest, type RequestSpec } from "./lib/requests.js"
import { fmt, median, quantile } from "./lib/stats.js"
import { ratioAtLeast, type Benchmark, type Measurement } from "./lib/types.js"

interface Read {
  readonly label: string
  /** The read at 2024-05-09 and its counterpart at 2026-03-20 (#8's successor takes another path). */
  readonly old: (b: FundedBench) => string
  readonly now: (b: FundedBench) => string
}

const reads: ReadonlyArray<Read> = [
  { label: "GET /vaults", old: () => "/vaults", now: () => "/vaults" },
  { label: "#11 vault assets", old: (b) => `/vaults/${b.vaultId}/assets`, now: (b) => `/vaults/${b.vaultId}/assets` },
  {
    label: "#8 address assets / balance",
    old: (b) => `/vaults/${b.vaultId}/ethereum/addresses/${b.address}/assets`,
    now: (b) => `/vaults/${b.vaultId}/addresses/${b.address}/balance`,
  },
]

/** Reads per side per pair, in chunks alternating between the sides. */
const BLOCK = 2_000
const CHUNK = 100

export const reads2026Vs2024InProcess: Benchmark = {
  name: "reads-2026-vs-2024-in-process",
  description:
    "CPU per signed read at 2026-03-20 vs the same read at 2024-05-09 (GET /vaults, #11, #8 and its 2026 successor), the app in process (memory store, two funded assets), the sides alternating every 100 reads",
  budget: ratioAtLeast(0.95),
  run: async (options) => {
    const bench = await startFundedBench()
    try {
      // A side signs its request once per pair (as a client repeating a read within a second does) and sends it
      // CHUNK times per turn; the pair's CPU per read of each side is returned.
      const side = (spec: RequestSpec, sign: FundedBench["creds"], expectVersion: string) => {
        const r = buildRequest(spec, sign)
        let cpu = 0
        return {
          chunk: async (): Promise<void> => {
            const cpu0 = process.cpuUsage()
            for (let i = 0; i < CHUNK; i++) {
              const answer = await bench.app.request(r.path, { method: r.method, headers: r.headers })
              const text = await answer.text()
              if (answer.status !== 200 || (i === 0 && !text.startsWith(`{"apiVersion":"${expectVersion}"`)))
                throw new Error(`${spec.url} answered ${answer.status}: ${text.slice(0, 300)}`)
            }
            const used = process.cpuUsage(cpu0)
            cpu += used.user + used.system
          },
          perRead: () => cpu / BLOCK,
        }
      }
      const measurements: Array<Measurement> = []
      for (const read of reads) {
        const pair = async (): Promise<readonly [number, number]> => {
          const old = side({ method: "GET", url: read.old(bench) }, bench.creds, "2024-05-09")
          const now = side({ method: "GET", url: read.now(bench) }, bench.creds2026, "2026-03-20")
          for (let k = 0; k < BLOCK / CHUNK; k++) {
            const [first, second] = k % 2 === 0 ? [old, now] : [now, old]
            await first.chunk()
            await second.chunk()
          }
          return [old.perRead(), now.perRead()]
        }
        for (let i = 0; i < (options.quick ? 1 : 3); i++) await pair()
        const olds: Array<number> = []
        const nows: Array<number> = []
        const ratios: Array<number> = []
        for (let round = 0; round < (options.quick ? 4 : 24); round++) {
          const [o, n] = await pair()
          olds.push(o)
          nows.push(n)
          ratios.push(o / n)
        }
        const quiet = (xs: ReadonlyArray<number>) => quantile(xs, 0.25)
        measurements.push({
          label: read.label,
          subject: 1e6 / median(nows),
          baseline: 1e6 / median(olds),
          unit: "reads per CPU-second",
          ratio: olds.reduce((a, b) => a + b, 0) / nows.reduce((a, b) => a + b, 0),
          note:
            `CPU per read ${fmt(median(nows))} vs ${fmt(median(olds))} µs (the pairs' medians; lower quartiles ${fmt(quiet(nows))} vs ${fmt(quiet(olds))}); ` +
            `pairs' ratios: median ${median(ratios).toFixed(3)}, quartiles ${quantile(ratios, 0.25).toFixed(3)}–${quantile(ratios, 0.75).toFixed(3)}; ${ratios.length} pairs of ${BLOCK} reads a side, alternating every ${CHUNK}`,
          samples: { subject: nows, baseline: olds, ratios },
        })
      }
      return measurements
    } finally {
      await bench.close()
    }
  },
}
