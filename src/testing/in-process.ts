// An in-process simulator for tests: memory store, frozen clock, the Hono app behind a fetch function, signed
// clients and control-plane calls. No socket, no port: every call is `app.fetch` in the same process.
import type { Hono } from "hono"
import { createApp, type AppOptions } from "../api/app.js"
import { CustodyClient, type Credentials } from "../client/index.js"
import { createSimulator, type Fixture, type Simulator, type SimulatorOptions } from "../simulator.js"
import { makeMemoryStore } from "../store/memory.js"
import { NEWEST_API_VERSION } from "../domain/api-key/index.js"
import type { SnapshotInfo } from "../snapshots/snapshots.js"
import { type FaultControls, faultControls } from "./faults.js"

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

export interface AdminResponse<T> {
  readonly status: number
  readonly body: T
}

export interface InProcess {
  readonly sim: Simulator
  readonly app: Hono
  readonly baseUrl: string
  /** A fetch with the global signature, served by the app: relative URLs are resolved against `baseUrl`. */
  readonly fetch: (input: string | URL | Request, init?: RequestInit) => Promise<Response>
  /** The first API key created at start (none when the fixture has no key or the workspace is not created). */
  readonly credentials: Credentials | undefined
  /** A client signing with these credentials (default: `credentials`). */
  readonly client: (credentials?: Credentials) => CustodyClient
  /** A control-plane call (`/_sim/...`) with the admin token: plain JSON in and out. */
  // biome-ignore lint/suspicious/noExplicitAny: an answer of any shape unless the caller names one, as in tests
  readonly admin: <T = any>(method: "GET" | "POST" | "PUT" | "DELETE", path: string, body?: unknown) => Promise<AdminResponse<T>>
  /** The control plane's faults: calls answered 429/5xx, delayed, dropped or unanswered; deliveries duplicated… */
  readonly faults: FaultControls
  readonly testVaultId: string
  readonly mainVaultId: string
  /** Resolves once every webhook delivery due at the current simulated time was attempted and recorded. */
  readonly webhooksIdle: () => Promise<void>
  /** Records the world as it is now; revert(id) puts it back exactly (log, reads, ids, clock, pending webhooks). */
  readonly snapshot: () => Promise<SnapshotInfo>
  readonly revert: (id: string) => Promise<SnapshotInfo>
  /** Back to the world right after start: the fixture's vaults and keys, with the same ids and credentials. */
  readonly reset: () => Promise<SnapshotInfo>
  readonly close: () => Promise<void>
}

/** JSON answers parsed; anything else (JSON lines of /_sim/export, HTML) kept as text. */
const parseBody = (text: string): unknown => {
  if (text.length === 0) return undefined
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
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
  // No limit on failed authentications: a property run provokes thousands on purpose.
  const app = createApp(sim, {
    clientIp: () => "127.0.0.1",
    log: { error: () => {}, info: () => {} },
    authFailureLimit: false,
    ...options.app,
  })
  const baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/$/, "")
  const fetchApp = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request =
      input instanceof Request
        ? init === undefined
          ? input
          : new Request(input, init)
        : new Request(typeof input === "string" && input.startsWith("/") ? baseUrl + input : input, init)
    const res = await app.fetch(request)
    // A fault's dropped connection (reset, timeout, lost-answer): a network error, as fetch gives one.
    if (res.type === "error") throw new TypeError("fetch failed: the connection was dropped without an answer")
    return res
  }
  const credentials = sim.createdCredentials[0]
  const client = (c = credentials) => {
    if (c === undefined) throw new Error("no credentials: the workspace was started without an API key")
    return new CustodyClient({ baseUrl, credentials: c, fetch: (r) => fetchApp(r) })
  }
  const admin = async <T>(method: string, path: string, body?: unknown): Promise<AdminResponse<T>> => {
    const res = await fetchApp(path, {
      method,
      headers: { authorization: `Bearer ${sim.adminToken}`, "content-type": "application/json" },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    })
    const text = await res.text()
    return { status: res.status, body: parseBody(text) as T }
  }
  const vaults = sim.models.workspace.vaultList(undefined)
  return {
    sim,
    app,
    baseUrl,
    fetch: fetchApp,
    credentials,
    client,
    admin,
    faults: faultControls(admin),
    testVaultId: vaults.find((v) => v.profile.type === "test")?.profile.vaultId ?? "",
    mainVaultId: vaults.find((v) => v.profile.type === "main")?.profile.vaultId ?? "",
    webhooksIdle: async () => sim.webhooks?.idle(),
    snapshot: sim.snapshot,
    revert: sim.revert,
    reset: sim.reset,
    close: () => sim.close(),
  }
}
