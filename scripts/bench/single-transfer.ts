// Transaction request creation: #16 over HTTP on SQLite vs bare Hono, and in-process command throughput on memory.
import { Exit } from "effect"
import { createTxRequest } from "../../src/commands/transaction-requests.js"
import { findAsset, findNetwork } from "../../src/domain/chains/index.js"
import type { VaultId } from "../../src/domain/shared/ids.js"
import { startFundedBench } from "./lib/funded.js"
import { httpVsBareHono } from "./lib/http.js"
import { absoluteAtLeast, ratioAtLeast, type Benchmark } from "./lib/types.js"

const RECIPIENT = "0x742d35Cc6634C0532925a3b844Bc454e4438f44e"

export const httpPostSingleTransfer: Benchmark = {
  name: "http-post-single-transfer",
  description: "signed POST #16 single-transfer creating requests (SQLite store, manual approval) vs a bare Hono route, same bytes",
  budget: ratioAtLeast(0.25),
  run: async (options) => {
    const bench = await startFundedBench({ store: "sqlite", approval: "manual" })
    try {
      const body = JSON.stringify({
        data: { item: { vaultAccountId: bench.vaultAccountId, assetId: bench.ethId, fromAddress: bench.address, toAddress: RECIPIENT, amount: "0.0001", feePriority: "slow" } },
      })
      return await httpVsBareHono({
        ...options,
        subject: bench.app.fetch,
        request: { method: "POST", url: `/vaults/${bench.vaultId}/transaction-requests/single-transfer`, body },
        sign: bench.creds,
        routePattern: "/vaults/:vaultId/transaction-requests/single-transfer",
        expectStatus: 201,
      })
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
      return { subject: count / seconds, unit: "requests/s", note: `${count} requests in ${seconds.toFixed(2)} s (manual approval: creation and reservation only)` }
    } finally {
      await bench.close()
    }
  },
}
