// Every error code of the spec's table, provoked through a real request, in the check order DESIGN.md gives.
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createKey, startHarness, T0, type Harness } from "../support/harness.js"

let h: Harness
const now = () => Math.floor(Date.now() / 1000)
beforeAll(async () => {
  h = await startHarness()
})
afterAll(async () => h.close())

const accountBody = JSON.stringify({ data: { item: { name: "a", color: "#000000", isHiddenInDashboard: false } } })
const expectError = (r: { status: number; body: any }, status: number, code: string) => {
  expect(r.status).toBe(status)
  expect(r.body.error.code).toBe(code)
  expect(typeof r.body.error.message).toBe("string")
  expect(Array.isArray(r.body.error.details)).toBe(true)
  expect(r.body.apiVersion).toBe("2024-05-09")
  expect(r.body.requestId).toMatch(/^[0-9a-f]{24}$/)
}

describe("401 authentication", () => {
  it("missing_api_key when x-api-key is absent", async () => {
    expectError(await h.raw({ method: "GET", url: "/vaults", override: { "x-api-key": null } }), 401, "missing_api_key")
  })
  for (const header of ["x-api-sign", "x-api-timestamp", "x-api-passphrase"]) {
    it(`missing_authorization_header when ${header} is absent, naming it`, async () => {
      const r = await h.raw({ method: "GET", url: "/vaults", override: { [header]: null } })
      expectError(r, 401, "missing_authorization_header")
      expect(r.body.error.details).toEqual([{ attribute: header, message: "is required" }])
    })
  }
  it("invalid_api_key for an unknown key, a wrong passphrase, a revoked key and a key not yet active", async () => {
    expectError(await h.raw({ method: "GET", url: "/vaults", override: { "x-api-key": "nope-nope-nope" } }), 401, "invalid_api_key")
    expectError(await h.raw({ method: "GET", url: "/vaults", override: { "x-api-passphrase": "wrong" } }), 401, "invalid_api_key")
    const revoked = await createKey(h)
    expect((await h.admin("DELETE", `/_sim/api-keys/${revoked.key}`)).status).toBe(200)
    expectError(await h.raw({ method: "GET", url: "/vaults", creds: revoked }), 401, "invalid_api_key")
    const later = await createKey(h, { activeFrom: now() + 3600 })
    expectError(await h.raw({ method: "GET", url: "/vaults", creds: later }), 401, "invalid_api_key")
  })
  it("invalid_api_timestamp outside 30 s past / 10 s future, accepted just inside", async () => {
    expectError(await h.raw({ method: "GET", url: "/vaults", timestamp: now() - 40 }), 401, "invalid_api_timestamp")
    expectError(await h.raw({ method: "GET", url: "/vaults", timestamp: now() + 20 }), 401, "invalid_api_timestamp")
    expectError(await h.raw({ method: "GET", url: "/vaults", override: { "x-api-timestamp": "soon" } }), 401, "invalid_api_timestamp")
    expect((await h.raw({ method: "GET", url: "/vaults", timestamp: now() - 25 })).status).toBe(200)
    expect((await h.raw({ method: "GET", url: "/vaults", timestamp: now() + 5 })).status).toBe(200)
  })
  it("invalid_api_sign when the signature does not match", async () => {
    expectError(await h.raw({ method: "GET", url: "/vaults", override: { "x-api-sign": "AAAA" } }), 401, "invalid_api_sign")
  })
  it("the timestamp window follows the wall clock, not the simulated clock", async () => {
    expect(h.sim.clock.now()).toBe(T0)
    expect((await h.raw({ method: "GET", url: "/vaults" })).status).toBe(200)
  })
})

