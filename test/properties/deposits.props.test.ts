// Property: for any sequence of deposits, mining and asset additions, each address's total equals the sum of its
// confirmed deposits of assets it holds, and read models rebuilt from the log are identical.
import { Effect } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { ReadModels } from "../../src/projections/read-models.js"
import { startHarness, type Harness } from "../support/harness.js"
import { assetId } from "../support/catalogue.js"
import { PROPERTY_TIMEOUT_MS } from "./budget.js"

type Step =
  | { readonly kind: "deposit"; readonly to: number; readonly token: boolean; readonly amount: number }
  | { readonly kind: "mine"; readonly blocks: number }
  | { readonly kind: "addToken"; readonly to: number }

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("deposit" as const),
      to: fc.nat({ max: 1 }),
      token: fc.boolean(),
      amount: fc.integer({ min: 1, max: 1000 }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("mine" as const), blocks: fc.integer({ min: 1, max: 3 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("addToken" as const), to: fc.nat({ max: 1 }) }) },
)

const snapshot = (models: ReadModels, h: Harness, addresses: ReadonlyArray<string>) =>
  JSON.stringify(
    {
      balances: addresses.flatMap((a) =>
        ["ETH", "USDC"].map((s) => models.holdings.balance("ethereum", "sepolia", a, assetId("ethereum", "sepolia", s), undefined)),
      ),
      txs: models.transactions
        .list(h.testVaultId, undefined)
        .map((t) => [t.view.transfer.transactionId, t.status.latest(), t.view.mined.latest()?.height]),
      vaults: models.workspace.vaultList(undefined).map((v) => [v.profile.vaultId, v.counters.latest()]),
      position: models.position,
    },
    (_k, v) => (typeof v === "bigint" ? v.toString() : v),
  )

describe("deposits, mining and asset additions", () => {
  it(
    "credit exactly the confirmed deposits of held assets, and a rebuild from the log is identical",
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 25 }), fc.integer({ min: 1, max: 3 }), async (steps, confirmations) => {
          const h = await startHarness()
          try {
            const ETH = assetId("ethereum", "sepolia", "ETH")
            const USDC = assetId("ethereum", "sepolia", "USDC")
            const addresses: Array<string> = []
            const accounts: Array<string> = []
            for (let i = 0; i < 2; i++) {
              const acct = (
                await h.client.call<any>("POST", `/vaults/${h.testVaultId}/vault-account`, {
                  item: { name: `a${i}`, color: "#000000", isHiddenInDashboard: false },
                })
              ).body.data.item.vaultAccountId
              accounts.push(acct)
              addresses.push(
                (
                  await h.client.call<any>("PUT", `/vaults/${h.testVaultId}/vault-accounts/${acct}/add-asset`, {
                    item: { assetId: ETH, label: "x" },
                  })
                ).body.data.item.address,
              )
            }
            await h.admin("PUT", "/_sim/chains/ethereum/sepolia/mining", { mode: "manual", confirmations })
            const holdsToken = [false, false]
            const deposits: Array<{ to: number; token: boolean; amount: bigint; minedAt?: number }> = []
            const mempool: Array<number> = []
            let height = 0
            for (const s of steps) {
              if (s.kind === "deposit") {
                const r = await h.admin("POST", "/_sim/deposits", {
                  blockchain: "ethereum",
                  network: "sepolia",
                  address: addresses[s.to],
                  assetId: s.token ? USDC : ETH,
                  amount: String(s.amount),
                })
                expect(r.status).toBe(201)
                mempool.push(deposits.length)
                deposits.push({ to: s.to, token: s.token, amount: BigInt(s.amount) })
              } else if (s.kind === "mine") {
                expect((await h.admin("POST", "/_sim/chains/ethereum/sepolia/mine", { blocks: s.blocks })).body.height).toBe(
                  height + s.blocks,
                )
                for (const i of mempool.splice(0)) deposits[i]!.minedAt = height + 1
                height += s.blocks
              } else {
                await h.client.call("PUT", `/vaults/${h.testVaultId}/vault-accounts/${accounts[s.to]}/add-asset`, {
                  item: { assetId: USDC, address: addresses[s.to] },
                })
                holdsToken[s.to] = true
              }
            }
            for (let a = 0; a < 2; a++) {
              const assets = (await h.client.call<any>("GET", `/vaults/${h.testVaultId}/ethereum/addresses/${addresses[a]}/assets`)).body
                .data.item.assets
              for (const token of [false, true]) {
                const expected = deposits
                  .filter(
                    (d) =>
                      d.to === a &&
                      d.token === token &&
                      d.minedAt !== undefined &&
                      height - d.minedAt + 1 >= confirmations &&
                      (!token || holdsToken[a]),
                  )
                  .reduce((x, d) => x + d.amount, 0n)
                const entry = assets.find((x: any) => x.symbol === (token ? "USDC" : "ETH"))
                if (token && !holdsToken[a]) expect(entry).toBeUndefined()
                else expect(entry.assetData.totalAmount).toBe(expected.toString())
              }
            }
            const rebuilt = new ReadModels()
            for (const e of await Effect.runPromise(h.sim.store.readAll({}))) rebuilt.apply(e)
            expect(snapshot(rebuilt, h, addresses)).toBe(snapshot(h.sim.models, h, addresses))
          } finally {
            await h.close()
          }
        }),
        { numRuns: 40 },
      )
    },
    PROPERTY_TIMEOUT_MS,
  )
})
