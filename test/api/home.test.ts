// GET / (no authentication) says where things are: the docs, the dashboard, each version's OpenAPI document and
// the control plane's; every link it gives answers 200. Over a real socket with a strict client.
import type { Client } from "undici"
import { afterAll, beforeAll, expect, it } from "vitest"
import { startHarness, type Harness } from "../support/harness.js"
import { listen } from "../support/server.js"
import { framingFault, send, strictConnection } from "../support/strict-http.js"

let h: Harness
let server: { url: string; close: () => Promise<void> }
let client: Client
beforeAll(async () => {
  h = await startHarness({ apiVersion: "2026-03-20" })
  server = await listen(h.app)
  client = strictConnection(server.url)
})
afterAll(async () => {
  await client?.close()
  await server?.close()
  await h?.close()
})

it("points to the docs, the dashboard and the OpenAPI documents, each link served", async () => {
  const a = await send(client, { method: "GET", path: "/" })
  expect(framingFault(a)).toBeUndefined()
  expect(a.status).toBe(200)
  const body = JSON.parse(a.text)
  const u = server.url
  expect(body).toEqual({
    name: "custody-sim",
    about: expect.stringContaining("/_sim is the control plane"),
    docs: "README.md (the endpoint table under Endpoints) and docs/*.md of the custody-sim package",
    dashboard: `${u}/ui`,
    reference: `${u}/docs`,
    openapi: {
      "2024-05-09": `${u}/openapi/2024-05-09.json`,
      "2025-09-23": `${u}/openapi/2025-09-23.json`,
      "2026-03-20": `${u}/openapi/2026-03-20.json`,
      controlPlane: `${u}/_sim/openapi.json`,
    },
    health: `${u}/_sim/health`,
  })
  for (const link of [...Object.values(body.openapi as Record<string, string>), body.health as string]) {
    const r = await send(client, { method: "GET", path: link.slice(u.length) })
    expect([link, r.status]).toEqual([link, 200])
  }
  const ui = await send(client, { method: "GET", path: body.dashboard.slice(u.length) })
  expect([ui.status, ui.headers["content-type"]]).toEqual([200, expect.stringMatching(/^text\/html/)])
  const reference = await send(client, { method: "GET", path: body.reference.slice(u.length) })
  expect([reference.status, reference.headers["content-type"]]).toEqual([200, expect.stringMatching(/^text\/html/)])
})
