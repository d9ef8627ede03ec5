// Transaction request creation: #16 over HTTP on SQLite vs bare Hono (at 2024-05-09 and 2026-03-20), and in-process command throughput on memory.
import { Exit } from "effect"
import { createTxRequest } from "../../src/commands/transaction-requests.js"
import { findAsset, findNetwork } from "../../src/domain/chains/index.js"
import type { VaultId } from "../../src/domain/shared/ids.js"
import { startFundedBench } from "./lib/funded.js"
import { httpVsBareHono } from "./lib/http.js"
import { buildRequest } from "./lib/requests.js"
import { fmt, median, quantile } from "./lib/stats.js"
import { absoluteAtLeast, ratioAtLeast, type Benchmark } from "./lib/types.js"

const RECIPIENT = "0x742d35Cc6634C0532925a3b844Bc454e4438f44e"

// Short interleaved rounds, many of them: on a shared machine a neighbour's burst lasts seconds, so short windows
// give both sides of a pair the same conditions, and the median of 25 pairs is steadier than that of 9 long ones.
const ROUNDS = { rounds: 25, durationMs: 800 } as const

const singleTransfer = (bench: Awaited<ReturnType<typeof startFundedBench>>, version: "2024-05-09" | "2026-03-20") => {
  const transfer = {
    vaultAccountId: bench.vaultAccountId,
    assetId: bench.ethId,
    fromAddress: bench.address,
    toAddress: RECIPIENT,
    amount: "0.0001",
    feePriority: "slow",
  }
  const item = version === "2024-05-09" ? transfer : { ...transfer, note: "bench", maxFee: "0.001" }
  return {
    request: {
      method: "POST",
      url: `/vaults/${bench.vaultId}/transaction-requests/single-transfer`,
      body: JSON.stringify({ data: { item } }),
    },
    sign: version === "2024-05-09" ? bench.creds : bench.creds2026,
  }
}

const postSingleTransfer = (version: "2024-05-09" | "2026-03-20"): Benchmark => ({
  name: version === "2024-05-09" ? "http-post-single-transfer" : "http-post-single-transfer-2026",
  description: `signed POST #16 single-transfer at ${version} creating requests (SQLite store, manual approval) vs a bare Hono route, same bytes${version === "2026-03-20" ? " (note and maxFee: the fee ceiling is checked)" : ""}`,
  budget: ratioAtLeast(0.25),
  run: async (options) => {
    const bench = await startFundedBench({ store: "sqlite", approval: "manual" })
    try {
      return await httpVsBareHono({
        ...options,
        ...(options.quick ? {} : ROUNDS),
        subject: bench.app.fetch,
        ...singleTransfer(bench, version),
        routePattern: "/vaults/:vaultId/transaction-requests/single-transfer",
        expectStatus: 201,
      })
    } finally {
      await bench.close()
    }
  },
})

export const httpPostSingleTransfer = postSingleTransfer("2024-05-09")
/** Issue budget: ≥ 0.25× the bare route. */
export const httpPostSingleTransfer2026 = postSingleTransfer("2026-03-20")

/**
 * The 2026 path against the 2024 one directly (issue budget: within 10%): one simulator, one store, the same
 * funded address; each side signs with a key pinned to its version and sends that version's body, interleaved.
 */
export const httpPostSingleTransfer2026Vs2024: Benchmark = {
  name: "http-post-single-transfer-2026-vs-2024",
  description:
    "signed POST single-transfer at 2026-03-20 (note, maxFee) vs the 2024-05-09 create path, one SQLite simulator, req/s over a socket",
  budget: ratioAtLeast(0.9),
  run: async (options) => {
    const bench = await startFundedBench({ store: "sqlite", approval: "manual" })
    try {
      const old = singleTransfer(bench, "2024-05-09")
      return await httpVsBareHono({
        ...options,
        ...(options.quick ? {} : ROUNDS),
        subject: bench.app.fetch,
        baseline: bench.app.fetch,
        ...singleTransfer(bench, "2026-03-20"),
        baselineRequest: old.request,
        baselineSign: old.sign,
        expectStatus: 201,
      })
    } finally {
      await bench.close()
    }
  },
}

