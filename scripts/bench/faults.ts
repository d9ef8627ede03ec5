// What faults in force cost the calls they do not match (issue budget: ≤ 5% slower with 100 of them): CPU per signed
// read and write through the app in process, on a simulator with 100 API faults that match none of the measured
// calls vs an identical one with none, the two sides alternating every CHUNK calls (as reads-2026-vs-2024 does, for
// the same reason: over a socket a 5% difference is below what a shared machine resolves). The faults are spread as
// a test suite would set them: 80 on other operations (by their path template), 10 on other concrete paths, and 10
// naming no path (a method and another key), which every call checks.
import { defaultOperations } from "../../src/api/app.js"
import { startFundedBench, type FundedBench } from "./lib/funded.js"
import { buildRequest, type RequestSpec } from "./lib/requests.js"
import { fmt, median, quantile } from "./lib/stats.js"
import { ratioAtLeast, type Benchmark, type Measurement } from "./lib/types.js"

const RECIPIENT = "0x742d35Cc6634C0532925a3b844Bc454e4438f44e"
const template = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, "{$1}")

interface Call {
  readonly label: string
  readonly spec: (b: FundedBench) => RequestSpec
  readonly status: number
  /** Calls per side per pair, in chunks alternating between the sides. */
  readonly block: number
  readonly chunk: number
}

const calls: ReadonlyArray<Call> = [
  { label: "GET /vaults", spec: () => ({ method: "GET", url: "/vaults" }), status: 200, block: 2_000, chunk: 100 },
  {
    label: "#11 vault assets",
    spec: (b) => ({ method: "GET", url: `/vaults/${b.vaultId}/assets` }),
    status: 200,
    block: 2_000,
    chunk: 100,
  },
  {
    label: "POST #16 single-transfer",
    spec: (b) => ({
      method: "POST",
      url: `/vaults/${b.vaultId}/transaction-requests/single-transfer`,
      body: JSON.stringify({
        data: {
          item: {
            vaultAccountId: b.vaultAccountId,
            assetId: b.ethId,
            fromAddress: b.address,
            toAddress: RECIPIENT,
            amount: "0.0000001",
            feePriority: "slow",
          },
        },
      }),
    }),
    status: 201,
    block: 400,
    chunk: 40,
  },
]

/** 100 API faults matching none of `calls`. */
const nonMatching = (b: FundedBench): ReadonlyArray<unknown> => {
  const measured = new Set(["GET /vaults", "GET /vaults/{vaultId}/assets", "POST /vaults/{vaultId}/transaction-requests/single-transfer"])
  const others = defaultOperations.filter((op) => !measured.has(`${op.method} ${template(op.path)}`))
  const faults: Array<unknown> = []
  for (let i = 0; i < 80; i++) {
    const op = others[i % others.length]!
    faults.push({ match: { method: op.method, path: template(op.path) }, effect: { kind: "status", status: 503 }, every: 2 + (i % 5) })
  }
  for (let i = 0; i < 10; i++)
    faults.push({ match: { method: "GET", path: `/vaults/${b.vaultId}-${i}/assets` }, effect: { kind: "status", status: 429 } })
  for (let i = 0; i < 10; i++)
    faults.push({ match: { method: i % 2 === 0 ? "GET" : "POST", apiKey: `another-key-${i}` }, effect: { kind: "reset" } })
  return faults
}

const addFaults = async (b: FundedBench): Promise<void> => {
  for (const fault of nonMatching(b)) {
    const r = await b.app.request("/_sim/faults", {
      method: "POST",
      headers: { authorization: `Bearer ${b.sim.adminToken}`, "content-type": "application/json" },
      body: JSON.stringify(fault),
    })
    if (r.status !== 201) throw new Error(`adding a fault answered ${r.status}: ${await r.text()}`)
  }
}

/** One side's turns at a call: `chunk` calls each (signed before the CPU is read), its CPU summed per pair. */
const side = (b: FundedBench, call: Call) => {
  let cpu = 0
  const spec = call.spec(b)
  return {
    chunk: async (): Promise<void> => {
      // A read signed once per chunk (a client repeating a read within a second), each write signed on its own.
      const read = spec.method === "GET" ? buildRequest(spec, b.creds) : undefined
      const requests = Array.from({ length: call.chunk }, () => read ?? buildRequest(spec, b.creds))
      const cpu0 = process.cpuUsage()
      for (const r of requests) {
        const answer = await b.app.request(r.path, {
          method: r.method,
          headers: r.headers,
          ...(r.body !== undefined ? { body: r.body } : {}),
        })
        const text = await answer.text()
        if (answer.status !== call.status) throw new Error(`${spec.method} ${spec.url} answered ${answer.status}: ${text.slice(0, 300)}`)
      }
      const used = process.cpuUsage(cpu0)
      cpu += used.user + used.system
    },
    take: (): number => {
      const perCall = cpu / call.block
      cpu = 0
      return perCall
    },
  }
}

export const faultsNonMatching: Benchmark = {
  name: "faults-non-matching",
  description:
    "CPU per signed read (GET /vaults, #11) and write (#16, manual approval) with 100 API faults in force that match none of them vs none, two identical simulators in process (memory store), alternating every 100 reads / 40 writes",
  budget: ratioAtLeast(0.95),
  run: async (options) => {
    const plain = await startFundedBench({ approval: "manual" })
    const faulted = await startFundedBench({ approval: "manual" })
    try {
      await addFaults(faulted)
      if (faulted.sim.models.faults.api.length !== 100) throw new Error("the faulted side does not hold 100 faults")
      const measurements: Array<Measurement> = []
      for (const call of calls) {
        const without = side(plain, call)
        const withFaults = side(faulted, call)
        const pair = async (): Promise<readonly [number, number]> => {
          for (let k = 0; k < call.block / call.chunk; k++) {
            const [first, second] = k % 2 === 0 ? [without, withFaults] : [withFaults, without]
            await first.chunk()
            await second.chunk()
          }
          return [without.take(), withFaults.take()]
        }
        for (let i = 0; i < (options.quick ? 1 : 3); i++) await pair()
        const bases: Array<number> = []
        const subjects: Array<number> = []
        const ratios: Array<number> = []
        for (let round = 0; round < (options.quick ? 4 : 20); round++) {
          const [o, n] = await pair()
          bases.push(o)
          subjects.push(n)
          ratios.push(o / n)
        }
        if (faulted.sim.models.faults.all.some((f) => f.hits > 0)) throw new Error("a fault meant not to match was hit")
        measurements.push({
          label: call.label,
          subject: 1e6 / median(subjects),
          baseline: 1e6 / median(bases),
          unit: "calls per CPU-second",
          ratio: bases.reduce((a, b) => a + b, 0) / subjects.reduce((a, b) => a + b, 0),
          note:
            `CPU per call ${fmt(median(subjects))} vs ${fmt(median(bases))} µs (the pairs' medians); ` +
            `pairs' ratios: median ${median(ratios).toFixed(3)}, quartiles ${quantile(ratios, 0.25).toFixed(3)}–${quantile(ratios, 0.75).toFixed(3)}; ${ratios.length} pairs of ${call.block} calls a side, alternating every ${call.chunk}`,
          samples: { subject: subjects, baseline: bases, ratios },
        })
      }
      return measurements
    } finally {
      await plain.close()
      await faulted.close()
    }
  },
}
