// An in-process simulator for tests: memory store, frozen clock, the Hono app behind a fetch function, signed
// clients and control-plane calls, and more worlds in it (sim.world()). No socket, no port: every call is
// `app.fetch` in the same process.
import type { Hono } from "hono"
import { createWorldsApp, type AppOptions } from "../api/app.js"
import { createSimulator, type Fixture, type SimulatorOptions } from "../simulator.js"
import { makeMemoryStore } from "../store/memory.js"
import { NEWEST_API_VERSION } from "../domain/api-key/index.js"
import { createWorlds } from "../worlds/registry.js"
import { type InProcessWorld, newWorld } from "./worlds.js"
import { type InProcessFetch, type WorldHandle, worldHandle } from "./world-handle.js"

/** 2026-01-01T00:00:00Z: the simulated start when none is given. */
export const DEFAULT_START = Date.UTC(2026, 0, 1)
export const DEFAULT_BASE_URL = "http://custody-sim.test"

/**
 * The workspace started when no fixture is given: the CLI's default (a test and a main vault) with a key that is
 * not rate-limited, since a property run sends thousands of calls a second.
 */
export const IN_PROCESS_FIXTURE: Fixture = {
  vaults: [
    { name: "Test vault", type: "test", color: "#2E7D32" },
    { name: "Main vault", type: "main", color: "#1565C0" },
  ],
  // The newest version, as the service gives a new key; pass a fixture to pin another (README: API versions).
  apiKeys: [{ name: "in-process", apiVersion: NEWEST_API_VERSION, rateLimit: { perSecond: 1_000_000, burst: 1_000_000 } }],
}

export interface InProcessOptions {
  /** Workspace seed: the same seed and the same calls give the same ids, addresses and event log. */
  readonly seed?: string
  /** Simulated start, UNIX ms (default DEFAULT_START). The clock stays there until POST /_sim/clock/advance. */
  readonly frozenAt?: number
  /** Vaults and API keys to create at start (default: IN_PROCESS_FIXTURE). */
  readonly fixture?: Fixture
  /** Deliver webhooks (default true); pass false when nothing subscribes, to save the delivery thread. */
  readonly webhooks?: SimulatorOptions["webhooks"]
  /** The URL the clients and `fetch` use; requests never leave the process. */
  readonly baseUrl?: string
  /** Anything else of the simulator (store, admin token, node id). */
  readonly simulator?: Partial<SimulatorOptions>
  readonly app?: AppOptions
}

export type { AdminResponse } from "./world-handle.js"
export type { InProcessWorld } from "./worlds.js"

export interface InProcess extends WorldHandle {
  readonly app: Hono
  readonly baseUrl: string
  /** A fetch with the global signature, served in process: relative URLs are resolved against `baseUrl`. */
  readonly fetch: InProcessFetch
  /**
   * A world of its own in this simulator (POST /_sim/worlds): from `fixture`, or from this simulator's fixture with
   * fresh credentials (the same vault ids). Its calls go through the same `fetch`, routed by their credentials.
   */
  readonly world: (fixture?: Fixture) => Promise<InProcessWorld>
  /** Ends every world, then the simulator. */
  readonly close: () => Promise<void>
}

/**
 * Starts a simulator in this process on a memory store with a frozen clock.
 * @example
 * const sim = await startInProcess({ seed: "my-test" })
 * const vaults = await sim.client().call("GET", "/vaults")
 * await sim.admin("POST", "/_sim/chains/ethereum/sepolia/mine", { blocks: 1 })
 * await sim.close()
 */
export const startInProcess = async (options: InProcessOptions = {}): Promise<InProcess> => {
  const sim = await createSimulator({
    store: makeMemoryStore(),
    seed: options.seed ?? "in-process",
    clock: { frozenAt: options.frozenAt ?? DEFAULT_START },
    // An empty store gets a workspace unless the caller turned it off (then it creates vaults and keys itself).
    fixture: options.fixture ?? (options.simulator?.defaultWorkspace === false ? undefined : IN_PROCESS_FIXTURE),
    ...(options.webhooks !== undefined ? { webhooks: options.webhooks } : {}),
    ...options.simulator,
  })
  const fixture = options.fixture ?? (options.simulator?.defaultWorkspace === false ? undefined : IN_PROCESS_FIXTURE)
  // No limit on failed authentications: a property run provokes thousands on purpose.
  const appOptions: AppOptions = {
    clientIp: () => "127.0.0.1",
    log: { error: () => {}, info: () => {} },
    authFailureLimit: false,
    ...options.app,
  }
  const worlds = createWorlds({
    server: sim,
    ...(fixture !== undefined ? { serverFixture: fixture } : {}),
    app: appOptions,
    ...(options.webhooks !== undefined ? { webhooks: options.webhooks } : {}),
  })
  const routed = createWorldsApp(worlds.routing)
  const baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/$/, "")
  const fetchApp = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request =
      input instanceof Request
        ? init === undefined
          ? input
          : new Request(input, init)
        : new Request(typeof input === "string" && input.startsWith("/") ? baseUrl + input : input, init)
    const res = await routed.fetch(request)
    // A fault's dropped connection (reset, timeout, lost-answer): a network error, as fetch gives one.
    if (res.type === "error") throw new TypeError("fetch failed: the connection was dropped without an answer")
    return res
  }
  const own = worldHandle(sim, { fetch: fetchApp, baseUrl, credentials: sim.createdCredentials[0] })
  return {
    ...own,
    app: worlds.serverApp,
    baseUrl,
    fetch: fetchApp,
    world: (given) => newWorld({ fetch: fetchApp, baseUrl, worlds, admin: own.admin }, given),
    close: async () => {
      await worlds.close()
      await sim.close()
    },
  }
}
