// The README's snapshot example, run as written (only the import points at the source instead of the package).
// readme-snapshots-shown.test.ts checks that the README shows this file's code verbatim.
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from "vitest"
import { sharedSimulator } from "../../src/testing.js"

// One simulator for the file; every test starts from the world `setup` built.
const suite = sharedSimulator(
  { beforeAll, beforeEach, afterEach, afterAll },
  {
    webhooks: false,
    setup: async (sim) => {
      await sim.client().call("POST", `/vaults/${sim.testVaultId}/vault-account`, {
        item: { name: "shared", color: "#000000", isHiddenInDashboard: false },
      })
    },
  },
)

const accountCreated = async (name: string) => {
  const sim = suite.current
  const r = await sim.client().call<{ item: { vaultAccountId: string } }>("POST", `/vaults/${sim.testVaultId}/vault-account`, {
    item: { name, color: "#000000", isHiddenInDashboard: false },
  })
  return r.body.data.item.vaultAccountId
}

let firstId = ""

it("creates an account", async () => {
  firstId = await accountCreated("first")
  expect(firstId).toMatch(/^[0-9a-f]{24}$/)
})

it("starts from the same world: only the shared account, and the next one gets the same id", async () => {
  const events = await suite.current.admin("GET", "/_sim/events?limit=1000")
  expect(events.body.events.filter((e: { type: string }) => e.type === "VaultAccountCreated")).toHaveLength(1)
  expect(await accountCreated("second")).toBe(firstId)
})
