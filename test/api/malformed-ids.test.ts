// Malformed ids in paths over a socket: 409 invalid_id_format at 2026-03-20, as the 2026 contract's error table has
// a malformed vaultAccountId (custody-api-2026.md §2.5, §3.2.3), on every route whose path holds such an id; an
// unknown well-formed id stays 404, a malformed vault id 403; earlier versions answer as before; nothing is written.
import { Effect } from "effect"
import type { Client } from "undici"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createApp } from "../../src/api/app.js"
import type { Credentials } from "../../src/client/index.js"
import { assetId } from "../support/catalogue.js"
import { createKey, startHarness, type Harness } from "../support/harness.js"
import { listen } from "../support/server.js"
import { signedCall, strictConnection } from "../support/strict-http.js"

let h: Harness
let creds: Credentials
let connection: Client
let server: { url: string; close: () => Promise<void> }
let vault: string

beforeAll(async () => {
  h = await startHarness()
  creds = await createKey(h, { apiVersion: "2026-03-20" })
  server = await listen(createApp(h.sim, { log: { error: () => {}, info: () => {} } }))
  connection = strictConnection(server.url)
  vault = (await h.admin("POST", "/_sim/vaults", { name: "ids", type: "test", backuped: true })).body.id
})
afterAll(async () => {
  await connection.close()
  await server.close()
  await h.close()
})

const call = signedCall(
  () => connection,
  () => creds,
)
const head = () => Effect.runPromise(h.sim.store.headPosition)

const BAD = "invalid-id-format"
const UNKNOWN = "000000000000000000000000"
const USDC = assetId("ethereum", "sepolia", "USDC")
const routes = (account: string): Array<[string, string, unknown?]> => [
  ["GET", `/vaults/\${vault}/vault-accounts/${account}/details`],
  ["GET", `/vaults/\${vault}/vault-accounts/${account}/list-assets`],
  ["GET", `/vaults/\${vault}/vault-accounts/${account}/list-addresses`],
  ["GET", `/vaults/\${vault}/vault-accounts/${account}/transactions`],
  ["PUT", `/vaults/\${vault}/vault-accounts/${account}/edit`, { name: "x" }],
  ["PUT", `/vaults/\${vault}/vault-accounts/${account}/add-asset`, { assetId: USDC, label: "x" }],
]
// biome-ignore lint/suspicious/noTemplateCurlyInString: the paths below name the vault as "${vault}", filled here
const at = (path: string) => path.replace("${vault}", vault)

describe("a malformed vaultAccountId at 2026-03-20", () => {
  it.each(routes(BAD))("%s %s is 409 invalid_id_format naming it, and writes nothing", async (method, path, item) => {
    const before = await head()
    const r = await call("2026-03-20", method, at(path), item)
    expect(r.status).toBe(409)
    expect(r.body.error).toEqual({
      code: "invalid_id_format",
      message: "The vaultAccountId in the path is not a valid id.",
      details: [{ attribute: "vaultAccountId", message: "must be 24 lowercase hex characters" }],
    })
    expect(r.body).toMatchObject({ apiVersion: "2026-03-20", requestId: expect.any(String) })
    expect(await head()).toBe(before)
  })

  it.each(routes(UNKNOWN))("%s %s with a well-formed unknown id stays 404 resource_not_found", async (method, path, item) => {
    const r = await call("2026-03-20", method, at(path), item)
    expect([r.status, r.body.error.code]).toEqual([404, "resource_not_found"])
  })

  it("an upper-case hex id is malformed too (the service issues lower case); a malformed vault id is 403 before it", async () => {
    const upper = await call("2026-03-20", "GET", `/vaults/${vault}/vault-accounts/${vault.toUpperCase()}/details`)
    expect([upper.status, upper.body.error.code]).toEqual([409, "invalid_id_format"])
    const badVault = await call("2026-03-20", "GET", `/vaults/not-a-vault/vault-accounts/${BAD}/details`)
    expect([badVault.status, badVault.body.error.code]).toEqual([403, "api_key_not_allowed_for_wallet"])
  })
})

describe("a malformed transactionRequestId at 2026-03-20", () => {
  it("GET /transaction-requests/{id} is 409; a well-formed unknown one 404", async () => {
    const bad = await call("2026-03-20", "GET", `/transaction-requests/${BAD}`)
    expect([bad.status, bad.body.error.code, bad.body.error.details]).toEqual([
      409,
      "invalid_id_format",
      [{ attribute: "transactionRequestId", message: "must be 24 lowercase hex characters" }],
    ])
    const unknown = await call("2026-03-20", "GET", `/transaction-requests/${UNKNOWN}`)
    expect([unknown.status, unknown.body.error.code]).toEqual([404, "resource_not_found"])
  })
})

describe("earlier versions answer as before", () => {
  it.each(["2024-05-09", "2025-09-23"] as const)("at %s a malformed id is an unknown one: 404", async (version) => {
    const add = await call(version, "PUT", `/vaults/${vault}/vault-accounts/${BAD}/add-asset`, { assetId: USDC, label: "x" })
    expect([add.status, add.body.error.code]).toEqual([404, "resource_not_found"])
    const request = await call(version, "GET", `/transactionRequests/${BAD}`)
    expect([request.status, request.body.error.code]).toEqual([404, "resource_not_found"])
  })
})
