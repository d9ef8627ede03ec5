// A vault the key does not know, on the vault-scoped routes that 2026-03-20 kept from earlier versions: 403
// api_key_not_allowed_for_wallet there (as on its new routes), 404 resource_not_found up to 2025-09-23, and nothing
// written either way.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Credentials } from "../../../src/client/index.js"
import { assetId } from "../../support/catalogue.js"
import { createKey, startHarness, type Harness } from "../../support/harness.js"

let h: Harness
let v26: Credentials
let v25: Credentials
const NONE = "000000000000000000000000"
const ETH = assetId("ethereum", "sepolia", "ETH")
const ADDRESS = "0x00000000000000000000000000000000000000aa"

const routes: ReadonlyArray<readonly [string, string, unknown?]> = [
  ["GET", `/vaults/${NONE}/assets`],
  ["GET", `/vaults/${NONE}/transactions`],
  ["GET", `/vaults/${NONE}/ethereum/transactions/0x${"ab".repeat(32)}`],
  ["GET", `/vaults/${NONE}/addresses/${ADDRESS}/assets`],
  ["POST", `/vaults/${NONE}/ethereum/sepolia/addresses`, { label: "x", vaultAccountId: NONE }],
  ["PUT", `/vaults/${NONE}/vault-accounts/${NONE}/add-asset`, { assetId: ETH, label: "x" }],
]

beforeAll(async () => {
  h = await startHarness()
  v26 = await createKey(h, { apiVersion: "2026-03-20" })
  v25 = await createKey(h, { apiVersion: "2025-09-23" })
})
afterAll(async () => h.close())

const send = (creds: Credentials, [method, url, item]: readonly [string, string, unknown?]) =>
  h.raw({ method, url, creds, ...(item !== undefined ? { body: JSON.stringify({ data: { item } }) } : {}) })

describe("an unknown vault on the routes 2026-03-20 kept", () => {
  for (const route of routes) {
    it(`${route[0]} ${route[1].replaceAll(NONE, "{unknown}")}: 403 at 2026-03-20, 404 at 2025-09-23, nothing written`, async () => {
      const before = h.sim.models.position
      const now = await send(v26, route)
      expect([now.status, now.body.error.code, now.body.apiVersion]).toEqual([403, "api_key_not_allowed_for_wallet", "2026-03-20"])
      const older = await send(v25, route)
      expect([older.status, older.body.error.code]).toEqual([404, "resource_not_found"])
      expect(h.sim.models.position).toBe(before)
    })
  }

  it("the 2026-only balance route answers the same 403", async () => {
    const r = await send(v26, ["GET", `/vaults/${NONE}/addresses/${ADDRESS}/balance`])
    expect([r.status, r.body.error.code]).toEqual([403, "api_key_not_allowed_for_wallet"])
  })
})
