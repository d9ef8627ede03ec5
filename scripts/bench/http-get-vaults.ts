// Signed GET /vaults through the real app vs a bare Hono route serving the same bytes (issue budget: ≥ 0.5×).
import { httpVsBareHono } from "./lib/http.js"
import { startBenchSimulator } from "./lib/simulator.js"
import { ratioAtLeast, type Benchmark } from "./lib/types.js"

const getVaults = (version: "2024-05-09" | "2026-03-20", budget: number): Benchmark => ({
  name: version === "2024-05-09" ? "http-get-vaults" : "http-get-vaults-2026",
  description: `signed GET /vaults at ${version} req/s through createApp over a socket vs a bare Hono route returning the same bytes`,
  budget: ratioAtLeast(budget),
  run: async (options) => {
    const bench = await startBenchSimulator()
    try {
      return await httpVsBareHono({ ...options, subject: bench.app.fetch, request: { method: "GET", url: "/vaults" }, sign: version === "2024-05-09" ? bench.creds : bench.creds2026 })
    } finally {
      await bench.close()
    }
  },
})

export const httpGetVaults = getVaults("2024-05-09", 0.5)
/** Issue budget for the versioned surface: ≥ 0.7× the bare route, and within 5% of the 2024-05-09 figure of the same run. */
export const httpGetVaults2026 = getVaults("2026-03-20", 0.7)
