// Signed GET /vaults through the real app vs a bare Hono route serving the same bytes (issue budget: ≥ 0.5×).
import { httpVsBareHono } from "./lib/http.js"
import { benchFixture, startBenchSimulator } from "./lib/simulator.js"
import { ratioAtLeast, type Benchmark } from "./lib/types.js"

const getVaults = (version: "2024-05-09" | "2026-03-20", budget: number): Benchmark => ({
  name: version === "2024-05-09" ? "http-get-vaults" : "http-get-vaults-2026",
  description: `signed GET /vaults at ${version} req/s through createApp over a socket vs a bare Hono route returning the same bytes`,
  budget: ratioAtLeast(budget),
  run: async (options) => {
    const bench = await startBenchSimulator()
    try {
      return await httpVsBareHono({
        ...options,
        subject: bench.app.fetch,
        request: { method: "GET", url: "/vaults" },
        sign: version === "2024-05-09" ? bench.creds : bench.creds2026,
      })
    } finally {
      await bench.close()
    }
  },
})

export const httpGetVaults = getVaults("2024-05-09", 0.5)
/** Issue budget for the versioned surface: ≥ 0.7× the bare route, and within 5% of the 2024-05-09 figure of the same run. */
export const httpGetVaults2026 = getVaults("2026-03-20", 0.7)

/**
 * The versioned surface's cost: signed GET /vaults answered at 2026-03-20 vs at 2024-05-09, two simulators from one
 * fixture whose only difference is the version its key is pinned to (the same credentials sign both sides), in the
 * same interleaved rounds. Issue budget: within 5% (≥ 0.95×).
 */
export const httpGetVaults2026Vs2024: Benchmark = {
  name: "http-get-vaults-2026-vs-2024",
  description:
    "signed GET /vaults answered at 2026-03-20 vs at 2024-05-09 (same fixture and credentials, the key's pinned version the only difference), req/s over a socket",
  budget: ratioAtLeast(0.95),
  run: async (options) => {
    const pinned = (apiVersion: "2024-05-09" | "2026-03-20") =>
      startBenchSimulator({ fixture: { ...benchFixture, apiKeys: benchFixture.apiKeys!.map((k) => ({ ...k, apiVersion })) } })
    const old = await pinned("2024-05-09")
    const now = await pinned("2026-03-20")
    try {
      if (JSON.stringify(old.creds) !== JSON.stringify(now.creds)) throw new Error("the two simulators' keys differ")
      return await httpVsBareHono({
        ...options,
        subject: now.app.fetch,
        baseline: old.app.fetch,
        request: { method: "GET", url: "/vaults" },
        sign: now.creds,
      })
    } finally {
      await old.close()
      await now.close()
    }
  },
}
