// API versions: keys pinned to one, x-api-version per request, apiVersion in every answer, operations that a
// version has not answering as an unknown route, and the OpenAPI document of each version.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Credentials } from "../../../src/client/index.js"
import { createKey, startHarness, type Harness } from "../../support/harness.js"
import { inlined } from "../../support/openapi.js"

let h: Harness
let v2026: Credentials
let v2025: Credentials
const ALL = ["2024-05-09", "2025-09-23", "2026-03-20"]

beforeAll(async () => {
  h = await startHarness()
  const made = await h.admin("POST", "/_sim/api-keys", { name: "newest" })
  expect(made.status).toBe(201)
  expect(made.body.apiVersion).toBe("2026-03-20")
  v2026 = { key: made.body.key, secret: made.body.secret, passphrase: made.body.passphrase }
  v2025 = await createKey(h, { apiVersion: "2025-09-23" })
})
afterAll(async () => h.close())

describe("pinning and overriding", () => {
  it("a key created without apiVersion gets the newest; each key answers in its own version", async () => {
    for (const [creds, version] of [
      [h.creds, "2024-05-09"],
      [v2025, "2025-09-23"],
      [v2026, "2026-03-20"],
    ] as const) {
      const r = await h.raw({ method: "GET", url: "/vaults", creds })
      expect(r.status).toBe(200)
      expect(r.body.apiVersion).toBe(version)
    }
  })

  it("x-api-version overrides the key's version for one request, in either direction", async () => {
    const down = await h.raw({
      method: "GET",
      url: `/vaults/${h.testVaultId}/assets`,
      creds: v2026,
      override: { "x-api-version": "2024-05-09" },
    })
    expect(down.body.apiVersion).toBe("2024-05-09")
    const up = await h.raw({ method: "GET", url: "/vaults/test", override: { "x-api-version": "2026-03-20" } })
    expect(up.body.apiVersion).toBe("2026-03-20")
    expect(up.body.data).toMatchObject({ limit: 50, hasMore: false })
    const plain = await h.raw({ method: "GET", url: "/vaults/test" })
    expect(Object.keys(plain.body.data)).toEqual(["items"])
  })

  it("an unknown version is 409 invalid_api_version listing the three accepted", async () => {
    const r = await h.raw({ method: "GET", url: "/vaults", creds: v2026, override: { "x-api-version": "2026-02-28" } })
    expect(r.status).toBe(409)
    expect(r.body.error.code).toBe("invalid_api_version")
    for (const v of ALL) expect(r.body.error.message).toContain(v)
    expect(r.body.error.details).toEqual([{ attribute: "x-api-version", message: `must be one of ${ALL.join(", ")}` }])
  })

  it("the control plane refuses an unknown apiVersion for a key", async () => {
    const r = await h.admin("POST", "/_sim/api-keys", { apiVersion: "2023-04-20" })
    expect(r.status).toBe(400)
    expect(r.body.error.details[0].attribute).toBe("apiVersion")
  })
})

describe("an operation a version has not is an unknown route there", () => {
  it("answers an unknown path's code and status, after authentication, naming the versions that have it", async () => {
    const unknown = await h.raw({ method: "GET", url: "/no/such/route", creds: v2026 })
    expect(unknown.status).toBe(400)
    const chainAddressed = await h.raw({
      method: "GET",
      url: `/vaults/${h.testVaultId}/ethereum/addresses/0x0000000000000000000000000000000000000001/assets`,
      creds: v2026,
    })
    expect(chainAddressed.status).toBe(400)
    expect(chainAddressed.body.error.code).toBe(unknown.body.error.code)
    expect(chainAddressed.body.error.message).toBe(
      "GET /vaults/{vaultId}/{blockchain}/addresses/{address}/assets exists at 2024-05-09 only; at 2026-03-20 use GET /vaults/{vaultId}/addresses/{address}/assets.",
    )
    expect(chainAddressed.body.apiVersion).toBe("2026-03-20")
    const later = await h.raw({ method: "GET", url: `/vaults/${h.testVaultId}/vault-accounts/details` })
    expect(later.status).toBe(400)
    expect(later.body.error.code).toBe("uri_not_found")
    const decode = await h.raw({
      method: "GET",
      url: "/utils/xrp/testnet/addresses/decode/T7YChPFWifjCAXLEtg5N74c7fSAYsvSokwcmBPBUZWhxH5P",
      creds: v2025,
    })
    expect(decode.status).toBe(200)
    const encode = await h.raw({
      method: "GET",
      url: "/utils/xrp/testnet/addresses/encode/rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh/1",
      creds: v2025,
    })
    expect(encode.body.error.code).toBe("uri_not_found")
  })

  it("an unsigned request for it is still 401 first", async () => {
    const r = await h.raw({ method: "GET", url: `/vaults/${h.testVaultId}/vault-accounts/details`, override: { "x-api-key": null } })
    expect(r.status).toBe(401)
  })
})

describe("OpenAPI documents", () => {
  it("are served per version and list the operations of that version only", async () => {
    const docs: Record<string, any> = {}
    for (const v of ALL) {
      const r = await h.app.request(`/openapi/${v}.json`)
      expect(r.status).toBe(200)
      docs[v] = inlined(await r.json())
      expect(docs[v].openapi).toBe("3.1.0")
      expect(docs[v].info.version).toBe(v)
    }
    expect(docs["2024-05-09"].paths["/vaults/{vaultId}/{blockchain}/addresses/{address}/assets"]).toBeDefined()
    expect(docs["2026-03-20"].paths["/vaults/{vaultId}/{blockchain}/addresses/{address}/assets"]).toBeUndefined()
    expect(docs["2024-05-09"].paths["/vaults/{vaultId}/vault-accounts/details"]).toBeUndefined()
    const assets = (v: string) =>
      docs[v].paths["/vaults/{vaultId}/assets"].get.responses["200"].content["application/json"].schema.properties.data.properties.item
        .properties.assets.items
    expect(Object.keys(assets("2024-05-09").properties)).toEqual([
      "assetData",
      "exchangeRate",
      "symbol",
      "type",
      "assetId",
      "blockchain",
      "network",
    ])
    expect(Object.keys(assets("2026-03-20").properties)).toEqual([
      "assetData",
      "exchangeRateUnit",
      "assetUnit",
      "type",
      "assetId",
      "blockchain",
      "network",
    ])
    expect(assets("2026-03-20").additionalProperties).toBe(false)
  })

  it("an unknown version's document is an unknown route; the control plane has its own", async () => {
    const r = await h.app.request("/openapi/2020-01-01.json")
    expect(r.status).toBe(400)
    expect(((await r.json()) as any).error.code).toBe("uri_not_found")
    const sim = await h.app.request("/_sim/openapi.json")
    expect(sim.status).toBe(200)
    const doc: any = await sim.json()
    expect(doc.paths["/_sim/api-keys"].post).toBeDefined()
    expect(doc.paths["/_sim/deposits"].post).toBeDefined()
  })
})

describe("no authentication at all", () => {
  it("is 401 whatever the Content-Type; with authentication a wrong type stays 415", async () => {
    for (const type of [undefined, "text/plain", "application/json"]) {
      const r = await h.app.request(`/vaults`, { headers: type === undefined ? {} : { "content-type": type } })
      expect([type, r.status, ((await r.json()) as any).error.code]).toEqual([type, 401, "missing_api_key"])
    }
    const typed = await h.raw({ method: "GET", url: "/vaults", override: { "content-type": "text/plain" } })
    expect(typed.status).toBe(415)
  })
})