describe("403 authorization", () => {
  it("endpoint_not_allowed_for_api_key when the key lacks the scope", async () => {
    const readOnly = await createKey(h, { scopes: ["read"] })
    const r = await h.raw({ method: "POST", url: `/vaults/${h.testVaultId}/vault-account`, body: accountBody, creds: readOnly })
    expectError(r, 403, "endpoint_not_allowed_for_api_key")
  })
  it("endpoint_not_allowed_for_plan when the plan lacks the endpoint", async () => {
    const plan = await createKey(h, { plan: { endpoints: ["listVaults"] } })
    expect((await h.raw({ method: "GET", url: "/vaults", creds: plan })).status).toBe(200)
    expectError(await h.raw({ method: "GET", url: "/vaults/test", creds: plan }), 403, "endpoint_not_allowed_for_plan")
  })
  it("feature_mainnets_not_allowed_for_plan on a mainnet call without a paid plan", async () => {
    const free = await createKey(h, { plan: { mainnets: false } })
    expectError(await h.raw({ method: "GET", url: "/vaults/main", creds: free }), 403, "feature_mainnets_not_allowed_for_plan")
    expect((await h.raw({ method: "GET", url: "/vaults/test", creds: free })).status).toBe(200)
  })
  it("mainnet_not_allowed_for_key for a test key on a mainnet, testnet_not_allowed_for_key for a main key on a testnet", async () => {
    const testKey = await createKey(h, { networkTypes: ["test"] })
    const mainKey = await createKey(h, { networkTypes: ["main"] })
    expectError(await h.raw({ method: "GET", url: "/vaults/main", creds: testKey }), 403, "mainnet_not_allowed_for_key")
    expectError(await h.raw({ method: "GET", url: `/vaults/${h.mainVaultId}/assets`, creds: testKey }), 403, "mainnet_not_allowed_for_key")
    expectError(await h.raw({ method: "GET", url: "/vaults/test", creds: mainKey }), 403, "testnet_not_allowed_for_key")
    expectError(
      await h.raw({
        method: "POST",
        url: "/info/bitcoin/testnet/addresses/validate",
        body: JSON.stringify({ data: { item: { address: "x" } } }),
        creds: mainKey,
      }),
      403,
      "testnet_not_allowed_for_key",
    )
  })
  it("api_key_not_allowed_for_wallet for a vault outside the key's scope or a malformed vault id, before the body is read", async () => {
    const scoped = await createKey(h, { vaultIds: [h.testVaultId] })
    expectError(
      await h.raw({ method: "GET", url: `/vaults/${h.mainVaultId}/assets`, creds: scoped }),
      403,
      "api_key_not_allowed_for_wallet",
    )
    expectError(
      await h.raw({ method: "POST", url: "/vaults/not-a-vault/vault-account", body: "{broken", creds: scoped }),
      403,
      "api_key_not_allowed_for_wallet",
    )
    expect((await h.raw({ method: "GET", url: `/vaults/${h.testVaultId}/assets`, creds: scoped })).status).toBe(200)
    const list = await h.raw({ method: "GET", url: "/vaults", creds: scoped })
    expect(list.body.data.items.map((v: { id: string }) => v.id)).toEqual([h.testVaultId])
  })
})

describe("409, 415, 422", () => {
  it("invalid_api_version lists the accepted values; a known version is echoed as apiVersion", async () => {
    const r = await h.raw({ method: "GET", url: "/vaults", override: { "x-api-version": "2020-01-01" } })
    expectError(r, 409, "invalid_api_version")
    expect(r.body.error.message).toContain("2024-05-09")
    const ok = await h.raw({ method: "GET", url: "/vaults", override: { "x-api-version": "2024-05-09" } })
    expect(ok.body.apiVersion).toBe("2024-05-09")
  })
  it("unsupported_media_type when Content-Type is missing or not JSON", async () => {
    expectError(await h.raw({ method: "GET", url: "/vaults", override: { "content-type": null } }), 415, "unsupported_media_type")
    expectError(
      await h.raw({
        method: "POST",
        url: `/vaults/${h.testVaultId}/vault-account`,
        body: accountBody,
        override: { "content-type": "text/plain" },
      }),
      415,
      "unsupported_media_type",
    )
  })
  it("invalid_request_body_structure: 422 when not wrapped as {data:{item:{}}}, 400 when not JSON", async () => {
    const url = `/vaults/${h.testVaultId}/vault-account`
    expectError(await h.raw({ method: "POST", url, body: JSON.stringify({ name: "a" }) }), 422, "invalid_request_body_structure")
    expectError(await h.raw({ method: "POST", url, body: JSON.stringify({ data: { name: "a" } }) }), 422, "invalid_request_body_structure")
    expectError(await h.raw({ method: "POST", url, body: '{"data":{"item":' }), 400, "invalid_request_body_structure")
  })
  it("missing_required_attributes names each missing attribute", async () => {
    const r = await h.raw({
      method: "POST",
      url: `/vaults/${h.testVaultId}/vault-account`,
      body: JSON.stringify({ data: { item: { color: "#000000" } } }),
    })
    expectError(r, 409, "missing_required_attributes")
    expect(r.body.error.details.map((d: { attribute: string }) => d.attribute)).toEqual(["name", "isHiddenInDashboard"])
  })
  it("extra_body_attributes and extra_query_attributes name the unknown attribute", async () => {
    const body = JSON.stringify({ data: { item: { name: "a", color: "#000000", isHiddenInDashboard: false, nickname: "x" } } })
    const r = await h.raw({ method: "POST", url: `/vaults/${h.testVaultId}/vault-account`, body })
    expectError(r, 409, "extra_body_attributes")
    expect(r.body.error.details).toEqual([{ attribute: "nickname", message: "is not allowed" }])
    const q = await h.raw({ method: "GET", url: "/vaults?limit=5&sort=asc" })
    expectError(q, 409, "extra_query_attributes")
    expect(q.body.error.details).toEqual([{ attribute: "sort", message: "is not allowed" }])
  })
})

