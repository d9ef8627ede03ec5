// The README's property-testing example, run as written (only the import points at the source instead of the package).
// readme-example.test.ts checks that the README shows this file's code verbatim.
import fc from "fast-check"
import { expect, it } from "vitest"
import { custodyArbitraries, findTestAsset, formatAmount, startInProcess } from "../../src/testing.js"

const custody = custodyArbitraries(fc)
const ETH = findTestAsset("ETH") // on ethereum sepolia

type Assets = { item: { assets: Array<{ assetId: string; assetData: { totalAmount: string } }> } }

it("credits an address exactly the sum of its confirmed deposits", async () => {
  const deposits = fc.array(custody.baseUnits(ETH.deposit.max, ETH.deposit.min), { maxLength: 5 })
  await fc.assert(
    fc.asyncProperty(deposits, async (amounts) => {
      const sim = await startInProcess({ webhooks: false })
      try {
        const client = sim.client()
        const vault = sim.testVaultId
        // A block per transaction, credited at one confirmation.
        await sim.admin("PUT", "/_sim/chains/ethereum/sepolia/mining", { mode: "auto", confirmations: 1 })
        const account = await client.call<{ item: { vaultAccountId: string } }>("POST", `/vaults/${vault}/vault-account`, {
          item: { name: "alice", color: "#000000", isHiddenInDashboard: false },
        })
        const id = account.body.data.item.vaultAccountId
        const added = await client.call<{ item: { address: string } }>("PUT", `/vaults/${vault}/vault-accounts/${id}/add-asset`, {
          item: { assetId: ETH.assetId, label: "alice" },
        })
        const address = added.body.data.item.address
        for (const amount of amounts) {
          const deposit = {
            blockchain: "ethereum",
            network: "sepolia",
            address,
            assetId: ETH.assetId,
            amount: formatAmount(amount, ETH.decimals),
          }
          expect((await sim.admin("POST", "/_sim/deposits", deposit)).status).toBe(201)
        }
        const read = await client.call<Assets>("GET", `/vaults/${vault}/addresses/${address}/assets`)
        const eth = read.body.data.item.assets.find((a) => a.assetId === ETH.assetId)
        expect(eth?.assetData.totalAmount).toBe(
          formatAmount(
            amounts.reduce((a, b) => a + b, 0n),
            ETH.decimals,
          ),
        )
      } finally {
        await sim.close()
      }
    }),
    { numRuns: 25 },
  )
}, 60_000) // 25 runs of a simulator each: well past vitest's 5 s default
