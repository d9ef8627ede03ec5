// Test harness: an in-process simulator on the memory store, its Hono app, a signed client and admin calls.
import type { Hono } from "hono"
import { createApp, type AppOptions } from "../../src/api/app.js"
import { CustodyClient, signRequest, type Credentials } from "../../src/client/index.js"
import { createSimulator, type Fixture, type Simulator, type SimulatorOptions } from "../../src/simulator.js"
import { makeMemoryStore } from "../../src/store/memory.js"

export const BASE = "http://sim.test"
export const T0 = Date.UTC(2026, 0, 1) // a fixed simulated start

export interface Harness {
  readonly sim: Simulator
  readonly app: Hono
  readonly creds: Credentials
  readonly client: CustodyClient
  readonly admin: <T = any>(method: string, path: string, body?: unknown) => Promise<{ status: number; body: T }>
  /** A signed request with full control of the bytes and headers. */
  readonly raw: (input: RawInput) => Promise<{ status: number; body: any; headers: Headers }>
  readonly clientFor: (creds: Credentials) => CustodyClient
  readonly testVaultId: string
  readonly mainVaultId: string
  readonly close: () => Promise<void>
}

export interface RawInput {
  readonly method: string
  readonly url: string
  readonly body?: string
  readonly creds?: Credentials
  readonly timestamp?: number
  /** Headers to set after signing (to break them); `null` removes one. */
  readonly override?: Readonly<Record<string, string | null>>
}

export const startHarness = async (
  options: { fixture?: Fixture; sim?: Partial<SimulatorOptions>; app?: AppOptions } = {},
): Promise<Harness> => {
  const sim = await createSimulator({
    store: makeMemoryStore(),
    seed: "harness",
    clock: { frozenAt: T0 },
    defaultWorkspace: true,
    ...(options.fixture !== undefined ? { fixture: options.fixture } : {}),
    ...options.sim,
  })
  const app = createApp(sim, { clientIp: () => "127.0.0.1", log: { error: () => {}, info: () => {} }, ...options.app })
  const creds = sim.createdCredentials[0]!
  const fetchApp = (req: Request) => Promise.resolve(app.fetch(req))
  const clientFor = (c: Credentials) => new CustodyClient({ baseUrl: BASE, credentials: c, fetch: fetchApp })
  const admin = async <T = any>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> => {
    const res = await app.request(BASE + path, {
      method,
      headers: { authorization: `Bearer ${sim.adminToken}`, "content-type": "application/json" },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    })
    return { status: res.status, body: (await res.json()) as T }
  }
  const raw = async (input: RawInput) => {
    const headers: Record<string, string> = signRequest(input.creds ?? creds, {
      method: input.method,
      url: input.url,
      body: input.body ?? "",
      ...(input.timestamp !== undefined ? { timestamp: input.timestamp } : {}),
    })
    for (const [k, v] of Object.entries(input.override ?? {})) {
      if (v === null) delete headers[k]
      else headers[k] = v
    }
    const res = await app.request(BASE + input.url, {
      method: input.method,
      headers,
      ...(input.body !== undefined && input.method !== "GET" ? { body: input.body } : {}),
    })
    const text = await res.text()
    let body: unknown = text
    try {
      body = JSON.parse(text)
    } catch {
      // not JSON: kept as text for the assertion to show
    }
    return { status: res.status, body, headers: res.headers }
  }
  const vaults = sim.models.workspace.vaultList(undefined)
  return {
    sim,
    app,
    creds,
    client: clientFor(creds),
    admin,
    raw,
    clientFor,
    testVaultId: vaults.find((v) => v.profile.type === "test")?.profile.vaultId ?? "",
    mainVaultId: vaults.find((v) => v.profile.type === "main")?.profile.vaultId ?? "",
    close: () => sim.close(),
  }
}

/** Creates an API key through the control plane and returns its credentials. */
export const createKey = async (h: Harness, body: Record<string, unknown> = {}): Promise<Credentials> => {
  const r = await h.admin<{ key: string; secret: string; passphrase: string }>("POST", "/_sim/api-keys", body)
  if (r.status !== 201) throw new Error(`key creation failed: ${JSON.stringify(r.body)}`)
  return { key: r.body.key, secret: r.body.secret, passphrase: r.body.passphrase }
}
