// Test harness: the testing entry's in-process simulator, plus raw signed requests and the suite's fixed seed and start.
import type { Hono } from "hono"
import type { AppOptions } from "../../src/api/app.js"
import { CustodyClient, signRequest, type Credentials } from "../../src/client/index.js"
import type { Fixture, Simulator, SimulatorOptions } from "../../src/simulator.js"
import type { ApiVersion } from "../../src/domain/api-key/index.js"
import { IN_PROCESS_FIXTURE, startInProcess } from "../../src/testing/in-process.js"

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

/** The in-process workspace (a test and a main vault, one key) with its key pinned to `apiVersion`. */
export const inProcessFixtureAt = (apiVersion: ApiVersion): Fixture => ({
  ...IN_PROCESS_FIXTURE,
  apiKeys: IN_PROCESS_FIXTURE.apiKeys!.map((k) => ({ ...k, apiVersion })),
})

/**
 * Without a fixture, the in-process workspace with its key pinned to `apiVersion`: 2024-05-09 unless told, the
 * version the suite's tests of the first version were written for (a fresh workspace's own default is the newest).
 */
export const startHarness = async (
  options: { fixture?: Fixture; apiVersion?: ApiVersion; sim?: Partial<SimulatorOptions>; app?: AppOptions } = {},
): Promise<Harness> => {
  const pinned = inProcessFixtureAt(options.apiVersion ?? "2024-05-09")
  const p = await startInProcess({
    seed: "harness",
    frozenAt: T0,
    baseUrl: BASE,
    ...(options.fixture !== undefined ? { fixture: options.fixture } : options.sim?.defaultWorkspace === false ? {} : { fixture: pinned }),
    ...(options.sim !== undefined ? { simulator: options.sim } : {}),
    ...(options.app !== undefined ? { app: options.app } : {}),
  })
  // Started without a key (defaultWorkspace: false): the suite creates one itself before calling `client`.
  const creds = p.credentials ?? { key: "", secret: "", passphrase: "" }
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
    const res = await p.app.request(BASE + input.url, {
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
  return {
    sim: p.sim,
    app: p.app,
    creds,
    client: new CustodyClient({ baseUrl: BASE, credentials: creds, fetch: (r) => p.fetch(r) }),
    admin: (method, path, body) => p.admin(method as "GET", path, body),
    raw,
    clientFor: (c) => p.client(c),
    testVaultId: p.testVaultId,
    mainVaultId: p.mainVaultId,
    close: p.close,
  }
}

/** Creates an API key through the control plane and returns its credentials (pinned to 2024-05-09 unless `body` names a version). */
export const createKey = async (h: Harness, body: Record<string, unknown> = {}): Promise<Credentials> => {
  const r = await h.admin<{ key: string; secret: string; passphrase: string }>("POST", "/_sim/api-keys", {
    apiVersion: "2024-05-09",
    ...body,
  })
  if (r.status !== 201) throw new Error(`key creation failed: ${JSON.stringify(r.body)}`)
  return { key: r.body.key, secret: r.body.secret, passphrase: r.body.passphrase }
}
