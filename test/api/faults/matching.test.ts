// Which calls a fault hits, over a real socket with undici: each schedule (times, every, probability with the same
// and another seed) and each part of the match (method, path as a template or a concrete path, apiKey,
// apiVersion); and the request log's line of a faulted request, answered or dropped, names the fault.
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { getRequestListener } from "@hono/node-server"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { createApp } from "../../../src/api/app.js"
import { loggedResponse } from "../../../src/cli/request-log.js"
import { createKey, startHarness, type Harness } from "../../support/harness.js"
import { signedOver } from "../../support/faults.js"

let h: Harness
let server: Server
let url = ""
let logged = ""
beforeAll(async () => {
  h = await startHarness()
  const app = createApp(h.sim, { log: { error: () => {}, info: () => {} } })
  server = createServer(
    { ServerResponse: loggedResponse({ format: "text", write: (chunk) => void (logged += chunk) }) },
    getRequestListener(app.fetch),
  )
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve))
  await h.close()
})
afterEach(async () => {
  await h.admin("DELETE", "/_sim/faults")
})

const send = signedOver(
  () => url,
  () => h.creds,
)
const fault = async (body: Record<string, unknown>) => {
  const r = await h.admin("POST", "/_sim/faults", { effect: { kind: "status", status: 503 }, ...body })
  expect(r.status).toBe(201)
  return r.body.id as string
}
/** The statuses of `n` signed `GET /vaults`, as a string of 1 (faulted, 503) and 0 (served). */
const pattern = async (n: number) => {
  let out = ""
  for (let i = 0; i < n; i++) out += (await send("GET", "/vaults")).status === 503 ? "1" : "0"
  return out
}

describe("a fault's schedule", () => {
  it("none: every matching call", async () => {
    await fault({ match: { path: "/vaults" } })
    expect(await pattern(4)).toBe("1111")
  })
  it("times: the next N matching calls, then none; the list shows the hits", async () => {
    const id = await fault({ match: { path: "/vaults" }, times: 2 })
    expect(await pattern(5)).toBe("11000")
    expect((await h.admin("GET", "/_sim/faults")).body.faults).toEqual([expect.objectContaining({ id, hits: 2 })])
  })
  it("every: the k-th, 2k-th, … matching call", async () => {
    await fault({ match: { path: "/vaults" }, every: 3 })
    expect(await pattern(9)).toBe("001001001")
  })
  it("probability with a seed: the same seed gives the same calls, another seed others", async () => {
    await fault({ match: { path: "/vaults" }, probability: 0.5, seed: "alpha" })
    const first = await pattern(24)
    await h.admin("DELETE", "/_sim/faults")
    await fault({ match: { path: "/vaults" }, probability: 0.5, seed: "alpha" })
    expect(await pattern(24)).toBe(first)
    await h.admin("DELETE", "/_sim/faults")
    await fault({ match: { path: "/vaults" }, probability: 0.5, seed: "beta" })
    expect(await pattern(24)).not.toBe(first)
    expect(first).toMatch(/1/)
    expect(first).toMatch(/0/)
  })
})

describe("a fault's match", () => {
  it("method: only calls of that method", async () => {
    await fault({ match: { method: "POST" } })
    expect((await send("GET", "/vaults")).status).toBe(200)
    await h.admin("DELETE", "/_sim/faults")
    await fault({ match: { method: "get" } })
    expect((await send("GET", "/vaults")).status).toBe(503)
  })
  it("path as the endpoint's template: every call of that operation, whatever its ids", async () => {
    await fault({ match: { path: "/vaults/{vaultId}/assets" } })
    expect((await send("GET", `/vaults/${h.testVaultId}/assets`)).status).toBe(503)
    expect((await send("GET", `/vaults/${h.mainVaultId}/assets`)).status).toBe(503)
    expect((await send("GET", "/vaults")).status).toBe(200)
  })
  it("path as a concrete path: only that path", async () => {
    await fault({ match: { path: `/vaults/${h.testVaultId}/assets` } })
    expect((await send("GET", `/vaults/${h.testVaultId}/assets`)).status).toBe(503)
    expect((await send("GET", `/vaults/${h.mainVaultId}/assets`)).status).toBe(200)
  })
  it("apiKey: only that key's calls", async () => {
    const other = await createKey(h)
    await fault({ match: { apiKey: other.key } })
    expect((await send("GET", "/vaults")).status).toBe(200)
    expect((await send("GET", "/vaults", { creds: other })).status).toBe(503)
  })
  it("apiVersion: only calls at that version", async () => {
    const newer = await createKey(h, { apiVersion: "2026-03-20" })
    await fault({ match: { apiVersion: "2026-03-20" } })
    expect((await send("GET", "/vaults")).status).toBe(200)
    expect((await send("GET", "/vaults", { creds: newer })).status).toBe(503)
  })
  it("every part given must hold", async () => {
    const other = await createKey(h)
    await fault({ match: { method: "GET", path: "/vaults", apiKey: other.key } })
    expect((await send("GET", "/vaults")).status).toBe(200)
    expect((await send("GET", `/vaults/${h.testVaultId}/assets`, { creds: other })).status).toBe(200)
    expect((await send("GET", "/vaults", { creds: other })).status).toBe(503)
  })
})

describe("the request log", () => {
  /** The line naming `text`, once written (lines are written in batches). */
  const lineWith = async (text: string) => {
    await expect.poll(() => logged.includes(text)).toBe(true)
    return logged.split("\n").find((l) => l.includes(text))!
  }
  it("marks an answered faulted request with the fault's id, and a plain one not", async () => {
    const id = await fault({ match: { path: "/vaults" }, times: 1 })
    const faulted = await send("GET", "/vaults")
    const plain = await send("GET", "/vaults")
    expect([faulted.status, plain.status]).toEqual([503, 200])
    expect(await lineWith(`fault=${id}`)).toMatch(
      new RegExp(` GET /vaults 503 .* request=${faulted.body.requestId} error=service_unavailable fault=${id}$`),
    )
    expect(await lineWith(`request=${plain.body.requestId}`)).not.toContain("fault=")
  })
  it("logs a dropped connection with status 0 and the fault's id", async () => {
    const id = await fault({ match: { path: "/vaults" }, effect: { kind: "reset" }, times: 1 })
    await expect(send("GET", "/vaults")).rejects.toThrow()
    expect(await lineWith(`fault=${id}`)).toMatch(new RegExp(` GET /vaults 0 .* fault=${id}$`))
  })
})
