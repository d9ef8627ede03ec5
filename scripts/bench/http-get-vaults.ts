// Signed GET /vaults through the real app vs a bare Hono route serving the same bytes (issue budget: ≥ 0.5×).
import { httpVsBareHono } from "./lib/http.js"
import { startBenchSimulator } from "./lib/simulator.js"
import { ratioAtLeast, type Benchmark } from "./lib/types.js"

export const httpGetVaults: Benchmark = {
  name: "http-get-vaults",
  description: "signed GET /vaults req/s through createApp over a socket vs a bare Hono route returning the same bytes",
  budget: ratioAtLeast(0.5),
  run: async (options) => {
    const bench = await startBenchSimulator()
    try {
      return await httpVsBareHono({ ...options, subject: bench.app.fetch, request: { method: "GET", url: "/vaults" }, sign: bench.creds })
    } finally {
      await bench.close()
    }
  },
}
