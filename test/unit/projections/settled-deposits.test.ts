// Settled deposits: per chain, the mined deposits before `through` are all credited in the log, and the one at it is not.
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { ReadModels } from "../../../src/projections/read-models.js"
import { assetId } from "../../support/catalogue.js"
import { startHarness } from "../../support/harness.js"
import { runScenario, scenarioFixture } from "../../support/scenario.js"

const expectSettled = (models: ReadModels, credited: ReadonlySet<string>) => {
  for (const [chain, view] of models.chains.chains) {
    const through = models.settledDeposits.through(chain)
    expect(through, chain).toBeLessThanOrEqual(view.minedDeposits.length)
    for (let i = 0; i < through; i++) expect(credited.has(view.minedDeposits.at(i).transfer.transactionId), `${chain} #${i}`).toBe(true)
    if (through < view.minedDeposits.length)
      expect(credited.has(view.minedDeposits.at(through).transfer.transactionId), `${chain} #${through}`).toBe(false)
  }
}

const creditedIn = async (h: {
  sim: { store: { readAll: () => Effect.Effect<ReadonlyArray<{ type: string; data: unknown }>, unknown> } }
}) =>
  new Set(
    (await Effect.runPromise(h.sim.store.readAll()))
      .filter((e) => e.type === "DepositCredited")
      .map((e) => (e.data as { transactionId: string }).transactionId),
  )

describe("settled deposits", () => {
  it("count, per chain, the mined deposits credited from the first: one held for its asset stops the count until the asset is added", async () => {
    const h = await startHarness({ fixture: scenarioFixture })
    try {
      const ids = await runScenario(h)
      expectSettled(h.sim.models, await creditedIn(h))
      // A deposit of an asset its address does not hold is mined and held: the count stops at it.
      const sepolia = "ethereum.sepolia"
      const before = h.sim.models.settledDeposits.through(sepolia)
      const eth = assetId("ethereum", "sepolia", "ETH")
      const call = async (method: "POST" | "PUT", path: string, item: unknown) =>
        (await h.client.call<any>(method, path, { item })).body.data.item
      const account = (
        await call("POST", `/vaults/${ids.testVaultId}/vault-account`, { name: "gamma", color: "#0A0A0A", isHiddenInDashboard: false })
      ).vaultAccountId as string
      const address = (
        await call("PUT", `/vaults/${ids.testVaultId}/vault-accounts/${account}/add-asset`, { assetId: eth, label: "eth only" })
      ).address as string
      const usdc = assetId("ethereum", "sepolia", "USDC")
      const held = (
        await h.admin("POST", "/_sim/deposits", { blockchain: "ethereum", network: "sepolia", address, assetId: usdc, amount: "3" })
      ).body.transactionId as string
      await h.admin("POST", "/_sim/chains/ethereum/sepolia/mine", { blocks: 2 })
      const paid = (
        await h.admin("POST", "/_sim/deposits", {
          blockchain: "ethereum",
          network: "sepolia",
          address: ids.ethAddress,
          assetId: eth,
          amount: "1",
        })
      ).body.transactionId as string
      await h.admin("POST", "/_sim/chains/ethereum/sepolia/mine", { blocks: 2 })
      const credited = await creditedIn(h)
      expect(credited.has(held)).toBe(false)
      expect(credited.has(paid)).toBe(true)
      expectSettled(h.sim.models, credited)
      const view = h.sim.models.chains.chain(sepolia)!
      const heldAt = h.sim.models.settledDeposits.through(sepolia)
      expect(heldAt).toBeGreaterThanOrEqual(before)
      expect(view.minedDeposits.at(heldAt).transfer.transactionId).toBe(held)
      // Folded again from the log, the models count the same.
      const folded = new ReadModels()
      for (const e of await Effect.runPromise(h.sim.store.readAll())) folded.apply(e)
      expect(folded.settledDeposits.through(sepolia)).toBe(heldAt)
      // Once the asset is added the held deposit is credited, and the count passes it and the one credited after it.
      await call("PUT", `/vaults/${ids.testVaultId}/vault-accounts/${account}/add-asset`, { assetId: usdc, address })
      const all = await creditedIn(h)
      expect(all.has(held)).toBe(true)
      expectSettled(h.sim.models, all)
      expect(h.sim.models.settledDeposits.through(sepolia)).toBe(view.minedDeposits.length)
    } finally {
      await h.close()
    }
  })
})
