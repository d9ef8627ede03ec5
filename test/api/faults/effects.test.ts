// API faults over a real socket with undici: each effect (429/5xx, delay, reset, timeout, lost-answer), after
// authentication (a bad signature keeps its 401), with nothing written for a refused call but the hit itself;
// a lost answer's work is in the next read; a reset or a timeout leaves the server serving other connections.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { createApp } from "../../../src/api/app.js"
import { createKey, startHarness, type Harness } from "../../support/harness.js"
import { signedOver } from "../../support/faults.js"
import { listen } from "../../support/server.js"

let h: Harness
let server: { url: string; close: () => Promise<void> }
beforeAll(async () => {
  h = await startHarness()
  server = await listen(createApp(h.sim, { log: { error: () => {}, info: () => {} } }))
})
afterAll(async () => {
  await server.close()
  await h.close()
})
afterEach(async () => {
  await h.admin("DELETE", "/_sim/faults")
})

const send = signedOver(
  () => server.url,
  () => h.creds,
)
const events = async () => (await h.admin("GET", "/_sim/events?limit=10000")).body.events as Array<{ type: string; data: any }>
/** The types of the events `act` wrote. */
const written = async (act: () => Promise<unknown>) => {
  const before = (await events()).length
  await act()
  return (await events()).slice(before).map((e) => e.type)
}
const fault = async (body: Record<string, unknown>) => {
  const r = await h.admin("POST", "/_sim/faults", body)
  expect(r.status).toBe(201)
  return r.body.id as string
}
const account = { name: "faulted", color: "#000000", isHiddenInDashboard: false }

describe("a status fault", () => {
  const codes = [
    [500, "internal_server_error"],
    [502, "bad_gateway"],
    [503, "service_unavailable"],
    [504, "gateway_timeout"],
  ] as const
  for (const [status, code] of codes)
    it(`${status}: answered before the work in the error envelope (${code}); only the hit is written`, async () => {
      await fault({ match: { method: "POST", path: "/vaults/{vaultId}/vault-account" }, effect: { kind: "status", status }, times: 1 })
      let r: Awaited<ReturnType<typeof send>> | undefined
      const types = await written(async () => {
        r = await send("POST", `/vaults/${h.testVaultId}/vault-account`, { item: account })
      })
      expect([r!.status, r!.body.error.code, r!.body.apiVersion, typeof r!.body.requestId]).toEqual([status, code, "2024-05-09", "string"])
      expect(types).toEqual(["FaultHit"])
      const hit = (await events()).at(-1)!
      expect(hit.data.requestId).toBe(r!.body.requestId)
    })

  it("429: request_limit_reached with a retry-after, in the wording of the key's version", async () => {
    await fault({ match: { path: "/vaults" }, effect: { kind: "status", status: 429 } })
    const old = await send("GET", "/vaults")
    expect([old.status, old.body.error.code, old.body.error.message, old.headers["retry-after"]]).toEqual([
      429,
      "request_limit_reached",
      "The API key's request rate limit has been reached; back off and retry.",
      "1",
    ])
    const creds = await createKey(h, { apiVersion: "2026-03-20" })
    const now = await send("GET", "/vaults", { creds })
    expect([now.status, now.body.error.code]).toEqual([429, "request_limit_reached"])
    expect(now.body.error.message).toMatch(/^Request limit reached: \d+ requests per 1 second\(s\)\.$/)
  })

  it("comes after authentication: a bad signature is still 401 and is no hit", async () => {
    const id = await fault({ match: {}, effect: { kind: "status", status: 503 } })
    const r = await send("GET", "/vaults", { headers: { "x-api-sign": Buffer.alloc(32).toString("base64") } })
    expect([r.status, r.body.error.code]).toEqual([401, "invalid_api_sign"])
    expect((await h.admin("GET", "/_sim/faults")).body.faults.find((f: { id: string }) => f.id === id).hits).toBe(0)
  })
})

describe("a delay fault", () => {
  it("answers the real answer after the wall-clock delay", async () => {
    await fault({ match: { path: "/vaults" }, effect: { kind: "delay", ms: 150 } })
    const started = performance.now()
    const r = await send("GET", "/vaults")
    expect(performance.now() - started).toBeGreaterThanOrEqual(140)
    expect([r.status, Array.isArray(r.body.data.items)]).toEqual([200, true])
  })
})

describe("a reset fault", () => {
  it("drops the connection before the work: nothing written but the hit; the next connection is served", async () => {
    await fault({ match: { method: "POST" }, effect: { kind: "reset" }, times: 1 })
    const types = await written(async () => {
      await expect(send("POST", `/vaults/${h.testVaultId}/vault-account`, { item: account })).rejects.toThrow()
    })
    expect(types).toEqual(["FaultHit"])
    expect((await send("GET", "/vaults")).status).toBe(200)
  })
})

describe("a timeout fault", () => {
  it("gives no answer until the client gives up; nothing written; other connections are served meanwhile", async () => {
    await fault({ match: { method: "POST" }, effect: { kind: "timeout" }, times: 1 })
    const types = await written(async () => {
      const held = send("POST", `/vaults/${h.testVaultId}/vault-account`, { item: account, signal: AbortSignal.timeout(400) })
      const caught = held.catch((e: unknown) => e)
      expect((await send("GET", "/vaults")).status).toBe(200)
      expect(await caught).toBeInstanceOf(Error)
    })
    expect(types).toEqual(["FaultHit"])
    expect((await send("GET", "/vaults")).status).toBe(200)
  })
})

describe("a lost-answer fault", () => {
  it("does the work and commits it, then drops the connection: the next read shows it", async () => {
    await fault({ match: { method: "POST", path: `/vaults/${h.testVaultId}/vault-account` }, effect: { kind: "lost-answer" }, times: 1 })
    const name = "lost but made"
    const types = await written(async () => {
      await expect(send("POST", `/vaults/${h.testVaultId}/vault-account`, { item: { ...account, name } })).rejects.toThrow()
    })
    expect(types).toEqual(["FaultHit", "VaultAccountCreated"])
    const creds = await createKey(h, { apiVersion: "2026-03-20" })
    const list = await send("GET", `/vaults/${h.testVaultId}/vault-accounts/details?limit=50`, { creds })
    expect([list.status, list.body.error]).toEqual([200, undefined])
    expect(JSON.stringify(list.body.data.items)).toContain(`"${name}"`)
  })
})
