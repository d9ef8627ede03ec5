// A simulator and its app for HTTP benchmarks: memory store, two vaults, one API key that is never rate limited.
import type { Hono } from "hono"
import { createApp, type AppOptions } from "../../../src/api/app.js"
import type { Credentials } from "../../../src/client/signing.js"
import { createSimulator, type Fixture, type Simulator } from "../../../src/simulator.js"
import { makeMemoryStore } from "../../../src/store/memory.js"

export interface BenchSimulator {
  readonly sim: Simulator
  readonly app: Hono
  /** Credentials of a key with a rate limit of 1e9/s (burst 1e9): the limiter still runs, never refuses. */
  readonly creds: Credentials
  /** The same, pinned to 2026-03-20 (the key above answers 2024-05-09). */
  readonly creds2026: Credentials
  readonly close: () => Promise<void>
}

export const benchFixture: Fixture = {
  seed: "bench",
  vaults: [
    { name: "Test vault", type: "test", color: "#2E7D32" },
    { name: "Main vault", type: "main", color: "#1565C0" },
  ],
  apiKeys: [
    { name: "bench", apiVersion: "2024-05-09", rateLimit: { perSecond: 1e9, burst: 1e9 } },
    { name: "bench-2026", apiVersion: "2026-03-20", rateLimit: { perSecond: 1e9, burst: 1e9 } },
  ],
}

export const startBenchSimulator = async (options: { fixture?: Fixture; app?: AppOptions } = {}): Promise<BenchSimulator> => {
  const sim = await createSimulator({ store: makeMemoryStore(), fixture: options.fixture ?? benchFixture })
  const app = createApp(sim, { log: { error: () => {}, info: () => {} }, ...options.app })
  const creds = sim.createdCredentials[0]
  const creds2026 = sim.createdCredentials[1]
  if (creds === undefined || creds2026 === undefined) throw new Error("the bench fixture created no API keys")
  return { sim, app, creds, creds2026, close: () => sim.close() }
}
