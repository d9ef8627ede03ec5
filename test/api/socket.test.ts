// Over a real socket: the IP allowlist (ip_address_not_whitelisted) and the body size limit.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createApp } from "../../src/api/app.js"
import { CustodyClient } from "../../src/client/index.js"
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
    const r = await new CustodyClient({ baseUrl: server.url, credentials: h.creds }).call("POST", `/vaults/${h.testVaultId}/vault-account`, {
      item: { name: "x".repeat(10_000), color: "#000000", isHiddenInDashboard: false },
    })
    expect(r.status).toBe(413)
    expect(r.ok ? "" : r.body.error.code).toBe("request_body_too_large")
  })
})
