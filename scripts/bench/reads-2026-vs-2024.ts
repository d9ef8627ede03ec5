// The versioned surface's cost on the signed reads, without the socket: CPU per signed read answered at 2026-03-20
// vs the same read at 2024-05-09, through the app in process, in alternating blocks (issue budget: within 5%).
// Over a socket (http-get-vaults-2026-vs-2024) the two sides differ only in the version that shapes the answer,
// yet on a shared machine their rounds' throughput ratios spread over 0.7–1.6: a 5% difference is below what
// that instrument resolves. The CPU each answer costs the process does not depend on the neighbours' share.
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

const BLOCK = 2_000

export const reads2026Vs2024InProcess: Benchmark = {
  name: "reads-2026-vs-2024-in-process",
  description:
    "CPU per signed read at 2026-03-20 vs the same read at 2024-05-09 (GET /vaults, #11, #8 and its 2026 successor), the app in process (memory store, two funded assets), alternating blocks",
  budget: ratioAtLeast(0.95),
  run: async (options) => {
    const bench = await startFundedBench()
    try {
      // A block signs its request once (as a client repeating a read within a second does) and sends it BLOCK times.
      const block = async (spec: RequestSpec, sign: FundedBench["creds"], expectVersion: string): Promise<number> => {
        const r = buildRequest(spec, sign)
        const cpu0 = process.cpuUsage()
        for (let i = 0; i < BLOCK; i++) {
          const answer = await bench.app.request(r.path, { method: r.method, headers: r.headers })
          const text = await answer.text()
          if (answer.status !== 200 || i === 0 && !text.startsWith(`{"apiVersion":"${expectVersion}"`)) throw new Error(`${spec.url} answered ${answer.status}: ${text.slice(0, 300)}`)
        }
        const cpu = process.cpuUsage(cpu0)
        return (cpu.user + cpu.system) / BLOCK
      }
      const measurements: Array<Measurement> = []
      for (const read of reads) {
        const old = () => block({ method: "GET", url: read.old(bench) }, bench.creds, "2024-05-09")
        const now = () => block({ method: "GET", url: read.now(bench) }, bench.creds2026, "2026-03-20")
        for (let i = 0; i < (options.quick ? 1 : 3); i++) {
          await old()
          await now()
        }
        const olds: Array<number> = []
        const nows: Array<number> = []
        const ratios: Array<number> = []
        for (let round = 0; round < (options.quick ? 4 : 24); round++) {
          const [o, n] = round % 2 === 0 ? [await old(), await now()] : [await now(), await old()].reverse()
          olds.push(o!)
          nows.push(n!)
          ratios.push(o! / n!)
        }
        measurements.push({
          label: read.label,
          subject: 1e6 / median(nows),
          baseline: 1e6 / median(olds),
          unit: "reads per CPU-second",
          ratio: median(ratios),
          note: `CPU per read ${fmt(median(nows))} vs ${fmt(median(olds))} µs; pairs' ratios: quartiles ${quantile(ratios, 0.25).toFixed(3)}–${quantile(ratios, 0.75).toFixed(3)}; ${ratios.length} pairs of ${BLOCK} reads each`,
          samples: { subject: nows, baseline: olds, ratios },
        })
      }
      return measurements
    } finally {
      await bench.close()
    }
  },
}
