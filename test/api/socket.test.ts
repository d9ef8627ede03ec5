// Over a real socket: the IP allowlist (ip_address_not_whitelisted), bodies read off the socket, the body size limit.
import http from "node:http"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createApp } from "../../src/api/app.js"
import { CustodyClient } from "../../src/client/index.js"
import { signRequest } from "../../src/client/signing.js"
import { createKey, startHarness, type Harness } from "../support/harness.js"
import { listen } from "../support/server.js"

let h: Harness
let server: { url: string; close: () => Promise<void> }
beforeAll(async () => {
  h = await startHarness()
  server = await listen(createApp(h.sim, { bodyLimit: 4096, log: { error: () => {}, info: () => {} } }))
})
afterAll(async () => {
  await server.close()
  await h.close()
})

describe("over a socket on 127.0.0.1", () => {
  it("refuses a key whose allowlist lacks the caller with 403 ip_address_not_whitelisted", async () => {
    const creds = await createKey(h, { ipAllowlist: ["10.1.2.3", "192.168.0.0/16"] })
    const r = await new CustodyClient({ baseUrl: server.url, credentials: creds }).listVaults()
    expect(r.status).toBe(403)
    expect(r.ok ? "" : r.body.error.code).toBe("ip_address_not_whitelisted")
  })
  it("accepts the caller when its address or block is on the allowlist", async () => {
    for (const entry of ["127.0.0.1", "127.0.0.0/8"]) {
      const creds = await createKey(h, { ipAllowlist: [entry] })
      expect((await new CustodyClient({ baseUrl: server.url, credentials: creds }).listVaults()).status).toBe(200)
    }
  })
  it("answers an oversized body with 413 in the error shape", async () => {
    const r = await new CustodyClient({ baseUrl: server.url, credentials: h.creds }).call(
      "POST",
      `/vaults/${h.testVaultId}/vault-account`,
      {
        item: { name: "x".repeat(10_000), color: "#000000", isHiddenInDashboard: false },
      },
    )
    expect(r.status).toBe(413)
    expect(r.ok ? "" : r.body.error.code).toBe("request_body_too_large")
  })

  it("reads a signed body off the socket byte for byte (multi-byte characters included) and creates the account", async () => {
    const name = "Zoë's wallet ✓ 𝄞"
    const r = await new CustodyClient({ baseUrl: server.url, credentials: h.creds }).call<{ item: { name: string } }>(
      "POST",
      `/vaults/${h.testVaultId}/vault-account`,
      {
        item: { name, color: "#000000", isHiddenInDashboard: false },
      },
    )
    expect(r.status).toBe(201)
    expect(r.ok ? r.body.data.item.name : "").toBe(name)
  })

  // A chunked body carries no Content-Length: the limit holds while it is read.
  const postChunked = (path: string, chunks: ReadonlyArray<string>) =>
    new Promise<{ status: number; body: { error?: { code?: string } } }>((resolve, reject) => {
      const body = chunks.join("")
      const headers = signRequest(h.creds, { method: "POST", url: path, body })
      const req = http.request(
        `${server.url}${path}`,
        { method: "POST", headers: { ...headers, "transfer-encoding": "chunked" } },
        (res) => {
          let text = ""
          res
            .on("data", (d: Buffer) => (text += d.toString("utf8")))
            .on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }))
        },
      )
      req.on("error", reject)
      for (const c of chunks) req.write(c)
      req.end()
    })

  it("takes a chunked body within the limit, and answers one past it with 413 before creating anything", async () => {
    const path = `/vaults/${h.testVaultId}/vault-account`
    const item = (name: string) => JSON.stringify({ data: { item: { name, color: "#000000", isHiddenInDashboard: false } } })
    const small = item("chunked")
    expect((await postChunked(path, [small.slice(0, 10), small.slice(10)])).status).toBe(201)
    const before = await Effect.runPromise(h.sim.store.headPosition)
    const big = item("y".repeat(6_000))
    const r = await postChunked(path, [big.slice(0, 3_000), big.slice(3_000)])
    expect(r.status).toBe(413)
    expect(r.body.error?.code).toBe("request_body_too_large")
    expect(await Effect.runPromise(h.sim.store.headPosition)).toBe(before)
  })
})
