// What a test holds of one simulated world in process, whether the simulator's own (startInProcess) or one of its
// worlds (sim.world(), docs/worlds.md): signed clients, control-plane calls with the world's admin token, its
// faults, vaults, webhooks, snapshots. Every call goes through the one in-process fetch, which routes it by its
// credentials to its world, as `serve` does over a socket.
import { CustodyClient, type Credentials } from "../client/index.js"
import type { Simulator } from "../simulator.js"
import type { SnapshotInfo } from "../snapshots/snapshots.js"
import { type FaultControls, faultControls } from "./faults.js"

export type InProcessFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>

export interface AdminResponse<T> {
  readonly status: number
  readonly body: T
}

export interface WorldHandle {
  readonly sim: Simulator
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

/** A control-plane call with `adminToken`, through `fetch`. */
export const adminCalls =
  (fetch: InProcessFetch, adminToken: string) =>
  async <T>(method: string, path: string, body?: unknown): Promise<AdminResponse<T>> => {
    const res = await fetch(path, {
      method,
      headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    })
    const text = await res.text()
    return { status: res.status, body: parseBody(text) as T }
  }

export const worldHandle = (
  sim: Simulator,
  world: { readonly fetch: InProcessFetch; readonly baseUrl: string; readonly credentials: Credentials | undefined },
): WorldHandle => {
  const { fetch, baseUrl, credentials } = world
  const client = (c = credentials) => {
    if (c === undefined) throw new Error("no credentials: the workspace was started without an API key")
    return new CustodyClient({ baseUrl, credentials: c, fetch: (r) => fetch(r) })
  }
  const admin = adminCalls(fetch, sim.adminToken)
  const vaults = sim.models.workspace.vaultList(undefined)
  return {
    sim,
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
  }
}
