// Property: a malformed body of any shape gets a 4xx in the error shape, never a 5xx, and writes nothing.
import { Effect } from "effect"
import fc from "fast-check"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startHarness, type Harness } from "../support/harness.js"

let h: Harness
beforeAll(async () => {
  h = await startHarness({ app: { log: { error: () => {}, info: () => {} } } })
})
afterAll(async () => h.close())

const hostile = fc.oneof(
  fc.json(),
  fc.jsonValue().map((v) => JSON.stringify({ data: { item: v } })),
  fc.jsonValue().map((v) => JSON.stringify({ data: v })),
  fc
    .dictionary(
      fc.constantFrom("name", "color", "isHiddenInDashboard", "__proto__", "constructor", "label", "assetId", "address"),
      fc.jsonValue(),
    )
    .map((item) => JSON.stringify({ data: { item } })),
  fc.constantFrom(
    '{"data":{"item":{"__proto__":{"admin":true}}}}',
    '{"__proto__":{"data":1}}',
    "null",
    "[]",
    "{",
    '{"data":',
    "\u0000",
    "",
  ),
  fc.json().map((s) => s.slice(0, Math.max(0, s.length - 1))),
  fc
    .nat({ max: 200_000 })
    .map((n) => JSON.stringify({ data: { item: { name: "x".repeat(n), color: "#000000", isHiddenInDashboard: false } } })),
)

describe("hostile bodies", () => {
  it("never produce a 5xx on POST and PUT endpoints, and a refused one writes nothing", async () => {
    const account = await h.client.call<{ item: { vaultAccountId: string } }>("POST", `/vaults/${h.testVaultId}/vault-account`, {
      item: { name: "target", color: "#000000", isHiddenInDashboard: false },
    })
    const accountId = account.ok ? account.body.data.item.vaultAccountId : ""
    const urls = [
      ["POST", `/vaults/${h.testVaultId}/vault-account`],
      ["PUT", `/vaults/${h.testVaultId}/vault-accounts/${accountId}/add-asset`],
      ["POST", `/vaults/${h.testVaultId}/ethereum/sepolia/addresses`],
      ["POST", "/info/bitcoin/testnet/addresses/validate"],
    ] as const
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...urls), hostile, async ([method, url], body) => {
        const before = await Effect.runPromise(h.sim.store.headPosition)
        const r = await h.raw({ method, url, body })
        expect(r.status).toBeLessThan(500)
        if (r.status >= 400) {
          expect(r.body.error.code).toEqual(expect.any(String))
          expect(r.body.requestId).toEqual(expect.any(String))
          expect(await Effect.runPromise(h.sim.store.headPosition)).toBe(before)
        }
      }),
      { numRuns: 300 },
    )
  })
})
