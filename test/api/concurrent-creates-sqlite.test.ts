// Concurrent creates on the SQLite store (the appends of one turn are committed together, store/sqlite.ts): every one
// is answered 201, settles, and is in the file when the simulator is opened on it again.
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { createSimulator } from "../../src/simulator.js"
import { makeSqliteStore } from "../../src/store/sqlite.js"
import { assetId } from "../support/catalogue.js"
import { startHarness, type Harness } from "../support/harness.js"

const EXTERNAL_ETH = "0x742d35Cc6634C0532925a3b844Bc454e4438f44e"
let h: Harness | undefined
let dir: string | undefined
afterEach(async () => {
  await h?.close()
  h = undefined
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
})

describe("concurrent creates on SQLite", () => {
  it("answers each 201, settles each, and finds each in the file after a restart", async () => {
    dir = mkdtempSync(join(tmpdir(), "custody-sim-concurrent-"))
    const file = join(dir, "events.sqlite")
    h = await startHarness({ sim: { store: makeSqliteStore({ file }), webhooks: false } })
    const eth = assetId("ethereum", "sepolia", "ETH")
    const acct = (
      await h.client.call<any>("POST", `/vaults/${h.testVaultId}/vault-account`, {
        item: { name: "a", color: "#000000", isHiddenInDashboard: false },
      })
    ).body.data.item.vaultAccountId
    const address = (
      await h.client.call<any>("PUT", `/vaults/${h.testVaultId}/vault-accounts/${acct}/add-asset`, { item: { assetId: eth, label: "w" } })
    ).body.data.item.address as string
    await h.admin("PUT", "/_sim/chains/ethereum/sepolia/mining", { mode: "auto", confirmations: 1 })
    expect(
      (await h.admin("POST", "/_sim/deposits", { blockchain: "ethereum", network: "sepolia", address, assetId: eth, amount: "1" })).status,
    ).toBe(201)

    const url = `/vaults/${h.testVaultId}/ethereum/sepolia/addresses/${address}/transaction-requests`
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        h!.client.call<any>("POST", url, {
          item: { amount: "0.01", feePriority: "standard", recipientAddress: EXTERNAL_ETH, note: `payout ${i}` },
        }),
      ),
    )
    expect(answers.map((a) => a.status)).toEqual(Array.from({ length: 20 }, () => 201))
    const ids = answers.map((a) => a.body.data.item.transactionRequestId as string)
    expect(new Set(ids).size).toBe(20)
    const statuses = async (sim: { models: { txRequests: { byId: Map<string, { status: { latest: () => unknown } }> } } }) =>
      ids.map((id) => sim.models.txRequests.byId.get(id)?.status.latest())
    expect(await statuses(h.sim as never)).toEqual(ids.map(() => "Success"))
    const seed = h.sim.seed
    await h.close()
    h = undefined

    const reopened = await createSimulator({ store: makeSqliteStore({ file }), seed, webhooks: false })
    try {
      expect(await statuses(reopened as never)).toEqual(ids.map(() => "Success"))
    } finally {
      await reopened.close()
    }
  })
})