describe("429 and the order of checks", () => {
  it("request_limit_reached once the key's bucket is empty, with Retry-After", async () => {
    const limited = await createKey(h, { rateLimit: { perSecond: 0.001, burst: 2 } })
    expect((await h.raw({ method: "GET", url: "/vaults", creds: limited })).status).toBe(200)
    expect((await h.raw({ method: "GET", url: "/vaults", creds: limited })).status).toBe(200)
    const r = await h.raw({ method: "GET", url: "/vaults", creds: limited })
    expectError(r, 429, "request_limit_reached")
    expect(Number(r.headers.get("retry-after"))).toBeGreaterThan(0)
  })
  it("checks run 415 → 401 → 403 → 409 → 422 → 409 attributes", async () => {
    const scoped = await createKey(h, { vaultIds: [h.testVaultId] })
    const url = `/vaults/${h.mainVaultId}/vault-account`
    expectError(
      await h.raw({ method: "POST", url, body: "x", override: { "content-type": null, "x-api-key": null } }),
      415,
      "unsupported_media_type",
    )
    expectError(await h.raw({ method: "POST", url, body: "x", creds: scoped, override: { "x-api-sign": "bad" } }), 401, "invalid_api_sign")
    expectError(
      await h.raw({ method: "POST", url, body: "x", creds: scoped, override: { "x-api-version": "1999-01-01" } }),
      403,
      "api_key_not_allowed_for_wallet",
    )
    const own = `/vaults/${h.testVaultId}/vault-account`
    expectError(
      await h.raw({ method: "POST", url: own, body: "[]", override: { "x-api-version": "1999-01-01" } }),
      409,
      "invalid_api_version",
    )
    expectError(
      await h.raw({ method: "POST", url: own, body: JSON.stringify({ data: { item: [] } }) }),
      422,
      "invalid_request_body_structure",
    )
  })
  it("a request that fails any check writes nothing", async () => {
    const before = h.sim.models.position
    const url = `/vaults/${h.testVaultId}/vault-account`
    await h.raw({ method: "POST", url, body: accountBody, override: { "x-api-sign": "bad" } })
    await h.raw({ method: "POST", url, body: JSON.stringify({ data: { item: { name: "a", color: "red", isHiddenInDashboard: false } } }) })
    await h.raw({
      method: "POST",
      url,
      body: JSON.stringify({ data: { item: { name: "a", color: "#000000", isHiddenInDashboard: "no" } } }),
    })
    expect(h.sim.models.position).toBe(before)
    expect(await Effect.runPromise(h.sim.store.headPosition)).toBe(before)
  })
})

describe("envelope", () => {
  it("echoes context on success and on error, and gives every response a fresh requestId", async () => {
    const a = await h.raw({ method: "GET", url: "/vaults?context=trace-1" })
    const b = await h.raw({ method: "GET", url: "/vaults?context=trace-2&bogus=1" })
    expect(a.body.context).toBe("trace-1")
    expect(b.body.context).toBe("trace-2")
    expect(a.body.requestId).not.toBe(b.body.requestId)
    const post = await h.raw({
      method: "POST",
      url: `/vaults/${h.testVaultId}/vault-account`,
      body: JSON.stringify({ context: "ctx", data: { item: {} } }),
    })
    expect(post.body.context).toBe("ctx")
  })
  it("an unknown path is 400 uri_not_found in the error shape", async () => {
    expectError(await h.raw({ method: "GET", url: "/nowhere" }), 400, "uri_not_found")
  })
})
