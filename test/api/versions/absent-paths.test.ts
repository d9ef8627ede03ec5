// A path that exists in another version than the request's: 400 uri_not_found as the service answers, with a
// message naming the versions that have it and what to call instead; over a real socket, nothing written.
import type { Client } from "undici"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { signRequest, type Credentials } from "../../../src/client/index.js"
import { createKey, startHarness, type Harness } from "../../support/harness.js"
import { listen } from "../../support/server.js"
import { framingFault, send, strictConnection } from "../../support/strict-http.js"

let h: Harness
let server: { url: string; close: () => Promise<void> }
let client: Client
const keys: Record<string, Credentials> = {}

beforeAll(async () => {
  h = await startHarness({ apiVersion: "2024-05-09" })
  for (const v of ["2024-05-09", "2025-09-23", "2026-03-20"]) keys[v] = await createKey(h, { apiVersion: v })
  server = await listen(h.app)
  client = strictConnection(server.url)
})
afterAll(async () => {
  await client?.close()
  await server?.close()
  await h?.close()
})

const call = async (version: string, method: "GET" | "POST", path: string, item: unknown = {}) => {
  const body = method === "GET" ? "" : JSON.stringify({ data: { item } })
  const a = await send(client, {
    method,
    path,
    headers: signRequest(keys[version]!, { method, url: path, body }),
    ...(method === "GET" ? {} : { body }),
  })
  expect(framingFault(a)).toBeUndefined()
  return { status: a.status, body: JSON.parse(a.text) }
}

describe("a path of another version", () => {
  it("names the version that has it and the path that replaces it (#8 at 2025-09-23 and 2026-03-20)", async () => {
    const path = `/vaults/${h.testVaultId}/ethereum/addresses/0x0000000000000000000000000000000000000001/assets`
    for (const v of ["2025-09-23", "2026-03-20"]) {
      const r = await call(v, "GET", path)
      expect(r.status).toBe(400)
      expect(r.body.apiVersion).toBe(v)
      expect(r.body.error).toEqual({
        code: "uri_not_found",
        message: `GET /vaults/{vaultId}/{blockchain}/addresses/{address}/assets exists at 2024-05-09 only; at ${v} use GET /vaults/{vaultId}/addresses/{address}/assets.`,
        details: [
          { attribute: "x-api-version", message: "GET /vaults/{vaultId}/{blockchain}/addresses/{address}/assets exists at 2024-05-09" },
        ],
      })
    }
    // At its own version the path is routed: an address the vault has not is 404 there.
    const own = await call("2024-05-09", "GET", path)
    expect([own.status, own.body.error.code]).toEqual([404, "resource_not_found"])
  })

  it("#9 and #15 at 2026-03-20 point to list-addresses and /transaction-requests/{id}", async () => {
    const nine = await call("2026-03-20", "GET", `/assets/c752547c0bd861fa5bd99639/vaults/${h.testVaultId}/ethereum/sepolia/addresses`)
    expect([nine.status, nine.body.error.code]).toEqual([400, "uri_not_found"])
    expect(nine.body.error.message).toBe(
      "GET /assets/{assetId}/vaults/{vaultId}/{blockchain}/{network}/addresses exists at 2024-05-09 and 2025-09-23 only; at 2026-03-20 use GET /vaults/{vaultId}/vault-accounts/{vaultAccountId}/list-addresses.",
    )
    const fifteen = await call("2026-03-20", "GET", "/transactionRequests/0123456789abcdef01234567")
    expect(fifteen.body.error.message).toBe(
      "GET /transactionRequests/{transactionRequestId} exists at 2024-05-09 and 2025-09-23 only; at 2026-03-20 use GET /transaction-requests/{transactionRequestId}.",
    )
    const back = await call("2024-05-09", "GET", "/transaction-requests/0123456789abcdef01234567")
    expect(back.body.error.message).toBe(
      "GET /transaction-requests/{transactionRequestId} exists at 2026-03-20 only; at 2024-05-09 use GET /transactionRequests/{transactionRequestId}.",
    )
  })

  it("a newer path without a counterpart names the header that reaches it", async () => {
    const r = await call("2024-05-09", "GET", `/vaults/${h.testVaultId}/utxos`)
    expect([r.status, r.body.error.code]).toEqual([400, "uri_not_found"])
    expect(r.body.error.message).toBe(
      "GET /vaults/{vaultId}/utxos exists at 2026-03-20 only; this request is at 2024-05-09: send x-api-version: 2026-03-20 to call it.",
    )
    const decode = await call("2024-05-09", "GET", "/utils/xrp/testnet/addresses/decode/T7YChPFWifjCAXLEtg5N74c7fSAYsvSokwcmBPBUZWhxH5P")
    expect(decode.body.error.message).toBe(
      "GET /utils/xrp/{network}/addresses/decode/{xAddress} exists from 2025-09-23 on; this request is at 2024-05-09: send x-api-version: 2026-03-20 to call it.",
    )
  })

  it("a write of another version writes nothing and points to the version's own path", async () => {
    const before = (await h.admin("GET", "/_sim/events?limit=1000")).body.events.length
    const r = await call(
      "2026-03-20",
      "POST",
      `/vaults/${h.testVaultId}/ethereum/sepolia/addresses/0x0000000000000000000000000000000000000001/transaction-requests`,
      {
        amount: "0.1",
        feePriority: "standard",
        recipientAddress: "0x000000000000000000000000000000000000dEaD",
      },
    )
    expect(r.status).toBe(400)
    expect(r.body.error.message).toBe(
      "POST /vaults/{vaultId}/{blockchain}/{network}/addresses/{address}/transaction-requests exists at 2024-05-09 only; at 2026-03-20 use POST /vaults/{vaultId}/transaction-requests/single-transfer.",
    )
    expect((await h.admin("GET", "/_sim/events?limit=1000")).body.events.length).toBe(before)
  })

  it("a path no version has still answers the plain message", async () => {
    const r = await call("2026-03-20", "GET", "/no/such/route")
    expect(r.body.error).toEqual({
      code: "uri_not_found",
      message: "The specified URI has not been found. Check the URI and try again.",
      details: [],
    })
  })
})