/**
 * The same comparison without a socket or a load generator, whose share of two shared cores moves the HTTP figure:
 * the app in process, blocks of 20 × 10 concurrent creates (signed before the block's CPU is read), the two versions'
 * blocks alternating, 2024's CPU per create over 2026's per pair of blocks, median of the pairs.
 */
export const singleTransfer2026Vs2024InProcess: Benchmark = {
  name: "single-transfer-2026-vs-2024-in-process",
  description:
    "CPU per signed single-transfer create at 2026-03-20 vs the 2024-05-09 path, the app in process (SQLite, manual approval), interleaved blocks of 10 concurrent requests",
  budget: ratioAtLeast(0.9),
  run: async (options) => {
    const bench = await startFundedBench({ store: "sqlite", approval: "manual" })
    try {
      const old = singleTransfer(bench, "2024-05-09")
      const now = singleTransfer(bench, "2026-03-20")
      const block = async (side: typeof old): Promise<number> => {
        const waves = Array.from({ length: 20 }, () => Array.from({ length: 10 }, () => buildRequest(side.request, side.sign)))
        const cpu0 = process.cpuUsage()
        for (const wave of waves) {
          const answers = await Promise.all(
            wave.map((r) =>
              bench.app.request(r.path, { method: r.method, headers: r.headers, ...(r.body !== undefined ? { body: r.body } : {}) }),
            ),
          )
          for (const a of answers) {
            if (a.status !== 201) throw new Error(`answered ${a.status}: ${await a.text()}`)
            await a.arrayBuffer()
          }
        }
        const cpu = process.cpuUsage(cpu0)
        return (cpu.user + cpu.system) / 200
      }
      for (let i = 0; i < (options.quick ? 1 : 5); i++) {
        await block(old)
        await block(now)
      }
      const olds: Array<number> = []
      const nows: Array<number> = []
      const ratios: Array<number> = []
      for (let round = 0; round < (options.quick ? 4 : 40); round++) {
        const pair = round % 2 === 0 ? [await block(old), await block(now)] : [await block(now), await block(old)].reverse()
        olds.push(pair[0]!)
        nows.push(pair[1]!)
        ratios.push(pair[0]! / pair[1]!)
      }
      return {
        subject: 1e6 / median(nows),
        baseline: 1e6 / median(olds),
        unit: "creates per CPU-second",
        ratio: median(ratios),
        note: `CPU per create ${fmt(median(nows))} vs ${fmt(median(olds))} µs; pairs' ratios: quartiles ${quantile(ratios, 0.25).toFixed(3)}–${quantile(ratios, 0.75).toFixed(3)}; ${ratios.length} pairs of 200 creates each`,
      }
    } finally {
      await bench.close()
    }
  },
}

export const commandThroughput: Benchmark = {
  name: "command-throughput-memory",
  description: "in-process transaction request creation (reserve + append + project) on the memory store",
  budget: absoluteAtLeast(10_000, "requests/s"),
  run: async (options) => {
    const bench = await startFundedBench({ approval: "manual" })
    try {
      const n = findNetwork("ethereum", "sepolia")!
      const asset = findAsset(bench.ethId)!
      const create = () =>
        bench.sim.run(
          createTxRequest({
            vaultId: bench.vaultId as VaultId,
            endpoint: "single-transfer",
            network: n,
            asset,
            sender: bench.address,
            recipients: [{ address: RECIPIENT, amount: 100_000_000_000n }],
            feePriority: "slow",
            feeLimit: null,
            note: null,
            prepareStrategy: null,
          }),
        )
      const count = options.quick ? 2_000 : 10_000
      for (let i = 0; i < 500; i++) await create()
      const started = performance.now()
      for (let i = 0; i < count; i++) {
        const exit = await create()
        if (Exit.isFailure(exit)) throw new Error(`request ${i} failed: ${JSON.stringify(exit.cause)}`)
      }
      const seconds = (performance.now() - started) / 1000
      return {
        subject: count / seconds,
        unit: "requests/s",
        note: `${count} requests in ${seconds.toFixed(2)} s (manual approval: creation and reservation only)`,
      }
    } finally {
      await bench.close()
    }
  },
}
