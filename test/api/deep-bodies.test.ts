// A body nested thousands of arrays deep is a 400 invalid_request_body_structure in the plane's error shape, on
// every route that takes a body, never a 500 (walking it, the fixture's asset-id mapping among others, would
// exhaust the stack). Over a real socket, with a fixture that maps asset ids; nothing is written.
import { Effect } from "effect"
import { request } from "undici"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createApp, defaultOperations, defaultSimRoutes } from "../../src/api/app.js"
import { MAX_BODY_DEPTH } from "../../src/api/body.js"
import { signRequest } from "../../src/client/signing.js"
import { API_VERSIONS } from "../../src/domain/api-key/index.js"
import { startHarness, type Harness } from "../support/harness.js"
import { listen } from "../support/server.js"
import { isApiErrorShape, isSimErrorShape } from "../support/strict-http.js"

const DEEP = "[".repeat(10_000) + "]".repeat(10_000)
const MESSAGE = `The request body nests arrays and objects more than ${MAX_BODY_DEPTH} levels deep.`

let h: Harness
let server: { url: string; close: () => Promise<void> }
const defects: Array<unknown> = []
beforeAll(async () => {
  h = await startHarness({
    fixture: {
      vaults: [{ name: "Ops", type: "test" }],
      apiKeys: [{ name: "ops", apiVersion: "2024-05-09", rateLimit: { perSecond: 1_000_000, burst: 1_000_000 } }],
      assets: [{ assetId: "6523e058a06ebf1322d7dd6f", blockchain: "ethereum", network: "sepolia", symbol: "eth" }],
    },
  })
  server = await listen(createApp(h.sim, { log: { error: (e) => defects.push(e), info: () => {} }, authFailureLimit: false }))
})
afterAll(async () => {
  await server.close()
  await h.close()
})

const send = async (method: string, path: string, body: string, headers: Record<string, string>) => {
  const res = await request(server.url + path, {
    method: method as "POST",
    headers: { "content-type": "application/json", ...headers },
    body,
    headersTimeout: 20_000,
    bodyTimeout: 20_000,
  })
  const text = await res.body.text()
  return { status: res.statusCode, body: JSON.parse(text) as { error?: { code?: string; message?: string } } }
}
// Other ids well formed (at 2026-03-20 a malformed one is answered 409 before the body is read), other parameters any text.
const fill = (path: string) =>
  path
    .replace(":vaultId", h.testVaultId)
    .replace(/:[A-Za-z]+Id\b/g, "0".repeat(24))
    .replace(/:[A-Za-z]+/g, "x")

describe("a body nested 10,000 arrays deep", () => {
  it("every operation that takes a body, at a version it exists in: 400 in the spec's error shape", async () => {
    const before = await Effect.runPromise(h.sim.store.headPosition)
    const writes = defaultOperations.filter((op) => op.method !== "GET")
    expect(writes.length).toBeGreaterThan(10)
    for (const op of writes) {
      const version = op.versions?.[0] ?? API_VERSIONS[0]
      const path = fill(op.path)
      for (const body of [DEEP, `{"data":{"item":{"assetId":"x","name":${DEEP}}}}`]) {
        const a = await send(op.method, path, body, {
          ...signRequest(h.creds, { method: op.method, url: path, body }),
          "x-api-version": version,
        })
        expect([op.id, a.status, a.body.error?.code, a.body.error?.message]).toEqual([
          op.id,
          400,
          "invalid_request_body_structure",
          MESSAGE,
        ])
        expect(isApiErrorShape(a.body)).toBe(true)
      }
    }
    expect(await Effect.runPromise(h.sim.store.headPosition)).toBe(before)
  })

  it("every control-plane route that takes a JSON body, and the dashboard's login: 400 in the control plane's shape", async () => {
    const before = await Effect.runPromise(h.sim.store.headPosition)
    const routes = defaultSimRoutes.filter((r) => (r.method === "POST" || r.method === "PUT") && r.rawBody !== true)
    expect(routes.length).toBeGreaterThan(10)
    for (const route of routes) {
      const path = fill(route.path)
      for (const body of [DEEP, `{"assetId":"x","amount":${DEEP}}`]) {
        const a = await send(route.method, path, body, { authorization: `Bearer ${h.sim.adminToken}` })
        expect([route.path, a.status, a.body.error?.code, a.body.error?.message]).toEqual([
          route.path,
          400,
          "invalid_request_body_structure",
          MESSAGE,
        ])
        expect(isSimErrorShape(a.body)).toBe(true)
      }
    }
    const login = await send("POST", "/ui/session", `{"token":${DEEP}}`, { origin: server.url })
    expect([login.status, login.body.error?.code]).toEqual([400, "invalid_request_body_structure"])
    expect(await Effect.runPromise(h.sim.store.headPosition)).toBe(before)
  })

  it("64 levels are still read as JSON (the checks answer), brackets inside strings do not count, and the server goes on", async () => {
    const nested = "[".repeat(MAX_BODY_DEPTH - 3) + "]".repeat(MAX_BODY_DEPTH - 3)
    const path = `/vaults/${h.testVaultId}/vault-account`
    const body = `{"data":{"item":{"name":${nested},"color":"[[[[","isHiddenInDashboard":false}}}`
    const a = await send("POST", path, body, signRequest(h.creds, { method: "POST", url: path, body }))
    expect([a.status, a.body.error?.code]).toEqual([400, "invalid_data"])
    const name = "[".repeat(10_000)
    const ok = JSON.stringify({ data: { item: { name: name.slice(0, 100), color: "#00AA00", isHiddenInDashboard: false } } })
    const made = await send("POST", path, ok, signRequest(h.creds, { method: "POST", url: path, body: ok }))
    expect(made.status).toBe(201)
    const health = await request(`${server.url}/_sim/health`)
    expect(health.statusCode).toBe(200)
    await health.body.text()
    expect(defects).toEqual([])
  })
})
