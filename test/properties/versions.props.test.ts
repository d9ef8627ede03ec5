// For random workspaces, the same state read through 2024-05-09 and 2026-03-20 shows the same ids and amounts,
// each under its version's names.
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { findTestAsset, formatAmount } from "../../src/testing.js"
import { startInProcess } from "../../src/testing/in-process.js"
import { inProcessFixtureAt } from "../support/harness.js"

const ASSETS = [findTestAsset("ETH", "ethereum"), findTestAsset("USDC", "ethereum"), findTestAsset("BTC", "bitcoin")]

const workspace = fc.record({
  accounts: fc.array(fc.subarray([0, 1, 2], { minLength: 1 }), { minLength: 1, maxLength: 3 }),
  deposits: fc.array(fc.record({ holding: fc.nat(), share: fc.double({ min: 0, max: 1, noNaN: true }) }), { maxLength: 6 }),
})

type Entry = Record<string, any>
const byId = <T extends Entry>(xs: ReadonlyArray<T>, id: string) => new Map(xs.map((x) => [x[id] as string, x]))

describe("2024-05-09 and 2026-03-20 read the same state", () => {
  it("same assets, amounts, rates and transactions under each version's names", async () => {
    await fc.assert(
      fc.asyncProperty(workspace, async ({ accounts, deposits }) => {
        const sim = await startInProcess({ webhooks: false, fixture: inProcessFixtureAt("2024-05-09") })
        try {
          const old = sim.client()
          const made = await sim.admin("POST", "/_sim/api-keys", { apiVersion: "2026-03-20" })
          const now = sim.client({ key: made.body.key, secret: made.body.secret, passphrase: made.body.passphrase })
          const vault = sim.testVaultId
          for (const chain of ["ethereum/sepolia", "bitcoin/testnet"])
            await sim.admin("PUT", `/_sim/chains/${chain}/mining`, { mode: "auto", confirmations: 1 })
          const held: Array<{ account: string; asset: number; address: string }> = []
          for (const assets of accounts) {
            const id = (
              await old.call<any>("POST", `/vaults/${vault}/vault-account`, {
                item: { name: "p", color: "#000000", isHiddenInDashboard: false },
              })
            ).body.data.item.vaultAccountId
            for (const a of assets) {
              const r = await old.call<any>("PUT", `/vaults/${vault}/vault-accounts/${id}/add-asset`, {
                item: { assetId: ASSETS[a]!.assetId, label: "p" },
              })
              held.push({ account: id, asset: a, address: r.body.data.item.address })
            }
          }
          for (const d of deposits) {
            const target = held[d.holding % held.length]!
            const asset = ASSETS[target.asset]!
            const span = asset.deposit.max - asset.deposit.min
            const amount = formatAmount(asset.deposit.min + (span * BigInt(Math.floor(d.share * 1e6))) / 1_000_000n, asset.decimals)
            const r = await sim.admin("POST", "/_sim/deposits", {
              blockchain: asset.blockchain,
              network: asset.network,
              address: target.address,
              assetId: asset.assetId,
              amount,
            })
            expect(r.status).toBe(201)
          }

          const oldAssets = (await old.call<any>("GET", `/vaults/${vault}/assets`)).body.data.item.assets as Array<Entry>
          const newAssets = byId((await now.call<any>("GET", `/vaults/${vault}/assets`)).body.data.item.assets as Array<Entry>, "assetId")
          expect(newAssets.size).toBe(oldAssets.length)
          for (const o of oldAssets) {
            const n = newAssets.get(o.assetId)!
            expect([n.assetUnit, n.exchangeRateUnit, n.assetData, n.type, n.blockchain, n.network]).toEqual([
              o.symbol,
              o.exchangeRate,
              o.assetData,
              o.type,
              o.blockchain,
              o.network,
            ])
          }

          for (const { address, asset } of held) {
            const blockchain = ASSETS[asset]!.blockchain
            const o = (await old.call<any>("GET", `/vaults/${vault}/${blockchain}/addresses/${address}/assets`)).body.data.item
              .assets as Array<Entry>
            const n = byId(
              (await now.call<any>("GET", `/vaults/${vault}/addresses/${address}/balance?blockchain=${blockchain}`)).body.data
                .items as Array<Entry>,
              "assetUnit",
            )
            for (const e of o) expect(n.get(e.symbol)?.assetData).toEqual(e.assetData)
          }

          const accountTotals = byId(
            (await now.call<any>("GET", `/vaults/${vault}/vault-accounts/details?limit=500`)).body.data.items as Array<Entry>,
            "vaultAccountId",
          )
          for (const id of new Set(held.map((x) => x.account))) {
            const expected = new Map<string, bigint>()
            for (const { address, asset, account } of held) {
              if (account !== id) continue
              const a = ASSETS[asset]!
              const o = (await old.call<any>("GET", `/vaults/${vault}/${a.blockchain}/addresses/${address}/assets`)).body.data.item
                .assets as Array<Entry>
              const total = o.find((e) => e.symbol === a.symbol)?.assetData.totalAmount ?? "0"
              expected.set(a.assetId, (expected.get(a.assetId) ?? 0n) + toUnits(total, a.decimals))
            }
            const balances = accountTotals.get(id)!.balances as Array<Entry>
            expect(
              new Map(balances.map((b) => [b.assetId, toUnits(b.totalAmount, ASSETS.find((x) => x.assetId === b.assetId)!.decimals)])),
            ).toEqual(expected)
          }

          const oldTx = (await old.call<any>("GET", `/vaults/${vault}/transactions?limit=500`)).body.data.items as Array<Entry>
          const newTx = byId((await now.call<any>("GET", `/vaults/${vault}/transactions?limit=500`)).body.data.items as Array<Entry>, "id")
          expect(newTx.size).toBe(oldTx.length)
          for (const o of oldTx) {
            const n = newTx.get(o.id)!
            expect([n.transactionId, n.status, n.transactionFee.amount, n.transactionFee.amountUnit]).toEqual([
              o.transactionId,
              o.status,
              o.transactionFee.amount,
              o.transactionFee.unitSymbol,
            ])
            expect(n.recipients.map((p: Entry) => [p.address, p.amount, p.amountUnit])).toEqual(
              o.recipients.map((p: Entry) => [p.address, p.amount, p.unitSymbol]),
            )
          }
        } finally {
          await sim.close()
        }
      }),
      { numRuns: 15 },
    )
  }, 300_000)
})

const toUnits = (decimal: string, decimals: number): bigint => {
  const [whole, frac = ""] = decimal.split(".")
  return BigInt(whole!) * 10n ** BigInt(decimals) + BigInt(frac.padEnd(decimals, "0") || "0")
}
